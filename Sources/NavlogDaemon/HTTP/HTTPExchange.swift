import CMicroHTTPD
import Foundation
import Synchronization

/// One request on one connection, from its request line to its completion.
///
/// MHD creates it through the URI log callback, with the request target as the client sent it,
/// then calls the access handler several times per request on one of its threads; the fields
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
    /// The request target as sent, before percent-decoding, such as `/v1/sessions?x=%41`.
    let target: String

    // MARK: MHD thread

    /// Whether the access handler has seen the headers.
    var hasBegun = false
    /// Monotonic nanoseconds when the headers were in.
    var startedNanoseconds: UInt64 = 0
    var request = HTTPRequest(method: "", path: "")
    var isOversized = false
    var isAnswered = false
    var isDeferred = false
    /// Whether the answer must close the connection (the body was not read whole, say).
    var closesConnection = false
    var stream: (any HTTPStreamSource)?

    // MARK: Guarded

    private struct State {
        var isSuspended = false
        var hasPendingWake = false
        var isCompleted = false
        var isStopping = false
        var pendingResponse: HTTPResponse?
        /// The deferred work, cancelled when the server stops before it is done.
        var work: Task<Void, Never>?
    }

    private let guarded = Mutex(State())

    init(connection: OpaquePointer, target: String) {
        self.connection = connection
        self.target = target
    }

    // MARK: - Deferred work

    /// Runs `work` on the Swift concurrency pool and hands its response over when it is done;
    /// work started after the server began stopping is cancelled at once.
    func start(_ work: @escaping @Sendable () async -> HTTPResponse) {
        let task = Task { [self] in complete(with: await work()) }
        let isStopping = guarded.withLock { state in
            state.work = task
            return state.isStopping
        }
        if isStopping { task.cancel() }
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
            state.work = nil
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
    /// `response` and cancels its work, ends streams, and resumes the connection so MHD can
    /// send the answer and close.
    func stop(answeringWith response: HTTPResponse) {
        let work = guarded.withLock { state -> Task<Void, Never>? in
            guard !state.isCompleted else { return nil }
            if state.pendingResponse == nil { state.pendingResponse = response }
            state.isStopping = true
            if state.isSuspended {
                state.isSuspended = false
                MHD_resume_connection(connection)
            }
            defer { state.work = nil }
            return state.work
        }
        work?.cancel()
    }

    /// Records that MHD is done with the request; the connection is not touched again.
    func markCompleted() {
        guarded.withLock { $0.isCompleted = true }
        stream?.detach()
    }

    /// Nanoseconds since the headers were in.
    var elapsedNanoseconds: UInt64 { HTTPExchange.monotonicNow() &- startedNanoseconds }

    static func monotonicNow() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
