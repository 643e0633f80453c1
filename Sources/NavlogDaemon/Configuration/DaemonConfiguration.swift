import Foundation
import NavlogEvents
import NavlogHost
import NavlogJournal

/// Everything `navlogd` reads from its JSON configuration, validated.
///
/// Every key is optional; a missing key takes the value of the documented default,
/// `Config/navlogd.json` (embedded as ``DaemonConfiguration/defaultText``). Unknown keys and bad
/// values are refused with their key path, see ``ConfigurationError``.
public struct DaemonConfiguration: Sendable, Equatable {
    // MARK: - Journal

    /// Where and how events are journaled.
    public struct JournalSettings: Sendable, Equatable {
        /// When an answered request's events are on disk.
        public enum Durability: String, Sendable, Equatable {
            /// Within `flush_interval_ms` of the answer (a crash may cost the last interval).
            case flushInterval = "flush_interval"
            /// Before the answer: requests that record events wait for their commit.
            case flushPerRequest = "flush_per_request"
        }

        public var directory = "navlog-journal"
        public var durability = Durability.flushInterval
        public var flushIntervalMilliseconds = 200
        public var batchSize = 4096
        public var queueCapacity = 65_536
        public var overflow = BackpressurePolicy.block
        public var rotateBytes: Int64 = 67_108_864
        public var rotateAgeSeconds = 3600
        public var retentionBytes: Int64?
        public var retentionAgeSeconds: Int?

        public init() {}
    }

    // MARK: - Privacy

    /// What the journal protects beyond what app code marks private (`privacy` in the JSON).
    public struct PrivacySettings: Sendable, Equatable {
        /// `hash` (keyed HMAC-SHA256, `hmac:…`) or `remove`.
        public var mode = PrivacyPolicy.Mode.hash
        /// Rules such as `ProfileViewModel.email`, `action.value:profile-name` or `deeplink.url`.
        public var redact: [RedactionRule] = []
        /// The key file; nil keeps the key in the journal directory.
        public var keyFile: String?

        public init() {}
    }

    // MARK: - Testing

    /// Knobs that only fault tests turn.
    public struct TestingSettings: Sendable, Equatable {
        /// Added to the wall clock of sessions and journal (negative: the clock jumps back).
        /// Applied at start and on every SIGHUP, so a reload is a wall-clock jump.
        public var wallClockOffsetSeconds: Int64 = 0

        public init() {}
    }

    // MARK: - Listening

    /// A TCP listener, IPv4.
    public struct TCPAddress: Sendable, Equatable {
        public var host: String
        /// The port; 0 picks a free one, logged at start.
        public var port: Int

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        /// Whether the address is on the loopback interface (127.0.0.0/8).
        public var isLoopback: Bool { host.hasPrefix("127.") || host == "localhost" }
    }

    /// Where the daemon listens: a Unix socket (mode 0600), TCP, or both.
    public struct ListenSettings: Sendable, Equatable {
        public var unixSocket: String? = "navlogd.sock"
        public var tcp: TCPAddress? = TCPAddress(host: "127.0.0.1", port: 7878)

        public init() {}
    }

    // MARK: - Limits

    /// What one client may ask of the daemon.
    public struct Limits: Sendable, Equatable {
        /// Largest request body; larger ones get 413.
        public var maximumBodyBytes = 65_536
        /// Most live sessions; beyond it `POST /v1/sessions` gets 429.
        public var maximumSessions = 1000
        /// Sessions without a command for this long are ended (recorded as `idle timeout`).
        public var idleSessionTimeoutSeconds = 900
        /// How long a connection has to deliver each whole request (from when it opened or its
        /// previous answer was sent) before it is closed, how long it may stay idle, and twice
        /// the longest `wait`.
        public var requestTimeoutSeconds = 30
        /// How long SIGTERM waits for requests in flight before cancelling them.
        public var drainTimeoutSeconds = 10
        /// How long SIGTERM then gives ending the sessions, and then closing the journal, each,
        /// before it gives up on that stage (a close given up on exits 2).
        public var closeTimeoutSeconds = 10
        /// Events buffered per `/v1/events` subscriber before newer ones are dropped and reported.
        public var streamBufferEvents = 4096

        public init() {}
    }

    // MARK: - Apps

    /// One enabled app with the parameters its sessions start with unless a client overrides them.
    public struct AppSettings: Sendable, Equatable {
        public var name: String
        public var parameters: [String: String]

        public init(name: String, parameters: [String: String]) {
            self.name = name
            self.parameters = parameters
        }
    }

    public var journal = JournalSettings()
    public var privacy = PrivacySettings()
    public var listen = ListenSettings()
    /// The bearer token clients must send; required when TCP listens beyond loopback.
    public var token: String?
    public var limits = Limits()
    /// Whether each answered request is logged (`log.access`): one logfmt line with its
    /// method, path, route, status and duration; never its query, headers or body.
    public var logsAccess = false
    /// Fault-injection settings for tests (`testing`; absent from the documented default).
    public var testing = TestingSettings()
    /// The enabled apps, in catalog order; nil enables every app of the catalog with its defaults.
    public var apps: [AppSettings]?
    /// Labels of the journal run.
    public var labels: [String: String] = ["service": "navlogd"]
    /// The push of spans to an OpenTelemetry collector; off by default.
    public var otlp = OTLPSettings()
    /// The web console at `/ui`; on by default when TCP listens on loopback.
    public var console = ConsoleSettings()
    /// `POST /v1/ingest`: limits and the idempotency window.
    public var ingest = IngestSettings()

    public init() {}

    // MARK: - Derived settings

    /// The journal writer's configuration; `directory` relative paths resolve against the
    /// working directory.
    public func makeJournalConfiguration() -> JournalConfiguration {
        JournalConfiguration(
            directory: journal.directory,
            labels: labels,
            flushInterval: .milliseconds(journal.flushIntervalMilliseconds),
            batchSize: journal.batchSize,
            queueCapacity: journal.queueCapacity,
            backpressure: journal.overflow,
            maximumFileBytes: journal.rotateBytes,
            maximumFileAge: .seconds(journal.rotateAgeSeconds),
            retentionBytes: journal.retentionBytes,
            retentionAge: journal.retentionAgeSeconds.map { .seconds($0) },
            privacy: PrivacyPolicy(mode: privacy.mode, rules: privacy.redact),
            privacyKeyFile: privacy.keyFile
        )
    }

    /// The enabled apps of `catalog` with their configured default parameters.
    public func enabledApps(of catalog: AppCatalog) -> [AppSettings] {
        apps ?? catalog.apps.map { AppSettings(name: $0.name, parameters: [:]) }
    }

    /// The settings a running daemon cannot change on SIGHUP, named by key path, that differ
    /// between `self` and `other`.
    public func restartOnlyChanges(comparedTo other: DaemonConfiguration) -> [String] {
        var changed: [String] = []
        if journal != other.journal { changed.append("journal") }
        if privacy != other.privacy { changed.append("privacy") }
        if listen != other.listen { changed.append("listen") }
        if labels != other.labels { changed.append("labels") }
        if otlp != other.otlp { changed.append("otlp") }
        if limits.maximumSessions != other.limits.maximumSessions { changed.append("limits.max_sessions") }
        if limits.requestTimeoutSeconds != other.limits.requestTimeoutSeconds { changed.append("limits.request_timeout_s") }
        return changed
    }
}
