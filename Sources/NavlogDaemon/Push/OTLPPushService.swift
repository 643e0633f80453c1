import Foundation

/// Pushes the spans of the journal's sessions to an OpenTelemetry collector over OTLP/HTTP.
///
/// The journal is the source of truth: the push reads it after a persisted cursor
/// (`otlp-push.cursor.json` in the journal directory), so recording never waits for the
/// collector, a collector that is down is caught up with when it returns, and a restarted
/// daemon resumes where the collector's acknowledgements stopped.
///
/// ```swift
/// let push = OTLPPushService(settings: configuration.otlp, journalDirectory: "navlog-journal",
///                            metrics: OTLPPushMetrics(), log: Logger())
/// let task = Task { try await push.run() }
/// // … on SIGTERM, once the journal is closed:
/// push.drain(within: .seconds(5))
/// _ = await push.waitUntilFinished(deadline: .now + .seconds(6))
/// ```
public struct OTLPPushService: Sendable {
    public let settings: DaemonConfiguration.OTLPSettings
    /// The journal directory read, and where the cursor lives.
    public let journalDirectory: String
    public let metrics: OTLPPushMetrics
    let log: Logger
    private let control = PushControl()

    public init(settings: DaemonConfiguration.OTLPSettings, journalDirectory: String, metrics: OTLPPushMetrics, log: Logger) {
        self.settings = settings
        self.journalDirectory = journalDirectory
        self.metrics = metrics
        self.log = log
    }

    // MARK: - Running

    /// Follows the journal and pushes until told to stop or drain; runs once.
    ///
    /// The work runs on a thread of its own (reading SQLite and waiting on sockets block), so
    /// it never takes a thread of the concurrency pool from the API. Cancelling the calling task
    /// stops it as ``stop()`` does and throws `CancellationError`.
    public func run() async throws {
        let (settings, directory, metrics, log, control) = (settings, journalDirectory, metrics, log, control)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let thread = Thread {
                    do {
                        try OTLPPushLoop(settings: settings, directory: directory, metrics: metrics, log: log, control: control).run()
                    } catch {
                        log.error("otlp push cannot start", ["error": "\(error)"])
                    }
                    control.finish()
                    continuation.resume()
                }
                thread.name = "navlogd-otlp-push"
                thread.start()
            }
        } onCancel: {
            control.tell(.stop)
        }
        try Task.checkCancellation()
    }

    // MARK: - Telling

    /// Tells the push that the journal is closed: send what it holds for at most `duration`,
    /// save the cursor, and stop.
    public func drain(within duration: Duration) {
        control.tell(.drain(deadline: .now + duration))
    }

    /// Tells the push to stop now, saving the cursor of what the collector acknowledged.
    public func stop() {
        control.tell(.stop)
    }

    /// Returns true once ``run()`` has finished its work, false when `deadline` comes first.
    public func waitUntilFinished(deadline: ContinuousClock.Instant) async -> Bool {
        await control.waitUntilFinished(deadline: deadline)
    }
}
