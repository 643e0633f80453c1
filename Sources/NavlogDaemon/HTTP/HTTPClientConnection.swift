import Foundation

/// A minimal HTTP/1.1 keep-alive client over one Unix or TCP socket: for `navlog` talking to
/// a daemon, the benchmark's load clients and the tests.
///
/// It sends one request at a time and reads responses with a `Content-Length` (what the
/// daemon sends for everything but `/v1/events`). Not for general use: no TLS, no chunked
/// responses, no redirects.
///
/// ```swift
/// let connection = try HTTPClientConnection(unixSocket: "navlogd.sock")
/// let reply = try connection.send("POST", "/v1/sessions", body: Array(#"{"app":"tabs"}"#.utf8))
/// ```
public final class HTTPClientConnection {
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private let hostHeader: String

    /// Connects to the Unix socket at `path`; reads time out after `timeoutSeconds`.
    public init(unixSocket path: String, timeoutSeconds: Int = 30) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        hostHeader = "localhost"
        var address = try ListeningSocket.makeAddress(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try finishConnecting(connected, to: path, timeoutSeconds: timeoutSeconds)
    }

    /// Connects to `host:port` (IPv4); reads time out after `timeoutSeconds`.
    public init(host: String, port: Int, timeoutSeconds: Int = 30) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        hostHeader = "\(host):\(port)"
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        _ = inet_pton(AF_INET, host, &address.sin_addr)
        var yes: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try finishConnecting(connected, to: hostHeader, timeoutSeconds: timeoutSeconds)
    }

    private func finishConnecting(_ result: Int32, to target: String, timeoutSeconds: Int) throws {
        guard descriptor >= 0, result == 0 else {
            let reason = String(cString: strerror(errno))
            close()
            throw HTTPClientError(detail: "cannot connect to \(target): \(reason)")
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close() }

    /// Closes the connection.
    public func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    // MARK: - Requests

    /// Sends one request and reads its response; throws when the connection fails or closes.
    public func send(_ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = []) throws -> (status: Int, body: [UInt8]) {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        try write(Array(head.utf8) + body)
        return try readResponse()
    }

    /// Writes raw bytes, for clients that misbehave on purpose.
    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw HTTPClientError(detail: "send failed: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// Reads until the peer closes; returns false when the read timed out first.
    public func waitForClose() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    private func readResponse() throws -> (status: Int, body: [UInt8]) {
        var headerEnd: Int?
        while headerEnd == nil {
            headerEnd = Self.headerEnd(in: buffer)
            if headerEnd == nil { try fill() }
        }
        let head = buffer[..<headerEnd!]
        // "HTTP/1.1 200 OK": the status is bytes 9 to 11.
        guard head.count >= 12, head.starts(with: Array("HTTP/1.".utf8)),
            let status = Self.decimal(head[(head.startIndex + 9)..<(head.startIndex + 12)])
        else {
            throw HTTPClientError(detail: "not an HTTP response: \(String(decoding: head.prefix(80), as: UTF8.self))")
        }
        let length = Self.contentLength(in: head) ?? 0
        let bodyStart = headerEnd! + 4
        while buffer.count < bodyStart + length { try fill() }
        let body = Array(buffer[bodyStart..<bodyStart + length])
        buffer.removeFirst(bodyStart + length)
        return (status, body)
    }

    /// The index of the blank line that ends the head (`\r\n\r\n`), if it has arrived.
    private static func headerEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// The value of the `Content-Length` header, matched without regard to case.
    private static func contentLength(in head: ArraySlice<UInt8>) -> Int? {
        let name = Array("content-length:".utf8)
        var lineStart = head.startIndex
        while lineStart < head.endIndex {
            let lineEnd = head[lineStart...].firstIndex(of: 13) ?? head.endIndex
            let line = head[lineStart..<lineEnd]
            if line.count > name.count, zip(line, name).allSatisfy({ ($0 | 0x20) == $1 || $0 == $1 }) {
                let value = line.dropFirst(name.count).drop { $0 == 32 || $0 == 9 }
                return decimal(value.prefix { $0 >= 48 && $0 <= 57 })
            }
            lineStart = lineEnd + 2
        }
        return nil
    }

    private static func decimal(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count < 18 else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= 48, digit <= 57 else { return nil }
            value = value * 10 + Int(digit - 48)
        }
        return value
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        guard count > 0 else {
            throw HTTPClientError(detail: count == 0 ? "the server closed the connection" : "receive failed: \(String(cString: strerror(errno)))")
        }
        buffer += chunk[..<count]
    }
}

/// A client request that failed, with why.
public struct HTTPClientError: Error, CustomStringConvertible {
    public var detail: String

    public init(detail: String) {
        self.detail = detail
    }

    public var description: String { detail }
}
