import CMicroHTTPD
import Foundation

// MARK: - The access handler

/// MHD's access handler: called once when the headers are in, once per body chunk, and once
/// more (or again after each resume) when the body is complete.
let accessHandler: @convention(c) (
    UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
    UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result = { context, connection, url, method, _, uploadData, uploadSize, slot in
    guard let context, let connection, let slot, let uploadSize else { return .NO }
    let server = Unmanaged<MicroHTTPDaemon>.fromOpaque(context).takeUnretainedValue()
    guard let pointer = slot.pointee else {
        let exchange = HTTPExchange(connection: connection, request: server.makeRequest(connection, url: url, method: method))
        slot.pointee = Unmanaged.passRetained(exchange).toOpaque()
        let isStopping = server.register(exchange)
        if isStopping { exchange.stop(answeringWith: HTTPResponse(status: 503)) }
        if let length = exchange.request.headers["content-length"].flatMap(Int.init), length > server.settings.maximumBodyBytes() {
            return server.refuseOversized(exchange)
        }
        return .YES
    }
    let exchange = Unmanaged<HTTPExchange>.fromOpaque(pointer).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        defer { uploadSize.pointee = 0 }
        guard !exchange.isOversized, !exchange.isAnswered, let uploadData else { return .YES }
        if exchange.request.body.count + uploadSize.pointee > server.settings.maximumBodyBytes() {
            exchange.request.body = []
            return server.refuseOversized(exchange)
        }
        uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
            exchange.request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
        }
        return .YES
    }
    return server.finish(exchange)
}

extension MicroHTTPDaemon {
    /// The headers handlers read, the only ones copied out of MHD.
    static let headersRead: [(name: String, cName: StaticString)] = [
        ("authorization", "authorization"), ("accept", "accept"), ("content-type", "content-type"), ("content-length", "content-length"),
    ]

    /// Reads the method, path, query and the headers handlers use.
    func makeRequest(_ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?) -> HTTPRequest {
        var headers: [String: String] = [:]
        for (name, cName) in Self.headersRead {
            // The name as the literal's own NUL-terminated bytes: passing the `String`
            // converted it into a new C string on every lookup.
            let pointer = UnsafeRawPointer(cName.utf8Start).assumingMemoryBound(to: CChar.self)
            if let value = MHD_lookup_connection_value(connection, .HEADER_KIND, pointer) { headers[name] = String(cString: value) }
        }
        var query = QueryCollector()
        withUnsafeMutablePointer(to: &query) { pointer in
            _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, collectArgument, pointer)
        }
        return HTTPRequest(
            method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
            query: query.items, headers: headers
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
        if exchange.isDeferred {
            if let response = exchange.takeResponse() { return queue(response, for: exchange) }
            _ = exchange.suspendUnlessWoken()
            return .YES
        }
        if exchange.isStopping || isStopping {
            return queue(APIError.shuttingDown.response, for: exchange)
        }
        switch handler(exchange.request) {
        case .response(let response):
            return queue(response, for: exchange)
        case .deferred(let work):
            exchange.isDeferred = true
            guard exchange.suspendUnlessWoken() else { return queue(APIError.shuttingDown.response, for: exchange) }
            Task { [exchange] in exchange.complete(with: await work()) }
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
        if isStopping { _ = MHD_add_response_header(handle, "Connection", "close") }
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

// MARK: - Query arguments

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
