import Foundation

/// One stage of stopping navlogd, with the bound it is awaited for.
///
/// In the shape of swift-service-lifecycle's graceful shutdown: each stage is told to begin,
/// and its finishing side signals; the daemon awaits that signal up to the stage's bound and,
/// past it, escalates (cancels the work, or gives up on it) instead of hanging. The stages,
/// in order (docs/DAEMON.md, "Draining"):
///
/// | stage | bound | past the bound |
/// |---|---|---|
/// | `drain_requests` | `limits.drain_timeout_s` | what still runs is answered 503 and cancelled |
/// | `close_listeners` | 2 s | the server's threads are left behind |
/// | `end_sessions` | `limits.close_timeout_s` | the rest are left unended |
/// | `close_journal` | `limits.close_timeout_s` | the close is left behind; exit 2 |
/// | `drain_push` | `otlp.drain_timeout_ms` | the push is stopped, and left behind a second later |
struct ShutdownStage: Sendable {
    /// The stage's name in logs, such as `close_journal`.
    var name: String
    var bound: Duration
    /// What sets the bound: a configuration key, or `fixed`.
    var boundKey: String
    /// What happens past the bound, for the log.
    var escalation: String

    /// The bound in whole milliseconds, for logs and errors.
    var boundMilliseconds: Int64 { Int64(bound / .milliseconds(1)) }
}

/// A shutdown stage that did not finish within its bound.
public struct ShutdownStageTimeout: Error, CustomStringConvertible {
    /// The stage's name, such as `close_journal`.
    public var stage: String
    public var boundMilliseconds: Int64
    /// What sets the bound, such as `limits.close_timeout_s`.
    public var boundKey: String
    /// What giving up on the stage means, as a clause: `what was still queued may be lost`.
    public var consequence: String

    public var description: String {
        "the \(stage) stage of shutdown did not finish within \(boundMilliseconds) ms (\(boundKey)) and was given up on; \(consequence)"
    }
}

extension ShutdownStage {
    /// Starts `work` in a task of its own; the returned signal fires when it returns.
    static func start(_ work: @escaping @Sendable () async -> Void) -> CompletionSignal {
        let finished = CompletionSignal()
        Task {
            await work()
            finished.signal()
        }
        return finished
    }

    /// Starts blocking `work` on a thread of its own (so no thread of the concurrency pool
    /// waits on it); the returned signal fires when it returns.
    static func startThread(named name: String, _ work: @escaping @Sendable () -> Void) -> CompletionSignal {
        let finished = CompletionSignal()
        let thread = Thread {
            work()
            finished.signal()
        }
        thread.name = name
        thread.start()
        return finished
    }

    /// Logs the stage's start, awaits `finish` (which returns true once the stage's work is
    /// done, false when the deadline it is given comes first), and logs the stage's end, or
    /// that it overran and escalates. Returns whether the stage finished within its bound.
    func run(log: Logger, _ finish: (ContinuousClock.Instant) async -> Bool) async -> Bool {
        let started = ContinuousClock.now
        log.info("shutdown stage started", ["stage": name, "bound_ms": String(boundMilliseconds), "bound_key": boundKey])
        let isFinished = await finish(started + bound)
        let elapsed = String(Int64((ContinuousClock.now - started) / .milliseconds(1)))
        if isFinished {
            log.info("shutdown stage finished", ["stage": name, "elapsed_ms": elapsed])
        } else {
            log.warn("shutdown stage overran its bound; escalating", [
                "stage": name, "bound_ms": String(boundMilliseconds), "bound_key": boundKey, "elapsed_ms": elapsed, "escalation": escalation,
            ])
        }
        return isFinished
    }
}
