import Foundation
import NavlogCommandLine
import NavlogJournal
import Synchronization

/// The daemon's own counters, rendered with the journal's in Prometheus text format.
public final class DaemonMetrics: Sendable {
    /// Upper bounds of the latency histogram's buckets, in seconds.
    static let latencyBounds: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

    private struct RequestKey: Hashable, Comparable {
        var method: String
        var route: String
        var status: Int

        static func < (lhs: RequestKey, rhs: RequestKey) -> Bool {
            (lhs.route, lhs.method, lhs.status) < (rhs.route, rhs.method, rhs.status)
        }
    }

    private struct Counters {
        var requests: [RequestKey: UInt64] = [:]
        var latencyBuckets = [UInt64](repeating: 0, count: DaemonMetrics.latencyBounds.count)
        var latencyCount: UInt64 = 0
        var latencySum: Double = 0
        var sessionsCreated: UInt64 = 0
        var sessionsEnded: [SessionEndReason: UInt64] = [:]
        var reloads: [String: UInt64] = [:]

        /// Adds the request counters of `other` (a shard) to these.
        mutating func addRequests(of other: Counters) {
            requests.merge(other.requests, uniquingKeysWith: +)
            for index in latencyBuckets.indices { latencyBuckets[index] += other.latencyBuckets[index] }
            latencyCount += other.latencyCount
            latencySum += other.latencySum
        }
    }

    /// One lock's worth of counters; requests are counted in the shard of the thread that
    /// answered them, so the server's threads do not all queue for one lock per request.
    private final class Shard: Sendable {
        let counters = Mutex(Counters())
    }

    private let counters = Mutex(Counters())
    private let requestShards = (0..<DaemonMetrics.shardCount).map { _ in Shard() }
    static let shardCount = 8

    /// The calling thread's shard.
    private var currentShard: Shard {
        // pthread_self is the thread's control block address: drop the low bits it shares
        // with every other and mix the rest.
        let bits = UInt64(pthread_self())
        return requestShards[Int(((bits >> 12) &* 0x9E37_79B9_7F4A_7C15) >> 61) % Self.shardCount]
    }
    /// The OTLP push's counters, when it is enabled.
    public let otlpPush: OTLPPushMetrics?
    /// The counters of `POST /v1/ingest`.
    public let ingest = IngestMetrics()

    /// When this process started, in seconds since the epoch (`/proc/self/stat`); nil where
    /// it cannot be read.
    let processStartSeconds: Double?

    public init(otlpPush: OTLPPushMetrics? = nil) {
        self.otlpPush = otlpPush
        processStartSeconds = ProcessStartTime.secondsSinceEpoch()
    }

    // MARK: - Recording

    /// The methods counted under their own name; any other is counted as `other`, so that
    /// clients cannot add series (and memory) by inventing methods.
    static let countedMethods: [String] = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE"]

    /// The `method` label of `method`: the method itself if it is a standard one, else `other`.
    static func methodLabel(_ method: String) -> String {
        countedMethods.first { $0 == method } ?? "other"
    }

    /// Counts one answered request and its latency.
    ///
    /// `route` must come from a fixed set (the API's route templates and `other`): every
    /// distinct label value is a series kept for the life of the process.
    public func recordRequest(method: String, route: String, status: Int, nanoseconds: UInt64) {
        let seconds = Double(nanoseconds) / 1e9
        let bucket = Self.latencyBounds.firstIndex { seconds <= $0 }
        let key = RequestKey(method: Self.methodLabel(method), route: route, status: status)
        currentShard.counters.withLock { counters in
            counters.requests[key, default: 0] += 1
            if let bucket { counters.latencyBuckets[bucket] += 1 }
            counters.latencyCount += 1
            counters.latencySum += seconds
        }
    }

    public func recordSessionCreated() { counters.withLock { $0.sessionsCreated += 1 } }

    /// Why sessions end: the values of `navlog_sessions_ended_total`'s `reason` label, each
    /// shown from the start, at 0 until a session ends so.
    public enum SessionEndReason: String, Sendable, CaseIterable, Comparable {
        /// `DELETE /v1/sessions/{id}`.
        case client
        /// Idle for `limits.idle_session_timeout_s`.
        case idleTimeout = "idle timeout"
        /// Ended by the daemon's shutdown.
        case shutdown

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Counts sessions ended for `reason`.
    public func recordSessionsEnded(_ count: Int, reason: SessionEndReason) {
        guard count > 0 else { return }
        counters.withLock { $0.sessionsEnded[reason, default: 0] += UInt64(count) }
    }

    /// Counts a configuration reload by outcome (`applied`, `rejected`).
    public func recordReload(_ outcome: String) { counters.withLock { $0.reloads[outcome, default: 0] += 1 } }

    // MARK: - Rendering

    /// What the daemon knows besides its own counters when `/metrics` is asked.
    public struct Snapshot: Sendable {
        public var journal: JournalMetrics
        public var activeSessions: Int
        public var streamSubscribers: Int
        public var streamEventsDropped: UInt64
        public var uptimeSeconds: Double
        /// Requests admitted and not yet answered, the scrape itself included.
        public var requestsInFlight = 0
        /// The ingest idempotency keys remembered.
        var ingestKeys = IngestKeyStore.Statistics()
        /// The ingest clients (sources) remembered by the per-client limits.
        var ingestSources = 0
        /// The ingested sessions the limits count open, over all sources.
        var ingestOpenSessions = 0
    }

