import Foundation

/// Settings of a ``RemoteEventSink``; every one but the daemon's URL, the client's name and
/// the spool directory has a default.
public struct RemoteSinkConfiguration: Sendable {
    /// The daemon, `http[s]://host:port`.
    public var url: String
    /// The client's name: the `source` label of its runs in the daemon's journal, and the
    /// unit of the daemon's per-client limits.
    public var source: String
    /// The local journal events wait in until the daemon acknowledged them.
    public var spoolDirectory: String
    /// The daemon's bearer token, when it has one.
    public var token: String?
    /// The spool's bound: past it the oldest files go, and a `journal.dropped` record says so.
    public var spoolBytes: Int64
    /// Events per request at most.
    public var batchSize: Int
    /// Longest time an event waits in the spool's queue, and between looks for new events.
    public var flushInterval: Duration
    /// The first wait after a failed request; it doubles with each failure in a row, up to
    /// `retryMaximum`, and a random part of it (jitter) is taken off so clients spread out.
    public var retryInitial: Duration
    public var retryMaximum: Duration
    /// Labels of the spool's runs (app version, device, ...).
    public var labels: [String: String]

    public init(url: String, source: String, spoolDirectory: String, token: String? = nil, spoolBytes: Int64 = 64 << 20,
                batchSize: Int = 1000, flushInterval: Duration = .milliseconds(100), retryInitial: Duration = .milliseconds(50),
                retryMaximum: Duration = .seconds(5), labels: [String: String] = [:]) {
        self.url = url
        self.source = source
        self.spoolDirectory = spoolDirectory
        self.token = token
        self.spoolBytes = max(1 << 20, spoolBytes)
        self.batchSize = max(1, batchSize)
        self.flushInterval = flushInterval
        self.retryInitial = retryInitial
        self.retryMaximum = retryMaximum
        self.labels = labels
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
