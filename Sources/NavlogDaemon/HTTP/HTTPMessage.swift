import NavlogEvents

/// One HTTP request as the daemon's handlers see it: the body complete, a few headers.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without the query, such as `/v1/sessions/s-1`.
    public var path: String
    /// The query arguments in order; a key may repeat.
    public var query: [(name: String, value: String)]
    /// The headers handlers read, by lowercased name: `authorization`, `accept`, `content-type`,
    /// and what tells the web console's requests apart: `cookie`, `origin`, `sec-fetch-site`.
    public var headers: [String: String]
    public var body: [UInt8]
    /// The route template the handler matched, such as `/v1/sessions/{id}` (`other` when none
    /// did), which labels the request in metrics; nil until a handler has seen the request.
    public var route: String?

    public init(method: String, path: String, query: [(name: String, value: String)] = [], headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The values of query argument `name`, comma-separated values split.
    public func queryValues(_ name: String) -> [String] {
        query.filter { $0.name == name }.flatMap { $0.value.split(separator: ",").map(String.init) }
    }
}

/// A complete HTTP response.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response; the body is `value` serialized with a trailing newline.
    public static func json(_ status: Int, _ value: JSONValue, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        var text = value.serialized()
        text += "\n"
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(text.utf8))
    }

    /// A plain-text response.
    public static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }
}

/// What a handler gives back: a response now, a response computed asynchronously while the
/// connection is suspended, or a stream of unknown length.
public enum HTTPReply: Sendable {
    case response(HTTPResponse)
    case deferred(@Sendable () async -> HTTPResponse)
    case stream(status: Int, headers: [(name: String, value: String)], source: any HTTPStreamSource)
}

/// The producer side of a streamed response body.
///
/// The server calls ``read(into:)`` on its own threads. When nothing is available the source
/// returns 0 and must call the `wake` closure given to ``attach(wake:)`` once data arrives or
/// the stream ends; the server suspends the connection in between, so nothing spins.
public protocol HTTPStreamSource: AnyObject, Sendable {
    /// Registers the closure that resumes the connection; called once, before the first read.
    func attach(wake: @escaping @Sendable () -> Void)
    /// Copies available bytes into `buffer`; returns their count, 0 when none is available yet,
    /// or nil at the end of the stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int?
    /// Tells the source its connection is gone; it stops producing.
    func detach()
}
