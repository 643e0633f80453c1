import Foundation
import NavlogEvents
import NavlogHost
import NavlogJournal
import Synchronization

/// The daemon's lifecycle, held by ``Daemon`` and read by the API.
public enum DaemonState: UInt8, Sendable, AtomicRepresentable, CustomStringConvertible {
    case starting, running, draining, stopped

    public var description: String { ["starting", "running", "draining", "stopped"][Int(rawValue)] }
}

/// The settings SIGHUP can change while the daemon runs.
struct LiveSettings: Sendable {
    var token: String?
    var apps: [String: DaemonConfiguration.AppSettings]
    var appOrder: [String]
    var maximumBodyBytes: Int
    var streamBufferEvents: Int
    var requestTimeoutSeconds: Int
    var idleSessionTimeoutSeconds: Int
    /// `journal.durability` is `flush_per_request`: answers wait for their events' commit.
    var flushesPerRequest: Bool
    /// `log.access`: a line per answered request.
    var logsAccess: Bool
    /// Whether `/ui` is served (`ui.enabled`, by default on loopback).
    var servesConsole: Bool
    /// `ui.allow_actions`: whether the console may perform actions on sessions.
    var consoleAllowsActions: Bool
    /// `ingest`: the limits of `POST /v1/ingest`.
    var ingest: DaemonConfiguration.IngestSettings

    init(_ configuration: DaemonConfiguration, catalog: AppCatalog) {
        let enabled = configuration.enabledApps(of: catalog)
        token = configuration.token
        apps = Dictionary(uniqueKeysWithValues: enabled.map { ($0.name, $0) })
        appOrder = enabled.map(\.name)
        maximumBodyBytes = configuration.limits.maximumBodyBytes
        streamBufferEvents = configuration.limits.streamBufferEvents
        requestTimeoutSeconds = configuration.limits.requestTimeoutSeconds
        idleSessionTimeoutSeconds = configuration.limits.idleSessionTimeoutSeconds
        flushesPerRequest = configuration.journal.durability == .flushPerRequest
        logsAccess = configuration.logsAccess
        servesConsole = configuration.servesConsole
        consoleAllowsActions = configuration.console.allowsActions
        ingest = configuration.ingest
    }
}

/// The HTTP API: routes each request to its handler, checks the token, and counts.
///
/// Most requests are answered on the server's thread that read them, with no hop to another
/// thread: actions, deep links and session states run the session there (``Session`` is
/// guarded by a lock, held only while the command runs). What has to wait is deferred to the
/// Swift concurrency pool while its connection is suspended: a real-time `wait`, a request
/// under `flush_per_request` durability (it waits for the commit), and what needs the
/// registry's executor (creating, listing and ending sessions, health, metrics).
public final class DaemonAPI: Sendable {
    let catalog: AppCatalog
    let registry: SessionRegistry
    let journal: JournalWriter
    let broadcaster: EventBroadcaster
    let metrics: DaemonMetrics
    let log: Logger
    /// The idempotency keys and per-client limits of `POST /v1/ingest`.
    let ingestState: IngestState
    let state = Atomic<DaemonState>(.starting)
    /// Requests admitted while running and not yet answered; draining waits for 0.
    let inFlight = Atomic<Int>(0)
    /// Signalled when ``inFlight`` drops to 0 while draining (``waitForRequests(until:)``).
    private let requestsAnswered = CompletionSignal()
    let settings: Mutex<LiveSettings>
    // The settings every request reads, mirrored out of `settings` so that no request takes
    // that lock (shared by all server threads) to read them; ``apply(_:)`` keeps them in step.
    private let maximumBodyBytesNow = Atomic<Int>(0)
    private let flushesPerRequestNow = Atomic<Bool>(false)
    private let hasTokenNow = Atomic<Bool>(false)
    private let logsAccessNow = Atomic<Bool>(false)
    let startedNanoseconds = HTTPExchange.monotonicNow()
    /// The web console's login cookie, under a key of this process.
    let consoleAccess = ConsoleAccess()
    /// The journal's last seq when this run began: the console's timeline replays from it.
    let runStartSeq: UInt64

