import Foundation
import NavlogHost
import NavlogJournal
import Synchronization

// MARK: - Draining, stopping and reloading

/// The journal could not be flushed and closed when the daemon stopped: what was still queued
/// (`session.end` events among it) is lost, as the underlying error says (file and seqs), or
/// may be, when the close overran `limits.close_timeout_s` (a ``ShutdownStageTimeout``).
public struct JournalCloseError: Error, CustomStringConvertible {
    /// The journal directory.
    public var directory: String
    public var underlying: any Error

    public var description: String { "closing journal \(directory) failed: \(underlying)" }
}

extension Daemon {
    /// Drains and stops (what SIGTERM does), stage by stage, each awaited up to its bound
    /// (``ShutdownStage``) and escalated past it, so stopping never hangs:
    ///
    /// 1. `drain_requests`: the state becomes `draining` and the listeners stay open, answering
    ///    new requests 503 `shutting_down` (health answers 503 `draining`, metrics 200) and
    ///    closing every connection after its answer; the requests admitted before finish,
    ///    within `limits.drain_timeout_s`. Past that bound the drain becomes cancellation.
    /// 2. `close_listeners`: streams end, the listeners close; what still runs is answered 503
    ///    `shutting_down` and its work cancelled, and the answers get a second to leave.
    /// 3. `end_sessions`: sessions end (recorded), within `limits.close_timeout_s`.
    /// 4. `close_journal`: the journal is flushed and closed, within `limits.close_timeout_s`.
    /// 5. `drain_push`: the OTLP push sends what the closed journal holds (``drainPush()``).
    ///
    /// Everything is stopped even when the journal cannot be closed (say its volume is full),
    /// or its close overran its bound; then this throws a ``JournalCloseError`` naming what was
    /// lost, and `navlogd` exits 2.
    public func stop() async throws {
        guard let api, api.state.load(ordering: .sequentiallyConsistent) == .running else { return }
        notifier.notify("STOPPING=1")
        api.state.store(.draining, ordering: .sequentiallyConsistent)
        for server in servers { server.beginDraining() }
        let limits = configuration.limits

        let drain = ShutdownStage(name: "drain_requests", bound: .seconds(limits.drainTimeoutSeconds), boundKey: "limits.drain_timeout_s",
                                  escalation: "answering the requests still running 503 and cancelling them")
        if await !drain.run(log: log, { await api.waitForRequests(until: $0) }) {
            log.warn("drain bound reached; answering the rest with 503", ["requests": String(api.inFlight.load(ordering: .sequentiallyConsistent))])
        }

        api.broadcaster.finishAll()
        let servers = self.servers
        self.servers = []
        let listeners = ShutdownStage(name: "close_listeners", bound: .seconds(2), boundKey: "fixed",
                                      escalation: "leaving the server threads behind; their connections close when navlogd exits")
        let closed = ShutdownStage.start {
            await withTaskGroup(of: Void.self) { group in
                for server in servers { group.addTask { await server.close(answeringWith: APIError.shuttingDown.response, within: .seconds(1)) } }
            }
        }
        _ = await listeners.run(log: log) { await closed.wait(until: $0) }

        maintenance?.cancel()
        let sessions = Mutex(0)
        let ending = ShutdownStage(name: "end_sessions", bound: .seconds(limits.closeTimeoutSeconds), boundKey: "limits.close_timeout_s",
                                   escalation: "closing the journal without the session.end events still to come")
        let ended = ShutdownStage.start { [registry = api.registry, metrics = api.metrics] in
            let count = await registry.count
            sessions.withLock { $0 = count }
            await registry.endAll(reason: "shutdown")
            metrics.recordSessionsEnded(count, reason: .shutdown)
        }
        _ = await ending.run(log: log) { await ended.wait(until: $0) }

        let closing = ShutdownStage(name: "close_journal", bound: .seconds(limits.closeTimeoutSeconds), boundKey: "limits.close_timeout_s",
                                    escalation: "leaving the close behind; navlogd exits 2")
        let closeFailure = Mutex<(any Error)?>(nil)
        let journalClosed = ShutdownStage.startThread(named: "navlogd-journal-close") { [journal = api.journal] in
            do { try journal.close() } catch { closeFailure.withLock { $0 = error } }
        }
        var closeError: JournalCloseError?
        if await closing.run(log: log, { await journalClosed.wait(until: $0) }) {
            closeError = closeFailure.withLock { $0 }.map { JournalCloseError(directory: configuration.journal.directory, underlying: $0) }
        } else {
            let timeout = ShutdownStageTimeout(stage: closing.name, boundMilliseconds: closing.boundMilliseconds, boundKey: closing.boundKey,
                                               consequence: "what was still queued may be lost, and the next start sets the unfinished file aside")
            closeError = JournalCloseError(directory: configuration.journal.directory, underlying: timeout)
        }

        await drainPush()
        if let path = configuration.listen.unixSocket { unlink(path) }
        api.state.store(.stopped, ordering: .sequentiallyConsistent)
        let metrics = api.journal.metrics
        log.info("stopped", ["sessions_ended": String(sessions.withLock { $0 }), "events_recorded": String(metrics.eventsRecorded),
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
