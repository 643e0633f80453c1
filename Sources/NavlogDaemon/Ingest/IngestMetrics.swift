import Foundation
import Synchronization

/// The counters of `POST /v1/ingest`, rendered on `/metrics`:
/// `navlog_ingest_events_total{result="accepted|refused|duplicate"}` (duplicate: events of a
/// retried request whose key was already committed, not journaled again) and
/// `navlog_ingest_requests_limited_total{limit="rate|sessions|sessions_total"}`, beside the idempotency keys
/// remembered: `navlog_ingest_idempotency_keys`, `navlog_ingest_idempotency_bytes` and
/// `navlog_ingest_idempotency_digests`, `navlog_ingest_idempotency_keys_forgotten_early_total` and
/// `navlog_ingest_idempotency_keys_found_in_journal_total`, and `navlog_ingest_sources` and
/// `navlog_ingest_open_sessions`.
public final class IngestMetrics: Sendable {
    private struct Counters {
        var accepted: UInt64 = 0
        var refused: UInt64 = 0
        var duplicate: UInt64 = 0
        var limited: [String: UInt64] = [:]
    }

    private let counters = Mutex(Counters())

    public init() {}

    func record(accepted: Int, refused: Int) {
        counters.withLock {
            $0.accepted += UInt64(accepted)
            $0.refused += UInt64(refused)
        }
    }

    func recordDuplicate(_ count: Int) { counters.withLock { $0.duplicate += UInt64(count) } }

    func recordLimited(_ limit: String) { counters.withLock { $0.limited[limit, default: 0] += 1 } }

    /// Events accepted so far.
    public var accepted: UInt64 { counters.withLock { $0.accepted } }

    /// Returns the metrics in Prometheus text format, with what the key store holds, the
    /// number of sources the limits remember and the sessions they count open.
    func render(keys: IngestKeyStore.Statistics, sources: Int, openSessions: Int) -> String {
        let counters = self.counters.withLock { $0 }
        var text = "# HELP navlog_ingest_events_total Events sent to POST /v1/ingest, by result.\n"
        text += "# TYPE navlog_ingest_events_total counter\n"
        for (result, value) in [("accepted", counters.accepted), ("duplicate", counters.duplicate), ("refused", counters.refused)] {
            text += "navlog_ingest_events_total{result=\"\(result)\"} \(value)\n"
        }
        text += "# HELP navlog_ingest_requests_limited_total Ingest requests answered 429, by the limit they hit.\n"
        text += "# TYPE navlog_ingest_requests_limited_total counter\n"
        for limit in ["rate", "sessions", "sessions_total"] {
            text += "navlog_ingest_requests_limited_total{limit=\"\(limit)\"} \(counters.limited[limit] ?? 0)\n"
        }
        text += "# HELP navlog_ingest_idempotency_keys Idempotency-Keys remembered (in flight or committed within the window).\n"
        text += "# TYPE navlog_ingest_idempotency_keys gauge\nnavlog_ingest_idempotency_keys \(keys.keys)\n"
        text += "# HELP navlog_ingest_idempotency_bytes Memory the committed keys and their answers take, as ingest.idempotency_max_bytes counts it.\n"
        text += "# TYPE navlog_ingest_idempotency_bytes gauge\nnavlog_ingest_idempotency_bytes \(keys.bytes)\n"
        text += "# HELP navlog_ingest_idempotency_digests Keys forgotten from memory for ingest.idempotency_max_bytes but kept as digests, so that a retry is answered from the journal.\n"
        text += "# TYPE navlog_ingest_idempotency_digests gauge\nnavlog_ingest_idempotency_digests \(keys.digests)\n"
        text += "# HELP navlog_ingest_idempotency_keys_forgotten_early_total Committed keys forgotten altogether (not even a digest kept) before their window ended, because ingest.idempotency_max_bytes was full.\n"
        text += "# TYPE navlog_ingest_idempotency_keys_forgotten_early_total counter\n"
        text += "navlog_ingest_idempotency_keys_forgotten_early_total \(keys.forgottenEarly)\n"
        text += "# HELP navlog_ingest_idempotency_keys_found_in_journal_total Requests under a key kept as a digest that were answered from its receipt in the journal.\n"
        text += "# TYPE navlog_ingest_idempotency_keys_found_in_journal_total counter\n"
        text += "navlog_ingest_idempotency_keys_found_in_journal_total \(keys.foundInJournal)\n"
        text += "# HELP navlog_ingest_sources Ingest clients the per-client limits remember (those with tokens spent or sessions open).\n"
        text += "# TYPE navlog_ingest_sources gauge\nnavlog_ingest_sources \(sources)\n"
        text += "# HELP navlog_ingest_open_sessions Ingested sessions the limits count open, over all sources (idle ones not yet let go included).\n"
        text += "# TYPE navlog_ingest_open_sessions gauge\nnavlog_ingest_open_sessions \(openSessions)\n"
        return text
    }
}
