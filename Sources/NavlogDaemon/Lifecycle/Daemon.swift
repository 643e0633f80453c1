import Foundation
import NavlogCommandLine
import NavlogEvents
import NavlogHost
import NavlogJournal
import Synchronization

/// `navlogd`: hosts sessions of the apps of a catalog behind the HTTP API and journals every
/// event, from start to a drained, flushed stop.
///
/// ```swift
/// let catalog = try AppCatalog(SampleApps.all)
/// let configuration = try DaemonConfiguration.load(path: path, catalog: catalog)
/// try await Daemon(configuration: configuration, catalog: catalog, configurationPath: path).run()
/// ```
///
/// The state goes starting → running → draining → stopped; only this actor changes it.
public actor Daemon {
    /// Where a started daemon listens.
    public struct Endpoints: Sendable, Equatable {
        public var unixSocket: String?
        /// The TCP port bound (useful when the configuration says 0).
        public var tcpPort: Int?
    }

    public internal(set) var configuration: DaemonConfiguration
    public let catalog: AppCatalog
    /// The file SIGHUP reloads; nil reloads `defaultText`.
    public let configurationPath: String?
    public let defaultText: String
    let log: Logger
    let notifier: SystemdNotifier
    var api: DaemonAPI?
    var servers: [MicroHTTPDaemon] = []
    var maintenance: Task<Void, Never>?
    /// The OTLP push and the task running it, when `otlp.enabled`.
    var push: (service: OTLPPushService, task: Task<Void, Never>)?
    private let (shutdownRequests, shutdownContinuation) = AsyncStream<SignalWatcher.Request>.makeStream()

    public init(configuration: DaemonConfiguration, catalog: AppCatalog, configurationPath: String? = nil,
                defaultText: String = DaemonConfiguration.defaultText, log: Logger = Logger(),
                notifier: SystemdNotifier = SystemdNotifier()) {
        self.configuration = configuration
        self.catalog = catalog
        self.configurationPath = configurationPath
        self.defaultText = defaultText
        self.log = log
        self.notifier = notifier
    }

    /// The lifecycle state now.
    public var state: DaemonState { api?.state.load(ordering: .sequentiallyConsistent) ?? .starting }

    // MARK: - Running

    /// Starts, serves until SIGTERM or SIGINT (or ``requestShutdown()``), then drains and stops.
    /// SIGHUP rotates the journal and reloads the configuration. Throws when it cannot start,
    /// or when it stopped but could not close the journal (``JournalCloseError``).
    public func run() async throws {
        let signals = SignalWatcher()
        try start()
        notifier.notify("READY=1\nSTATUS=serving")
        let forward = Task { [shutdownContinuation, requests = signals.requests] in
            for await request in requests { shutdownContinuation.yield(request) }
        }
        defer { forward.cancel() }
        for await request in shutdownRequests {
            switch request {
            case .reload:
                reload()
            case .shutdown(let signal):
                log.info("shutting down", ["signal": signal, "drain_timeout_s": String(configuration.limits.drainTimeoutSeconds)])
                try await stop()
                return
            }
        }
    }

    /// Asks a running daemon to drain and stop, as SIGTERM does.
    public nonisolated func requestShutdown(reason: String = "request") {
        shutdownContinuation.yield(.shutdown(signal: reason))
    }

    /// Asks a running daemon to rotate the journal and reload its configuration, as SIGHUP does.
    public nonisolated func requestReload() {
        shutdownContinuation.yield(.reload)
    }

    /// Opens the journal and the listeners and starts serving; returns where it listens.
    @discardableResult
    public func start() throws -> Endpoints {
        HostClock.wallOffsetNanoseconds.store(configuration.testing.wallClockOffsetSeconds * 1_000_000_000, ordering: .relaxed)
        var journalConfiguration = configuration.makeJournalConfiguration()
        journalConfiguration.clock = HostClock()
        let leftovers = StartupLeftovers(journalDirectory: configuration.journal.directory)
        let writer = try JournalWriter(configuration: journalConfiguration)
        for file in writer.setAsideFiles { log.warn("journal file was not closed cleanly; set aside", ["file": file]) }
        let broadcaster = EventBroadcaster(redactor: writer.redactor)
        writer.observe(with: broadcaster)
        let registry = SessionRegistry(catalog: catalog, sink: writer,
                                       maximumSessions: configuration.limits.maximumSessions, timeMode: .realTime)
        let pushMetrics = configuration.otlp.isEnabled ? OTLPPushMetrics() : nil
        let api = DaemonAPI(catalog: catalog, registry: registry, journal: writer, broadcaster: broadcaster, metrics: DaemonMetrics(otlpPush: pushMetrics),
                            log: log, settings: LiveSettings(configuration, catalog: catalog),
                            ingestState: IngestState.load(directory: configuration.journal.directory,
                                                          windowSeconds: configuration.ingest.idempotencyWindowSeconds,
                                                          budget: configuration.ingest.idempotencyMaximumBytes,
                                                          now: journalConfiguration.clock.now().wall, log: log))
        var endpoints = Endpoints()
        var boundSocketPath: String?
        do {
            let settings = MicroHTTPDaemon.Settings(
                maximumBodyBytes: { [api] in api.maximumBodyBytes },
                requestTimeoutSeconds: configuration.limits.requestTimeoutSeconds
            )
            func serve(_ descriptor: Int32) throws {
                servers.append(try MicroHTTPDaemon(
                    listenDescriptor: descriptor, settings: settings, log: log, handler: { api.handle(&$0) },
                    observer: { api.observe($0, status: $1, nanoseconds: $2) }
                ))
            }
            if let path = configuration.listen.unixSocket {
                let descriptor = try ListeningSocket.unix(path: path)
                boundSocketPath = path
                try serve(descriptor)
                endpoints.unixSocket = path
            }
            if let tcp = configuration.listen.tcp {
                let (descriptor, port) = try ListeningSocket.tcp(host: tcp.host, port: tcp.port)
                try serve(descriptor)
                endpoints.tcpPort = port
            }
        } catch {
            for server in servers { server.close() }
            servers = []
            try? writer.close()
            // Nothing was served: a socket file or an empty journal left behind would only mislead.
            leftovers.remove(socketPath: boundSocketPath)
            throw error
        }
        self.api = api
        api.state.store(.running, ordering: .sequentiallyConsistent)
        maintenance = Task { [api, log] in await Self.maintain(api: api, log: log) }
        if let pushMetrics { startPush(metrics: pushMetrics) }
        log.info("listening", [
            "version": navlogVersion, "pid": String(getpid()), "unix_socket": endpoints.unixSocket ?? "-", "tcp": configuration.listen.tcp.map { "\($0.host):\(endpoints.tcpPort ?? 0)" } ?? "-",
            "journal": configuration.journal.directory, "run": writer.runID, "apps": api.settings.withLock { $0.appOrder.joined(separator: ",") },
            "token": configuration.token == nil ? "none" : "required",
        ])
        return endpoints
    }

    /// Ends idle sessions and sends stream heartbeats, every few seconds.
    private static func maintain(api: DaemonAPI, log: Logger) async {
        while !Task.isCancelled {
            let idleTimeoutSeconds = api.settings.withLock { $0.idleSessionTimeoutSeconds }
            do { try await Task.sleep(for: .seconds(min(5, max(1, idleTimeoutSeconds / 2)))) } catch { return }
            api.broadcaster.heartbeat()
            let ended = await api.registry.endIdle(olderThan: .seconds(idleTimeoutSeconds))
            if !ended.isEmpty {
                api.metrics.recordSessionsEnded(ended.count, reason: .idleTimeout)
                log.info("ended idle sessions", ["sessions": ended.joined(separator: ","), "idle_timeout_s": String(idleTimeoutSeconds)])
            }
        }
    }
}
