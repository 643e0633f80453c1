import Foundation
import NavlogHTTPClient
import Synchronization

/// One open session page of the web console, as the daemon sees it: the page's event stream
/// (`GET /v1/events?format=sse&text=true&max_rate=50&session=ID`) read on a socket of its own, and after
/// events, a reload of the screen (`GET /ui/api/sessions/ID`) at most every 250 ms, the
/// throttle of the page's script.
final class ConsoleViewer: @unchecked Sendable {
    /// The page script's throttle between screen reloads.
    static let pollInterval = 0.25

    private let descriptor: Int32
    private let session: String
    private let port: Int
    private let isStopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    // Written by the viewer's thread only, read after `finished`.
    private var events = 0
    private var polls = 0
    private var failure: String?

    /// Opens the stream and waits for its response header: the subscription is then live.
    init(port: Int, session: String) throws {
        self.port = port
        self.session = session
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchmarkError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(descriptor); throw BenchmarkError("connect: \(String(cString: strerror(errno)))") }
        let request = "GET /v1/events?format=sse&text=true&max_rate=50&session=\(session) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
        guard request.utf8CString.withUnsafeBufferPointer({ send(descriptor, $0.baseAddress, $0.count - 1, 0) }) == request.utf8.count else {
            close(descriptor)
            throw BenchmarkError("the stream request was not sent")
        }
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.ends(with: Array("\r\n\r\n".utf8)) {
            guard recv(descriptor, &byte, 1, 0) == 1 else { close(descriptor); throw BenchmarkError("the stream closed before its header") }
            head.append(byte)
        }
        guard String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 200") else {
            close(descriptor)
            throw BenchmarkError("the stream answered \(String(decoding: head.prefix(40), as: UTF8.self))")
        }
    }

    /// Starts reading the stream and reloading the screen, on a thread of its own.
    func start() {
        Thread.detachNewThread { [self] in
            defer { finished.signal() }
            do { try watch() } catch { failure = "\(error)" }
        }
    }

    /// Stops, closes the stream, and returns the events read and screens reloaded.
    func stop() throws -> (events: Int, polls: Int) {
        isStopping.store(true, ordering: .relaxed)
        finished.wait()
        close(descriptor)
        if let failure { throw BenchmarkError("a console viewer failed: \(failure)") }
        return (events, polls)
    }

    private func watch() throws {
        let client = try HTTPClient()
        var timeout = timeval(tv_sec: 0, tv_usec: 20_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let screen = NavlogHTTPClient.HTTPRequest(method: "GET", url: "http://127.0.0.1:\(port)/ui/api/sessions/\(session)")
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var previous: UInt8 = 0
        var hasUnseenEvents = false
        var lastPoll = 0.0
        while !isStopping.load(ordering: .relaxed) {
            // Blocks until bytes arrive, or the receive timeout (set below) lets it see a stop.
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { throw BenchmarkError("the stream closed") }
            if count > 0 {
                // Each message ends with an empty line; the JSON of the data line has no raw
                // newline, so a blank line is one event (or, rarely, a heartbeat).
                var found = 0
                for index in 0..<count {
                    let byte = buffer[index]
                    if byte == 10, previous == 10 { found += 1 }
                    previous = byte
                }
                events += found
                if found > 0 { hasUnseenEvents = true }
            }
            let now = monotonicSeconds()
            if hasUnseenEvents, now - lastPoll >= Self.pollInterval {
                let reply = try client.send(screen)
                guard reply.status == 200 else { throw BenchmarkError("the screen answered \(reply.status)") }
                polls += 1
                lastPoll = now
                hasUnseenEvents = false
            }
        }
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
