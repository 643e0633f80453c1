import Synchronization

/// A one-time event that the finishing side signals and others await, each up to a deadline.
///
/// What stops the daemon is told to stop and awaited through these: the API when its last
/// request in flight is answered, the server when its last exchange completes, the push thread
/// when it ends, the journal's closing thread when the close returns. Nothing polls.
///
/// ```swift
/// let closed = CompletionSignal()
/// Thread.detachNewThread { try? journal.close(); closed.signal() }
/// if await !closed.wait(until: .now + .seconds(10)) { /* escalate */ }
/// ```
final class CompletionSignal: Sendable {
    private struct Waiter {
        var continuation: CheckedContinuation<Bool, Never>
        /// Resumes the waiter with false at its deadline; cancelled when the signal comes first.
        var timer: Task<Void, Never>
    }

    private struct State {
        var isSignalled = false
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    init() {}

    /// Whether ``signal()`` has been called.
    var isSignalled: Bool { state.withLock { $0.isSignalled } }

    /// Marks the event as happened and wakes every waiter; later calls do nothing.
    func signal() {
        let woken = state.withLock { state -> [Waiter] in
            guard !state.isSignalled else { return [] }
            state.isSignalled = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in woken {
            waiter.timer.cancel()
            waiter.continuation.resume(returning: true)
        }
    }

    /// Returns true once the event has happened (at once if it has), false when `deadline`
    /// comes first.
    func wait(until deadline: ContinuousClock.Instant) async -> Bool {
        await withCheckedContinuation { continuation in
            let hasHappened = state.withLock { state -> Bool in
                if state.isSignalled { return true }
                let number = state.nextWaiter
                state.nextWaiter += 1
                // One timer for the deadline: it sleeps once, and is cancelled by the signal.
                let timer = Task { [self] in
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    expire(number)
                }
                state.waiters[number] = Waiter(continuation: continuation, timer: timer)
                return false
            }
            if hasHappened { continuation.resume(returning: true) }
        }
    }

    /// Resumes waiter `number` with false, unless the signal resumed it already.
    private func expire(_ number: Int) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: number) }
        waiter?.continuation.resume(returning: false)
    }
}
