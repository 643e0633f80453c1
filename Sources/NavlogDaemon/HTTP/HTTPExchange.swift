import CMicroHTTPD
import Foundation
import Synchronization

/// One request on one connection, from its first header to its completion.
///
/// MHD calls the access handler several times per request on one of its threads; the fields
/// marked "MHD thread" are touched only there. A deferred response or a stream is finished on
/// other threads through ``complete(with:)`` and ``wake()``, which hold `guarded`: the
/// connection is suspended and resumed only under that lock and never after MHD reported the
/// request complete, so no resume can reach a connection that is not suspended or is gone.
///
/// `@unchecked Sendable`: the MHD-thread fields are confined to the thread MHD runs the
/// connection on (MHD never handles one connection on two threads at once), and the rest is
/// behind the `guarded` mutex.
final class HTTPExchange: @unchecked Sendable {
    let connection: OpaquePointer
    /// Monotonic nanoseconds when the first header arrived.
    let startedNanoseconds: UInt64

    // MARK: MHD thread

    var request: HTTPRequest
    var isOversized = false
    var isAnswered = false
    var isDeferred = false
    var stream: (any HTTPStreamSource)?

    // MARK: Guarded

    private struct State {
        var isSuspended = false
        var hasPendingWake = false
        var isCompleted = false
        var isStopping = false
        var pendingResponse: HTTPResponse?
    }

    private let guarded = Mutex(State())

    init(connection: OpaquePointer, request: HTTPRequest) {
        self.connection = connection
        self.request = request
        startedNanoseconds = HTTPExchange.monotonicNow()
    }

    // MARK: - Suspension

    /// Suspends the connection unless a wake-up arrived since the last one or the server stops;
    /// returns whether it suspended. Call only from the access handler or the content reader.
    func suspendUnlessWoken() -> Bool {
        guarded.withLock { state in
            if state.hasPendingWake || state.isStopping || state.isCompleted {
                state.hasPendingWake = false
                return false
            }
            MHD_suspend_connection(connection)
            state.isSuspended = true
            return true
        }
    }

    /// Resumes the connection if it is suspended, or makes the next suspension return at once.
    func wake() {
        guarded.withLock { state in
            guard !state.isCompleted else { return }
            if state.isSuspended {
                state.isSuspended = false
                MHD_resume_connection(connection)
            } else {
                state.hasPendingWake = true
            }
        }
    }

    /// Hands over the response of a deferred request and resumes its connection; a second
    /// response (after the server answered 503 on stopping) is ignored.
    func complete(with response: HTTPResponse) {
        let isFirst = guarded.withLock { state in
            guard state.pendingResponse == nil, !state.isStopping else { return false }
            state.pendingResponse = response
            return true
        }
        if isFirst { wake() }
    }

    /// Takes the response a deferred task handed over, if it has.
    func takeResponse() -> HTTPResponse? {
        guarded.withLock { state in
            defer { state.pendingResponse = nil }
            return state.pendingResponse
        }
    }

    /// Whether the server is stopping; a stream then ends.
    var isStopping: Bool { guarded.withLock { $0.isStopping } }

    /// Makes a stopping server's last moves: answers a deferred request still running with
    /// `response`, ends streams, and resumes the connection so MHD can close it.
    func stop(answeringWith response: HTTPResponse) {
        guarded.withLock { state in
            guard !state.isCompleted else { return }
            if state.pendingResponse == nil { state.pendingResponse = response }
            state.isStopping = true
            if state.isSuspended {
                state.isSuspended = false
                MHD_resume_connection(connection)
            }
        }
    }

    /// Records that MHD is done with the request; the connection is not touched again.
    func markCompleted() {
        guarded.withLock { $0.isCompleted = true }
        stream?.detach()
    }

    /// Nanoseconds since the first header.
    var elapsedNanoseconds: UInt64 { HTTPExchange.monotonicNow() &- startedNanoseconds }

    static func monotonicNow() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
