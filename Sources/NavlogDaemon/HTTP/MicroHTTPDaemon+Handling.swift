import CMicroHTTPD
import Foundation

// MARK: - The access handler

/// MHD's access handler: called once when the headers are in, once per body chunk, and once
/// more (or again after each resume) when the body is complete.
///
/// MHD accepts a response only in the first call (before the body) or in the last one (after
/// it), so a body that grows too large while it arrives is read to its end and dropped, and
/// answered 413 then.
let accessHandler: @convention(c) (
    UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
    UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result = { context, connection, url, method, _, uploadData, uploadSize, slot in
    guard let context, let connection, let slot, let uploadSize else { return .NO }
    let server = Unmanaged<MicroHTTPDaemon>.fromOpaque(context).takeUnretainedValue()
    let exchange: HTTPExchange
    if let pointer = slot.pointee {
        exchange = Unmanaged<HTTPExchange>.fromOpaque(pointer).takeUnretainedValue()
    } else {
        // The URI log callback creates every exchange; this is only a fallback.
        exchange = HTTPExchange(connection: connection, target: url.map { String(cString: $0) } ?? "/")
        slot.pointee = Unmanaged.passRetained(exchange).toOpaque()
    }
    guard exchange.hasBegun else { return server.begin(exchange, url: url, method: method) }
    if uploadSize.pointee > 0 {
        defer { uploadSize.pointee = 0 }
        guard !exchange.isOversized, !exchange.isAnswered, let uploadData else { return .YES }
        if exchange.request.body.count + uploadSize.pointee > server.settings.maximumBodyBytes() {
            // Too late to answer: the rest is read and dropped, and the last call answers 413.
            exchange.request.body = []
            exchange.isOversized = true
            return .YES
        }
        uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
            exchange.request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
        }
        return .YES
    }
    return server.finish(exchange)
}

extension MicroHTTPDaemon {
    /// The headers are in: reads the request and refuses at once what cannot be served.
    func begin(_ exchange: HTTPExchange, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?) -> MHD_Result {
        exchange.hasBegun = true
        exchange.startedNanoseconds = HTTPExchange.monotonicNow()
        var headers = HeaderCollector()
        exchange.request = makeRequest(exchange.connection, url: url, method: method, headers: &headers)
        if register(exchange) { exchange.stop(answeringWith: APIError.shuttingDown.response) }
        if let refusal = Self.refusal(target: exchange.target, contentLengths: headers.contentLengths) {
            _ = Self.context(of: exchange.connection)?.requestArrived()  // answered; no longer awaited
            return queue(refusal.response, for: exchange)
        }
        if let length = headers.contentLengths.first.flatMap(Int.init), length > settings.maximumBodyBytes() {
            _ = Self.context(of: exchange.connection)?.requestArrived()
            return refuseOversized(exchange)
        }
        return .YES
    }

    /// What refuses a request before its body: a target whose decoded form would hold a NUL
    /// byte (MHD's C strings would cut it short there, `/v1/sessions/s-1%00x` reading as
    /// `/v1/sessions/s-1`), or `Content-Length` headers that disagree (MHD reads the first).
    static func refusal(target: String, contentLengths: [String]) -> APIError? {
        if let nul = target.range(of: "%00") {
            let query = target.firstIndex(of: "?")
            if query == nil || nul.lowerBound < query! {
                let path = query.map { String(target[..<$0]) } ?? target
                return APIError(status: 400, code: "invalid_path", detail: "the path \(path) holds an encoded NUL byte (%00)")
            }
            return APIError(status: 400, code: "invalid_query",
                            detail: "the query \(target[target.index(after: query!)...]) holds an encoded NUL byte (%00)")
        }
        if contentLengths.count > 1, Set(contentLengths.map { $0.trimmingCharacters(in: .whitespaces) }).count > 1 {
            return APIError(status: 400, code: "invalid_header",
                            detail: "the request has \(contentLengths.count) Content-Length headers that differ: \(contentLengths.joined(separator: ", "))")
        }
        return nil
    }