    init(catalog: AppCatalog, registry: SessionRegistry, journal: JournalWriter, broadcaster: EventBroadcaster,
         metrics: DaemonMetrics, log: Logger, settings: LiveSettings, ingestState: IngestState = IngestState()) {
        self.catalog = catalog
        self.registry = registry
        self.journal = journal
        self.broadcaster = broadcaster
        self.metrics = metrics
        self.log = log
        self.ingestState = ingestState
        self.settings = Mutex(settings)
        runStartSeq = journal.lastRecordedSeq
        mirror(settings)
    }

    /// Replaces the live settings (a SIGHUP reload).
    func apply(_ live: LiveSettings) {
        settings.withLock { $0 = live }
        mirror(live)
    }

    private func mirror(_ live: LiveSettings) {
        maximumBodyBytesNow.store(live.maximumBodyBytes, ordering: .releasing)
        flushesPerRequestNow.store(live.flushesPerRequest, ordering: .releasing)
        hasTokenNow.store(live.token != nil, ordering: .releasing)
        logsAccessNow.store(live.logsAccess, ordering: .releasing)
    }

    /// `limits.max_body_bytes` now.
    var maximumBodyBytes: Int { maximumBodyBytesNow.load(ordering: .acquiring) }

    /// Whether answers wait for their events' commit (`flush_per_request`) now.
    var flushesPerRequest: Bool { flushesPerRequestNow.load(ordering: .acquiring) }

    // MARK: - Routing

    /// Every endpoint, once: its path pattern and, per method in `Allow` order, its handler.
    static let routes: [Route] = [
        Route("/v1/health", requiresToken: false, [
            "GET": { api, request, _ in api.deferred(request, isAllowedWhileDraining: true) { try await api.health() } },
        ]),
        Route("/metrics", [
            "GET": { api, request, _ in api.deferred(request, isAllowedWhileDraining: true) { try await api.renderMetrics() } },
        ]),
        Route("/v1/apps", ["GET": { api, _, _ in .response(api.listApps()) }]),
        Route("/v1/sessions", [
            "GET": { api, request, _ in api.deferred(request) { try await api.listSessions() } },
            "POST": { api, request, _ in api.deferred(request) { try await api.createSession(request) } },
        ]),
        Route("/v1/sessions/{id}", [
            "GET": { api, request, id in api.admit(request) { .now(try api.describeSession(id)) } },
            "DELETE": { api, request, id in api.deferred(request) { try await api.endSession(id) } },
        ]),
        Route("/v1/sessions/{id}/actions", ["POST": { api, request, id in api.admit(request) { try api.performAction(id, request) } }]),
        Route("/v1/sessions/{id}/deeplinks", ["POST": { api, request, id in api.admit(request) { try api.followDeepLink(id, request) } }]),
        Route("/v1/events", ["GET": { api, request, _ in api.streamEvents(request) }]),
        Route("/v1/ingest", [
            "GET": { api, request, _ in api.admit(request) { try api.ingestKeyStatus(request) } },
            "POST": { api, request, _ in api.admit(request) { try api.ingest(request) } },
        ]),
        Route("/v1/journal/rotate", ["POST": { api, request, _ in api.deferred(request) { try await api.rotateJournal() } }]),
    ] + consoleRoutes

    /// Answers one request, matched against ``routes`` once: its handler answers, or 405 with
    /// the route's methods in `Allow`, or 404. Every route but health needs the configured token
    /// first (so an unknown path without it is 401). Sets ``HTTPRequest/route`` for metrics.
    public func handle(_ request: inout HTTPRequest) -> HTTPReply {
        let match = Route.match(request.path, in: Self.routes)
        request.route = match.template
        if match.route?.requiresToken ?? true, let error = checkToken(request) { return .response(error.response) }
        if let refusal = refuseConsoleChange(request, template: match.template) { return .response(refusal.response) }
        guard let route = match.route else { return .response(APIError.notFound(request.path).response) }
        guard let handler = route.handler(for: request.method) else {
            return .response(APIError.methodNotAllowed(request.method, request.path, allowed: route.allowed).response)
        }
        return handler(self, request, match.id)
    }

