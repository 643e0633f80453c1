/// One HTTP request for ``HTTPClient``: the method, the URL, headers, a body and the bounds of
/// the exchange.
///
/// ```swift
/// let request = HTTPRequest(method: "GET", url: "http://localhost/v1/sessions", unixSocketPath: "navlogd.sock")
/// let response = try HTTPClient().send(request)
/// ```
public struct HTTPRequest: Sendable, Equatable {
    /// `GET`, `POST`, `DELETE`, or any other token; sent as given.
    public var method: String
    /// An `http://` or `https://` URL. Over a Unix socket its host only fills the `Host` header.
    public var url: String
    /// Extra request headers. libcurl sets `Host`, `Content-Length` and `Connection` itself.
    public var headers: [String: String]
    public var body: [UInt8]
    /// How long the whole exchange may take, connecting and TLS included.
    public var timeout: Duration
    /// A Unix domain socket to connect to instead of the URL's host and port
    /// ([CURLOPT_UNIX_SOCKET_PATH](https://curl.se/libcurl/c/CURLOPT_UNIX_SOCKET_PATH.html)).
    public var unixSocketPath: String?
    /// A PEM file of the certificate authorities that may sign an https server's certificate,
    /// instead of the system's ([CURLOPT_CAINFO](https://curl.se/libcurl/c/CURLOPT_CAINFO.html)).
    public var certificateAuthorityFile: String?

    /// Creates a request; redirects are never followed, a 3xx is returned as it is.
    public init(
        method: String, url: String, headers: [String: String] = [:], body: [UInt8] = [], timeout: Duration = .seconds(30),
        unixSocketPath: String? = nil, certificateAuthorityFile: String? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.unixSocketPath = unixSocketPath
        self.certificateAuthorityFile = certificateAuthorityFile
    }

    /// The timeout in whole milliseconds, at least 1 (libcurl reads 0 as no timeout).
    var timeoutMilliseconds: Int {
        let (seconds, attoseconds) = timeout.components
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !milliseconds.overflow else { return Int.max }
        return Int(max(1, milliseconds.partialValue + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
    }
}

/// What a server answered to an ``HTTPRequest``.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code, such as 200; a 3xx when the server redirects (redirects are not followed).
    public var status: Int
    /// The body, whole: chunked and length-delimited answers alike.
    public var body: [UInt8]

    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}
