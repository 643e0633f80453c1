import CMicroHTTPD
import Dispatch
import Foundation

// MARK: - Request deadlines

extension MicroHTTPDaemon {
    /// The context ``connectionChanged`` attached to `connection` when it opened.
    static func context(of connection: OpaquePointer) -> HTTPConnectionContext? {
        navlog_mhd_connection_context(connection).map { Unmanaged<HTTPConnectionContext>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Starts checking, a few times a second, for connections whose request is late.
    ///
    /// A late connection's socket is shut down (not closed: libmicrohttpd owns it), so MHD
    /// reads the end of the stream and closes it as a client that went away; no answer is sent,
    /// since the request never arrived whole. The checker runs under the connections' lock, and
    /// MHD reports a connection closed before it closes the socket, so a descriptor the
    /// checker shuts down is never one MHD has already reused.
    func startDeadlineChecker() -> any DispatchSourceTimer {
        // A quarter of the timeout, at most a second: a late connection is closed within that
        // much of its deadline.
        let milliseconds = min(1000, max(50, settings.requestTimeoutSeconds * 250))
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "navlogd.http.deadlines", qos: .utility))
        timer.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(milliseconds), leeway: .milliseconds(20))
        timer.setEventHandler { [weak self] in self?.closeLateConnections() }
        timer.resume()
        return timer
    }

    /// Shuts down the sockets of the connections past their request deadline.
    func closeLateConnections() {
        let now = HTTPExchange.monotonicNow()
        let late = connections.withLock { connections in
            var late = 0
            for context in connections.values where context.expireIfLate(now: now) {
                shutdown(context.descriptor, Int32(SHUT_RDWR))
                late += 1
            }
            return late
        }
        if late > 0 {
            log.debug("closed connections whose request did not arrive in time",
                      ["connections": String(late), "request_timeout_s": String(settings.requestTimeoutSeconds)])
        }
    }
}
