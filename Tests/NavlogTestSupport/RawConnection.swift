import Foundation
import XCTest

/// A TCP connection to a daemon on loopback that sends exactly the bytes it is given and reads
/// whatever comes back, for requests no well-behaved client would send.
public final class RawConnection {
    private var descriptor: Int32

    /// Connects to `127.0.0.1:port`.
    public init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard descriptor >= 0, connected == 0 else {
            throw HTTPTestError("cannot connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Writes `text` (as UTF-8) or `bytes` whole.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw HTTPTestError("send failed: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    /// Closes the sending side: the server reads the end of the stream, and can still answer.
    public func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }

    /// Whether something (bytes or the end of the stream) can be read within `milliseconds`.
    public func isReadable(within milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }

    /// Reads until the server closes the connection or `seconds` pass (a bound, not a timing);
    /// returns what arrived and whether the server closed.
    public func readToEnd(within seconds: Double = 10) -> (bytes: [UInt8], isClosed: Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, isReadable(within: Int32(left * 1000) + 1) else { return (received, false) }
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count > 0 { received += chunk[..<count]; continue }
            return (received, count == 0 || errno == ECONNRESET)
        }
    }

    /// Reads until the server closes; returns the text, failing the test if it never closes.
    public func readResponse(within seconds: Double = 10, file: StaticString = #filePath, line: UInt = #line) -> String {
        let (bytes, isClosed) = readToEnd(within: seconds)
        XCTAssertTrue(isClosed, "the server did not close the connection within \(seconds) s", file: file, line: line)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A raw response split into its status, headers (names lowercased) and body.
public struct RawResponse {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: String
    /// How many status lines the bytes hold (a well-formed answer has one).
    public var statusLineCount: Int

    public init(_ text: String) throws {
        guard let split = text.range(of: "\r\n\r\n") else { throw HTTPTestError("no end of head in: \(text.prefix(200))") }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw HTTPTestError("not a status line: \(lines[0])")
        }
        self.status = status
        headers = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        body = String(text[split.upperBound...])
        statusLineCount = text.components(separatedBy: "HTTP/1.1 ").count - 1
    }

    public func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
}

public struct HTTPTestError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