    /// The metrics in Prometheus text exposition format 0.0.4.
    public func render(_ snapshot: Snapshot) -> String {
        var counters = self.counters.withLock { $0 }
        for shard in requestShards { counters.addRequests(of: shard.counters.withLock { $0 }) }
        var text = ""
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            text += "# HELP navlog_\(name) \(help)\n# TYPE navlog_\(name) \(type)\n"
            for sample in samples { text += "navlog_\(name)\(sample.labels) \(sample.value)\n" }
        }
        func number(_ value: Double) -> String { value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value) }
        let journal = snapshot.journal
        metric("build_info", "gauge", "Always 1; the version of navlog that serves.", [(Self.labels(["version": navlogVersion]), "1")])
        if let start = processStartSeconds {
            // The name every Prometheus client library gives it, without navlog's prefix.
            text += "# HELP process_start_time_seconds Start time of the process since unix epoch in seconds.\n"
            text += "# TYPE process_start_time_seconds gauge\nprocess_start_time_seconds \(number(start))\n"
        }
        metric("journal_events_recorded_total", "counter", "Events committed to the journal.", [("", String(journal.eventsRecorded))])
        metric("journal_events_dropped_total", "counter", "Events that never reached the journal (queue full, write errors).", [("", String(journal.eventsDropped))])
        metric("journal_bytes_written_total", "counter", "Compressed block bytes committed to the journal.", [("", String(journal.bytesWritten))])
        metric("journal_compression_ratio", "gauge", "Uncompressed over compressed block bytes.", [("", number(journal.compressionRatio))])
        metric("journal_queue_depth", "gauge", "Events waiting in the journal writer's queue.", [("", String(journal.queueDepth))])
        metric("journal_flushes_total", "counter", "Journal commits.", [("", String(journal.flushes))])
        metric("journal_rotations_total", "counter", "Journal files closed by rotation.", [("", String(journal.rotations))])
        metric("sessions_active", "gauge", "Live sessions.", [("", String(snapshot.activeSessions))])
        metric("sessions_created_total", "counter", "Sessions started.", [("", String(counters.sessionsCreated))])
        metric("sessions_ended_total", "counter", "Sessions ended, by reason.",
               SessionEndReason.allCases.sorted().map { (Self.labels(["reason": $0.rawValue]), String(counters.sessionsEnded[$0] ?? 0)) })
        metric("stream_subscribers", "gauge", "Open /v1/events streams.", [("", String(snapshot.streamSubscribers))])
        metric("stream_events_dropped_total", "counter", "Events not sent to a slow /v1/events subscriber.", [("", String(snapshot.streamEventsDropped))])
        metric("config_reloads_total", "counter", "SIGHUP reloads, by outcome.",
               counters.reloads.sorted { $0.key < $1.key }.map { (Self.labels(["outcome": $0.key]), String($0.value)) })
        metric("http_requests_in_flight", "gauge", "Requests admitted and not yet answered, this scrape included.",
               [("", String(snapshot.requestsInFlight))])
        metric("http_requests_total", "counter", "Answered HTTP requests.", counters.requests.keys.sorted().map { key in
            (Self.labels(["method": key.method, "route": key.route, "status": String(key.status)]), String(counters.requests[key]!))
        })
        var cumulative: UInt64 = 0
        var buckets: [(labels: String, value: String)] = []
        for (index, bound) in Self.latencyBounds.enumerated() {
            cumulative += counters.latencyBuckets[index]
            buckets.append(("_bucket{le=\"\(number(bound))\"}", String(cumulative)))
        }
        buckets.append(("_bucket{le=\"+Inf\"}", String(counters.latencyCount)))
        buckets.append(("_sum", String(counters.latencySum)))
        buckets.append(("_count", String(counters.latencyCount)))
        metric("http_request_duration_seconds", "histogram", "Time from request headers to response, in seconds.", buckets)
        metric("uptime_seconds", "gauge", "Seconds since navlogd started.", [("", number(snapshot.uptimeSeconds.rounded()))])
        text += ingest.render(keys: snapshot.ingestKeys, sources: snapshot.ingestSources, openSessions: snapshot.ingestOpenSessions)
        if let otlpPush { text += otlpPush.render(committedSeq: journal.committedSeq) }
        return text
    }

    /// A label set in exposition format, `{name="value",…}` in the order given, each value
    /// escaped as the format asks: backslash, double quote and line feed.
    static func labels(_ pairs: KeyValuePairs<String, String>) -> String {
        var text = "{"
        for (index, (name, value)) in pairs.enumerated() {
            if index > 0 { text += "," }
            text += name
            text += "=\""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\\": text += "\\\\"
                case "\"": text += "\\\""
                case "\n": text += "\\n"
                default: text.unicodeScalars.append(scalar)
                }
            }
            text += "\""
        }
        return text + "}"
    }
}
