import Foundation

/// What the push is told by its owner, and the waits it can be woken from.
///
/// The push thread never polls for shutdown: its waits (the interval, a retry's back-off)
/// return as soon as it is told something new.
///
/// `@unchecked Sendable`: the only mutable state, `current`, is read and written with
/// `condition` locked; `NSCondition` is safe to use from any thread.
final class PushControl: @unchecked Sendable {
    /// What the push should be doing.
    enum Command: Equatable {
        /// Follow the journal.
        case run
        /// Send what the (closed) journal holds, until `deadline`, then stop.
        case drain(deadline: ContinuousClock.Instant)
        /// Stop now.
        case stop
    }

    private let condition = NSCondition()
    private var current = Command.run
    /// Signalled by the push thread as it ends.
    private let finished = CompletionSignal()

    /// The command now.
    var command: Command {
        condition.withLock { current }
    }

    /// Tells the push `command`; a stop is never taken back.
    func tell(_ command: Command) {
        condition.withLock {
            if current != .stop { current = command }
            condition.broadcast()
        }
    }

    /// Waits for `duration`, or less when told something; returns the command then.
    @discardableResult
    func wait(for duration: Duration) -> Command {
        let before = command
        let deadline = Date().addingTimeInterval(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
        return condition.withLock {
            while current == before, condition.wait(until: deadline) {}
            return current
        }
    }

    // MARK: - Finishing

    /// Called by the push thread as it ends: wakes everyone waiting for it.
    func finish() {
        finished.signal()
    }

    /// Returns true once the push thread has ended, false when `deadline` comes first.
    func waitUntilFinished(deadline: ContinuousClock.Instant) async -> Bool {
        await finished.wait(until: deadline)
    }
}