    /// How a handler answers: now, on the server's thread, or later, while the connection waits.
    enum Answer {
        case now(HTTPResponse)
        case later(@Sendable () async throws -> HTTPResponse)
    }

    /// Runs `work` as a deferred reply counted in ``inFlight``; while draining, answers 503.
    func deferred(_ request: HTTPRequest, isAllowedWhileDraining: Bool = false,
                  _ work: @escaping @Sendable () async throws -> HTTPResponse) -> HTTPReply {
        admit(request, isAllowedWhileDraining: isAllowedWhileDraining) { .later(work) }
    }

    /// Runs `decide` on the server's thread, counted in ``inFlight`` until its answer is given
    /// (a later one included); while draining, answers 503 unless `isAllowedWhileDraining`
    /// (health and metrics), and then does not count it: the drain waits only for what was
    /// admitted while running. A thrown error becomes its API error response.
    func admit(_ request: HTTPRequest, isAllowedWhileDraining: Bool = false, _ decide: () throws -> Answer) -> HTTPReply {
        // Counted before the state is read: ``Daemon/stop()`` sets the state, then reads the
        // count, so either the request sees `draining` or the drain sees the request.
        inFlight.add(1, ordering: .sequentiallyConsistent)
        let isRunning = state.load(ordering: .sequentiallyConsistent) == .running
        if !isRunning { leave() }
        guard isRunning || isAllowedWhileDraining else { return .response(APIError.shuttingDown.response) }
        let answer: Answer
        do {
            answer = try decide()
        } catch {
            if isRunning { leave() }
            return .response(errorResponse(error, request))
        }
        switch answer {
        case .now(let response):
            if isRunning { leave() }
            return .response(response)
        case .later(let work):
            return .deferred {
                defer { if isRunning { self.leave() } }
                do {
                    return try await work()
                } catch {
                    return self.errorResponse(error, request)
                }
            }
        }
    }

    /// Uncounts a request; the last one out while draining wakes ``waitForRequests(until:)``.
    /// Counted out, then the state read: the mirror of ``admit(_:isAllowedWhileDraining:_:)``.
    private func leave() {
        let left = inFlight.subtract(1, ordering: .sequentiallyConsistent).newValue
        if left == 0, state.load(ordering: .sequentiallyConsistent) == .draining { requestsAnswered.signal() }
    }

    /// Once the state is `draining`: returns true when every request admitted while running
    /// has been answered, false when `deadline` comes first.
    func waitForRequests(until deadline: ContinuousClock.Instant) async -> Bool {
        if inFlight.load(ordering: .sequentiallyConsistent) == 0 { return true }
        return await requestsAnswered.wait(until: deadline)
    }

    /// The response for a handler's error; a 5xx is logged.
    func errorResponse(_ error: any Error, _ request: HTTPRequest) -> HTTPResponse {
        let apiError = APIError.from(error)
        if apiError.status >= 500 { log.error("request failed", ["path": request.path, "error": "\(error)"]) }
        return apiError.response
    }

    /// The 401 for a request without the configured token, nil when it may pass.
    func checkToken(_ request: HTTPRequest) -> APIError? {
        guard hasTokenNow.load(ordering: .acquiring), let token = settings.withLock({ $0.token }) else { return nil }
        guard let header = request.headers["authorization"], header.hasPrefix("Bearer ") else {
            return consoleAccess.admits(request, token: token) ? nil : .missingToken
        }
        return ConsoleAccess.isEqualInConstantTime(header.dropFirst(7), token) ? nil : .invalidToken
    }

    /// Counts an answered request; the server calls it for every response. A request the server
    /// answered before ``handle(_:)`` saw it (a timeout, an oversized body) is matched here.
    func observe(_ request: HTTPRequest, status: Int, nanoseconds: UInt64) {
        let route = request.route ?? Route.match(request.path, in: Self.routes).template
        metrics.recordRequest(method: request.method, route: route, status: status, nanoseconds: nanoseconds)
        if logsAccessNow.load(ordering: .acquiring) {
            // The path only: a query may carry a session or a cursor, and headers a token.
            log.info("request", ["method": String(request.method.prefix(32)), "path": String(request.path.prefix(256)), "route": route,
                                 "status": String(status), "ms": String(format: "%.3f", Double(nanoseconds) / 1e6)])
        }
    }

