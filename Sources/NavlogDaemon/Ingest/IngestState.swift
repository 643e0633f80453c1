import Foundation
import NavlogJournal

/// What `POST /v1/ingest` keeps between requests: the idempotency keys and the per-client limits.
final class IngestState: Sendable {
    let keys: IngestKeyStore
    let limiter = IngestLimiter()

    init(keys: IngestKeyStore = IngestKeyStore()) {
        self.keys = keys
    }

    /// The state of a daemon journaling into `directory`: the keys of its receipts committed
    /// within `windowSeconds` of `now` (wall-clock nanoseconds). A file it cannot read is
    /// logged, and its keys are not remembered.
    static func load(directory: String, windowSeconds: Int, now: Int64, log: Logger) -> IngestState {
        let since = now - Int64(windowSeconds) * 1_000_000_000
        let found = IngestLedger.receipts(in: directory, since: since)
        for problem in found.unreadable { log.warn("ingest keys not loaded from a journal file", ["error": problem]) }
        return IngestState(keys: IngestKeyStore(receipts: found.receipts))
    }
}
