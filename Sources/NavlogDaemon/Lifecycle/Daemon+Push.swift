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

    /// After the journal is closed (the `drain_push` stage of ``stop()``): tells the push to
    /// send what the journal holds within `otlp.drain_timeout_ms`, and awaits it that long.
    ///
    /// Past the bound the push is cancelled: it abandons the batch it sends or retries and
    /// stops, and gets a second to do so (a request in flight times out within it). The push
    /// saves its cursor after each acknowledged batch, so even a push left behind loses
    /// nothing: the next start resends from the last acknowledgement.
    func drainPush() async {
        guard let push else { return }
        self.push = nil
        let bound = Duration.milliseconds(configuration.otlp.drainTimeoutMilliseconds)
        let stage = ShutdownStage(name: "drain_push", bound: bound, boundKey: "otlp.drain_timeout_ms",
                                  escalation: "stopping the push; the next start resumes from the saved cursor")
        push.service.drain(within: bound)
        guard await !stage.run(log: log, { await push.service.waitUntilFinished(deadline: $0) }) else { return }
        push.task.cancel()
        if await !push.service.waitUntilFinished(deadline: .now + .seconds(1)) {
            log.warn("otlp push did not finish within its drain bound; the next start resumes from the saved cursor",
                     ["drain_timeout_ms": String(configuration.otlp.drainTimeoutMilliseconds)])
        }
    }
}