    /// With `journal.durability: flush_per_request`, waits until what the request recorded is
    /// committed; a failed commit fails the request (503), so nothing unjournaled is acknowledged.
    /// `floor` is ``JournalWriter/lastRecordedSeq`` read before the request recorded anything:
    /// a batch of its events that failed before this flush was asked for fails it too.
    func makeDurable(after floor: UInt64) async throws {
        guard flushesPerRequest else { return }
        do {
            try await journal.flush(after: floor)
        } catch {
            throw Self.notCommitted(error)
        }
    }

    /// ``makeDurable(after:)`` for a request that knows the seqs of its events: it fails only
    /// when those were lost.
    func makeDurable(covering seqs: ClosedRange<UInt64>) async throws {
        guard flushesPerRequest else { return }
        do {
            try await journal.flush(covering: seqs)
        } catch {
            throw Self.notCommitted(error)
        }
    }

    private static func notCommitted(_ error: any Error) -> APIError {
        APIError(status: 503, code: "journal_unavailable", detail: "the events were not committed: \(error)", headers: ["Retry-After": "1"])
    }

    // MARK: - Service endpoints

    func health() async throws -> HTTPResponse {
        let current = state.load(ordering: .sequentiallyConsistent)
        let journalMetrics = journal.metrics
        var body: [String: JSONValue] = [
            "status": .string(current.description),
            "sessions": .int(Int64(await registry.count)),
            "run": .string(journal.runID),
            "uptime_seconds": .int(Int64((HTTPExchange.monotonicNow() - startedNanoseconds) / 1_000_000_000)),
            "journal": ["queue_depth": .int(Int64(journalMetrics.queueDepth)), "file": .string(journalMetrics.currentFile)],
        ]
        if let error = journalMetrics.lastError { body["journal"] = ["queue_depth": .int(Int64(journalMetrics.queueDepth)), "last_error": .string(error)] }
        return .json(current == .running ? 200 : 503, .object(body))
    }

    func renderMetrics() async throws -> HTTPResponse {
        let snapshot = DaemonMetrics.Snapshot(
            journal: journal.metrics, activeSessions: await registry.count, streamSubscribers: broadcaster.subscriberCount,
            streamEventsDropped: broadcaster.droppedCount, uptimeSeconds: Double(HTTPExchange.monotonicNow() - startedNanoseconds) / 1e9,
            requestsInFlight: inFlight.load(ordering: .relaxed), ingestKeys: ingestState.keys.statistics,
            ingestSources: ingestState.limiter.sourceCount, ingestOpenSessions: ingestState.limiter.openSessionCount
        )
        return .text(200, metrics.render(snapshot), contentType: "text/plain; version=0.0.4; charset=utf-8")
    }

    func listApps() -> HTTPResponse {
        let live = settings.withLock { $0 }
        let apps: [JSONValue] = live.appOrder.compactMap { name in
            guard let app = try? catalog.app(named: name) else { return nil }
            let configured = live.apps[name]?.parameters ?? [:]
            return [
                "name": .string(app.name),
                "summary": .string(app.summary),
                "parameters": .array(app.parameters.map { parameter in
                    [
                        "name": .string(parameter.name), "summary": .string(parameter.summary),
                        "expected": .string(parameter.expectation),
                        "default": .string(configured[parameter.name] ?? parameter.defaultValue),
                    ]
                }),
            ]
        }
        return .json(200, ["apps": .array(apps)])
    }

    func rotateJournal() async throws -> HTTPResponse {
        let journal = self.journal
        let before = journal.metrics.currentFile
        try await Task.detached { try journal.rotate() }.value
        let after = journal.metrics.currentFile
        log.info("journal rotated", ["reason": "api", "file": after])
        return .json(200, ["rotated": .bool(before != after), "file": .string(after)])
    }
}