    /// Reads the method, path, query and the headers handlers use.
    func makeRequest(_ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
                     headers: inout HeaderCollector) -> HTTPRequest {
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, collectHeader, pointer)
        }
        var query = QueryCollector()
        withUnsafeMutablePointer(to: &query) { pointer in
            _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, collectArgument, pointer)
        }
        return HTTPRequest(
            method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
            query: query.items, headers: headers.values
        )
    }

    /// Answers 413 now; MHD skips the rest of the body and closes the connection.
    func refuseOversized(_ exchange: HTTPExchange) -> MHD_Result {
        exchange.isOversized = true
        let limit = settings.maximumBodyBytes()
        return queue(APIError.payloadTooLarge(limit: limit).response, for: exchange)
    }

    /// Handles the complete request: answers it, defers it, or starts its stream.
    func finish(_ exchange: HTTPExchange) -> MHD_Result {
        if exchange.isAnswered { return .YES }
        if let context = Self.context(of: exchange.connection), !context.requestArrived() {
            // Past its deadline: the socket is shut already, so nothing runs and nobody hears.
            exchange.closesConnection = true
            return queue(APIError.requestTimeout(seconds: settings.requestTimeoutSeconds).response, for: exchange)
        }
        if exchange.isOversized {
            exchange.closesConnection = true
            return queue(APIError.payloadTooLarge(limit: settings.maximumBodyBytes()).response, for: exchange)
        }
        if exchange.isDeferred {
            if let response = exchange.takeResponse() { return queue(response, for: exchange) }
            _ = exchange.suspendUnlessWoken()
            return .YES
        }
        if exchange.isStopping || isStopping {
            return queue(APIError.shuttingDown.response, for: exchange)
        }
        switch handler(&exchange.request) {
        case .response(let response):
            return queue(response, for: exchange)
        case .deferred(let work):
            exchange.isDeferred = true
            exchange.start(work)
            // No suspension in this call: MHD calls again at once, having marked the connection
            // as waiting on the application. Suspended now, it would stay marked as reading, and
            // once resumed would read a client's half-close (shutdown(SHUT_WR) after sending) as
            // the client going away, dropping the answer of a request that had taken effect.
            return .YES
        case .stream(let status, let headers, let source):
            return startStream(source, status: status, headers: headers, for: exchange)
        }
    }

    /// Queues `response` on the exchange's connection.
    func queue(_ response: HTTPResponse, for exchange: HTTPExchange) -> MHD_Result {
        exchange.isAnswered = true
        let handle = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let handle else { return .NO }
        defer { MHD_destroy_response(handle) }
        for (name, value) in response.headers { _ = MHD_add_response_header(handle, name, value) }
        if isDraining || exchange.closesConnection { _ = MHD_add_response_header(handle, "Connection", "close") }
        let result = MHD_queue_response(exchange.connection, UInt32(response.status), handle)
        observer(exchange.request, response.status, exchange.elapsedNanoseconds)
        return result
    }

    /// Queues a response of unknown length read from `source` as data arrives (chunked).
    func startStream(_ source: any HTTPStreamSource, status: Int, headers: [(name: String, value: String)], for exchange: HTTPExchange) -> MHD_Result {
        exchange.isAnswered = true
        exchange.stream = source
        source.attach { [weak exchange] in exchange?.wake() }
        let retained = Unmanaged.passRetained(exchange).toOpaque()
        guard let handle = MHD_create_response_from_callback(UInt64.max, 16 * 1024, readStream, retained, releaseStream) else {
            Unmanaged<HTTPExchange>.fromOpaque(retained).release()
            return .NO
        }
        defer { MHD_destroy_response(handle) }
        for (name, value) in headers { _ = MHD_add_response_header(handle, name, value) }
        let result = MHD_queue_response(exchange.connection, UInt32(status), handle)
        observer(exchange.request, status, exchange.elapsedNanoseconds)
        return result
    }
}

// MARK: - Streams

/// MHD's content reader for streams: copies what the source has, suspends when it has nothing.
private let readStream: @convention(c) (UnsafeMutableRawPointer?, UInt64, UnsafeMutablePointer<CChar>?, Int) -> Int = { context, _, buffer, maximum in
    guard let context, let buffer else { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(context).takeUnretainedValue()
    guard let source = exchange.stream, !exchange.isStopping else { return Int(MHD_CONTENT_READER_END_OF_STREAM) }
    guard let count = source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: maximum)) else {
        return Int(MHD_CONTENT_READER_END_OF_STREAM)
    }
    if count == 0 { _ = exchange.suspendUnlessWoken() }
    return count
}

/// Frees the stream's hold on its exchange when MHD destroys the response.
private let releaseStream: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    guard let context else { return }
    Unmanaged<HTTPExchange>.fromOpaque(context).release()
}

// MARK: - Headers and query arguments

/// Where ``collectHeader`` puts the headers handlers read, and every `Content-Length`.
struct HeaderCollector {
    /// By lowercased name: `authorization`, `accept`, `content-type`, `content-length`,
    /// `last-event-id`, for the web console `cookie`, `origin` and `sec-fetch-site`, and for
    /// ingest `content-encoding` and `idempotency-key` (the first of each).
    var values: [String: String] = [:]
    /// Every `Content-Length` value, in order: more than one that differ is refused.
    var contentLengths: [String] = []

    /// The names read, as bytes, lowercased.
    static let names: [(name: String, bytes: [UInt8])] = [
        "authorization", "accept", "content-type", "content-length", "last-event-id",
        "cookie", "origin", "sec-fetch-site", "content-encoding", "idempotency-key",
    ].map { ($0, Array($0.utf8)) }
}

/// One pass over the headers (a lookup per name each walked the whole list).
private let collectHeader: @convention(c) (
    UnsafeMutableRawPointer?, MHD_ValueKind, UnsafePointer<CChar>?, Int, UnsafePointer<CChar>?, Int
) -> MHD_Result = { context, _, key, keySize, value, valueSize in
    guard let context, let key else { return .YES }
    let collector = context.assumingMemoryBound(to: HeaderCollector.self)
    let keyBytes = UnsafeRawBufferPointer(start: key, count: keySize)
    for (name, bytes) in HeaderCollector.names where bytes.count == keySize {
        guard zip(keyBytes, bytes).allSatisfy({ ($0 | 0x20) == $1 || $0 == $1 }) else { continue }
        let text = value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) } ?? ""
        if collector.pointee.values[name] == nil { collector.pointee.values[name] = text }
        if name == "content-length" { collector.pointee.contentLengths.append(text) }
        break
    }
    return .YES
}

/// Where ``collectArgument`` puts the query arguments.
struct QueryCollector {
    var items: [(name: String, value: String)] = []
}

private let collectArgument: @convention(c) (UnsafeMutableRawPointer?, MHD_ValueKind, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> MHD_Result = { context, _, key, value in
    guard let context, let key else { return .YES }
    let collector = context.assumingMemoryBound(to: QueryCollector.self)
    collector.pointee.items.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    return .YES
}
