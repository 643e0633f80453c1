import Foundation

// MARK: - The OTLP push

extension Daemon {
    /// Starts pushing the journal to the configured OTLP collector, alongside recording.
    func startPush(metrics: OTLPPushMetrics) {
        let service = OTLPPushService(settings: configuration.otlp, journalDirectory: configuration.journal.directory,
                                      metrics: metrics, log: log)
        let task = Task { [log] in
            do {
                try await service.run()
            } catch {
                log.debug("otlp push cancelled")
            }
        }
        push = (service, task)
        let settings = configuration.otlp
        log.info("otlp push enabled", [
            "endpoint": settings.endpoint.description, "batch_size": String(settings.batchSize),
            "interval_ms": String(settings.intervalMilliseconds), "gzip": String(settings.isGzipEnabled),
        ])
    }

    /// After the journal is closed: lets the push send what the journal holds, within
    /// `otlp.drain_timeout_ms`, then stops it.
    ///
    /// The push saves its cursor after each acknowledged batch, so a push still blocked on an
    /// unresponsive collector when the bound passes loses nothing: the next start resends
    /// from the last acknowledgement.
    func drainPush() async {
        guard let push else { return }
        let bound = Duration.milliseconds(configuration.otlp.drainTimeoutMilliseconds)
        push.service.drain(within: bound)
        // A second on top of the bound, for a request already in flight to time out.
        let finished = await push.service.waitUntilFinished(deadline: .now + bound + .seconds(1))
        if !finished {
            push.service.stop()
            log.warn("otlp push did not finish within its drain bound; the next start resumes from the saved cursor",
                     ["drain_timeout_ms": String(configuration.otlp.drainTimeoutMilliseconds)])
        }
        self.push = nil
    }
}
