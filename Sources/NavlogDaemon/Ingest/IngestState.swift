import Foundation
import NavlogJournal

/// What `POST /v1/ingest` keeps between requests: the idempotency keys and the per-client limits.
final class IngestState: Sendable {
    let keys: IngestKeyStore
    let limiter = IngestLimiter()
    /// The journal directory, where the receipts of keys kept as digests are looked up: nil
    /// for a daemon without one.
    let directory: String?

    init(keys: IngestKeyStore = IngestKeyStore(), directory: String? = nil) {
        self.keys = keys
        self.directory = directory
    }

    /// The state of a daemon journaling into `directory`: the keys of its receipts committed
    /// within `windowSeconds` of `now` (wall-clock nanoseconds), the newest that fit in `budget`
    /// bytes, and digests of older ones in their share of it. A file it cannot read is logged,
    /// and its keys are not remembered; keys left out for the budget are logged too.
    static func load(directory: String, windowSeconds: Int, budget: Int, now: Int64, log: Logger) -> IngestState {
        let since = now - Int64(windowSeconds) * 1_000_000_000
        let found = IngestLedger.receipts(in: directory, since: since, budget: budget, keysPastBudget: IngestKeyStore.digestLimit(budget: budget))
        for problem in found.unreadable { log.warn("ingest keys not loaded from a journal file", ["error": problem]) }
        let keys = IngestKeyStore(receipts: found.receipts, digested: found.keysPastBudget, budget: budget, leftOut: found.leftOut)
        let kept = keys.statistics
        if kept.forgottenEarly > 0 {
            log.warn("oldest ingest keys within the window not loaded: ingest.idempotency_max_bytes is full",
                     ["keys_loaded": "\(kept.keys)", "keys_as_digests": "\(kept.digests)", "keys_left_out": "\(kept.forgottenEarly)"])
        }
        return IngestState(keys: keys, directory: directory)
    }

    /// The journal's receipt of `key`, which the store does not hold, when the store kept it as
    /// a digest committed within `window` nanoseconds of `now`. Unreadable files are logged; a
    /// key found is counted.
    func receiptOfDigestedKey(_ key: String, now: Int64, window: Int64, log: Logger) -> IngestReceipt? {
        guard let directory, let committed = keys.forgottenCommitTime(of: key, now: now, window: window) else { return nil }
        let found = IngestLedger.receipt(key: key, committed: committed, in: directory)
        for problem in found.unreadable { log.warn("an ingest key not looked up in a journal file", ["error": problem]) }
        guard let receipt = found.receipt else { return nil }
        keys.noteFoundInJournal()
        return receipt
    }
}
