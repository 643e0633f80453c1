import Foundation
import NavlogHost
import NavlogJournal

// MARK: - Draining, stopping and reloading

/// The journal could not be flushed and closed when the daemon stopped: what was still queued
/// (`session.end` events among it) is lost, as the underlying error says (file and seqs).
public struct JournalCloseError: Error, CustomStringConvertible {
    /// The journal directory.
    public var directory: String
    public var underlying: any Error

    public var description: String { "closing journal \(directory) failed: \(underlying)" }
}

extension Daemon {
    /// Drains and stops (what SIGTERM does): the state becomes `draining` and the listeners stay
    /// open, answering new requests 503 `shutting_down` (health answers 503 `draining`, metrics
    /// 200) and closing every connection after its answer; the requests admitted before finish,
    /// within `limits.drain_timeout_s`. Past that bound the drain becomes cancellation: what
    /// still runs is answered 503 `shutting_down` and its work cancelled, and the answers get a
    /// second to leave. Then streams end, the listeners close, sessions end (recorded), and the
    /// journal is flushed and closed.
    ///
    /// Everything is stopped even when the journal cannot be closed (say its volume is full);
    /// then this throws a ``JournalCloseError`` naming what was lost, and `navlogd` exits 2.
    public func stop() async throws {
        guard let api, api.state.load(ordering: .sequentiallyConsistent) == .running else { return }
        notifier.notify("STOPPING=1")
        api.state.store(.draining, ordering: .sequentiallyConsistent)
        for server in servers { server.beginDraining() }
        let deadline = ContinuousClock.now + .seconds(configuration.limits.drainTimeoutSeconds)
        while api.inFlight.load(ordering: .sequentiallyConsistent) > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let unfinished = api.inFlight.load(ordering: .sequentiallyConsistent)
        if unfinished > 0 { log.warn("drain bound reached; answering the rest with 503", ["requests": String(unfinished)]) }
        api.broadcaster.finishAll()
        for server in servers { await server.close(answeringWith: APIError.shuttingDown.response, within: .seconds(1)) }
        servers = []
        maintenance?.cancel()
        let sessions = await api.registry.count
        await api.registry.endAll(reason: "shutdown")
        api.metrics.recordSessionsEnded(sessions, reason: "shutdown")
        var closeError: JournalCloseError?
        do {
            try api.journal.close()
        } catch {
            closeError = JournalCloseError(directory: configuration.journal.directory, underlying: error)
        }
        await drainPush()
        if let path = configuration.listen.unixSocket { unlink(path) }
        api.state.store(.stopped, ordering: .sequentiallyConsistent)
        let metrics = api.journal.metrics
        log.info("stopped", ["sessions_ended": String(sessions), "events_recorded": String(metrics.eventsRecorded),
                             "events_dropped": String(metrics.eventsDropped), "journal_closed": closeError == nil ? "true" : "false"])
        if let closeError { throw closeError }
    }

    /// SIGHUP: rotates the journal, then reloads the configuration; an invalid one is refused
    /// and the running one kept.
    func reload() {
        guard let api else { return }
        do {
            try api.journal.rotate()
            log.info("journal rotated", ["reason": "SIGHUP", "file": api.journal.metrics.currentFile])
        } catch {
            log.error("journal rotation failed", ["error": "\(error)"])
        }
        let loaded: DaemonConfiguration
        do {
            loaded = try DaemonConfiguration.load(path: configurationPath, defaultText: defaultText, catalog: catalog)
        } catch {
            api.metrics.recordReload("rejected")
            log.error("configuration reload rejected; keeping the running configuration",
                      ["file": configurationPath ?? "(embedded default)", "error": "\(error)"])
            return
        }
        let restartOnly = loaded.restartOnlyChanges(comparedTo: configuration)
        if !restartOnly.isEmpty {
            log.warn("some changes take effect only after a restart", ["keys": restartOnly.joined(separator: ",")])
        }
        var applied = loaded
        applied.journal = configuration.journal
        applied.privacy = configuration.privacy
        applied.listen = configuration.listen
        applied.labels = configuration.labels
        applied.otlp = configuration.otlp
        applied.limits.maximumSessions = configuration.limits.maximumSessions
        applied.limits.requestTimeoutSeconds = configuration.limits.requestTimeoutSeconds
        configuration = applied
        if applied.testing.wallClockOffsetSeconds * 1_000_000_000 != HostClock.wallOffsetNanoseconds.load(ordering: .relaxed) {
            HostClock.wallOffsetNanoseconds.store(applied.testing.wallClockOffsetSeconds * 1_000_000_000, ordering: .relaxed)
            log.warn("wall clock offset changed (testing)", ["wall_clock_offset_s": String(applied.testing.wallClockOffsetSeconds)])
        }
        api.apply(LiveSettings(applied, catalog: catalog))
        api.metrics.recordReload("applied")
        log.info("configuration reloaded", ["file": configurationPath ?? "(embedded default)"])
    }
}
