import Foundation
import Synchronization

/// The OTLP push's counters, rendered after the daemon's own on `/metrics`.
///
/// - `navlog_otlp_spans_pushed_total`: spans the collector acknowledged;
/// - `navlog_otlp_batches_pushed_total`: requests it acknowledged;
/// - `navlog_otlp_batches_failed_total`: requests that failed and are retried (connection
///   errors, timeouts, 429, 5xx, 401/403/404);
/// - `navlog_otlp_spans_skipped_total{reason}`: spans given up on and reported
///   (`rejected`: the collector refused the batch for good; `partial`: it refused some spans of
///   an accepted batch; `too_large`: one span larger than it takes);
/// - `navlog_otlp_push_lag_events`: journal events committed but not yet settled by the push;
/// - `navlog_otlp_last_success_timestamp_seconds`: Unix time of the last acknowledged request.
public final class OTLPPushMetrics: Sendable {
    private struct Counters {
        var spansPushed: UInt64 = 0
        var batchesPushed: UInt64 = 0
        var batchesFailed: UInt64 = 0
        var spansSkipped: [String: UInt64] = [:]
        var settledSeq: UInt64 = 0
        var lastSuccessNanoseconds: Int64 = 0
    }

    private let counters = Mutex(Counters())

    public init() {}

    // MARK: - Recording

    /// Counts a request the collector acknowledged with `spans` spans.
    func recordPushed(spans: Int) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        counters.withLock {
            $0.spansPushed += UInt64(spans)
            $0.batchesPushed += 1
            $0.lastSuccessNanoseconds = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        }
    }

    /// Counts a request that failed and will be retried.
    func recordFailure() { counters.withLock { $0.batchesFailed += 1 } }

    /// Counts `count` spans skipped for `reason`.
    func recordSkipped(_ count: Int, reason: String) {
        guard count > 0 else { return }
        counters.withLock { $0.spansSkipped[reason, default: 0] += UInt64(count) }
    }

    /// Records the seq up to which every event's spans are settled.
    func recordSettled(seq: UInt64) { counters.withLock { $0.settledSeq = seq } }

    // MARK: - Reading

    /// Spans acknowledged so far.
    public var spansPushed: UInt64 { counters.withLock { $0.spansPushed } }

    /// Requests failed so far.
    public var batchesFailed: UInt64 { counters.withLock { $0.batchesFailed } }

    /// Returns the metrics in Prometheus text format; lag is measured against `committedSeq`,
    /// the journal's highest committed seq.
    public func render(committedSeq: UInt64) -> String {
        let counters = self.counters.withLock { $0 }
        var text = ""
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            text += "# HELP navlog_\(name) \(help)\n# TYPE navlog_\(name) \(type)\n"
            for sample in samples { text += "navlog_\(name)\(sample.labels) \(sample.value)\n" }
        }
        let skipped = ["partial", "rejected", "too_large"].map { reason in
            ("{reason=\"\(reason)\"}", String(counters.spansSkipped[reason] ?? 0))
        }
        let lag = committedSeq > counters.settledSeq ? committedSeq - counters.settledSeq : 0
        let lastSuccess = counters.lastSuccessNanoseconds == 0
            ? "0" : String(format: "%.3f", Double(counters.lastSuccessNanoseconds) / 1e9)
        metric("otlp_spans_pushed_total", "counter", "Spans the OTLP collector acknowledged.", [("", String(counters.spansPushed))])
        metric("otlp_batches_pushed_total", "counter", "OTLP export requests the collector acknowledged.", [("", String(counters.batchesPushed))])
        metric("otlp_batches_failed_total", "counter", "OTLP export requests that failed and are retried.", [("", String(counters.batchesFailed))])
        metric("otlp_spans_skipped_total", "counter", "Spans given up on and reported, by reason.", skipped)
        metric("otlp_push_lag_events", "gauge", "Journal events committed but not yet settled by the OTLP push.", [("", String(lag))])
        metric("otlp_last_success_timestamp_seconds", "gauge", "Unix time of the last acknowledged OTLP request; 0 before the first.",
               [("", lastSuccess)])
        return text
    }
}
