import Foundation
import NavlogJournal

/// What `POST /v1/ingest` keeps between requests: the idempotency keys and the per-client limits.
final class IngestState: Sendable {
    let keys: IngestKeyStore
    let limiter = IngestLimiter()
    /// Where the receipts of keys forgotten early are looked for: nil without a journal
    /// directory (tests of the store alone).
    let receipts: IngestReceiptFinder?

    init(keys: IngestKeyStore = IngestKeyStore(), receipts: IngestReceiptFinder? = nil) {
        self.keys = keys
        self.receipts = receipts
    }

    /// The state of a daemon journaling into `directory`: the keys of its receipts committed
    /// within `windowSeconds` of `now` (wall-clock nanoseconds), the newest that fit in `budget`
    /// bytes. A file it cannot read is logged, and its keys are not remembered; keys left out
    /// for the budget are logged too.
    static func load(directory: String, windowSeconds: Int, budget: Int, now: Int64, log: Logger) -> IngestState {
        let since = now - Int64(windowSeconds) * 1_000_000_000
        let found = IngestLedger.receipts(in: directory, since: since, budget: budget)
        for problem in found.unreadable { log.warn("ingest keys not loaded from a journal file", ["error": problem]) }
        if found.leftOut > 0 {
            log.warn("oldest ingest keys within the window not loaded: ingest.idempotency_max_bytes is full",
                     ["keys_loaded": "\(found.receipts.count)", "keys_left_out": "\(found.leftOut)"])
        }
        return IngestState(keys: IngestKeyStore(receipts: found.receipts, budget: budget, leftOut: found.leftOut, newestLeftOut: found.newestLeftOut),
                           receipts: IngestReceiptFinder(directory: directory))
    }

    /// The journal's receipt of `key` when the store may have forgotten it early: committed at
    /// wall time `now` minus at most `window` nanoseconds, and no later than the newest key
    /// forgotten. Unreadable files are logged; a key found is counted.
    func receiptForgottenEarly(_ key: String, now: Int64, window: Int64, log: Logger) -> IngestReceipt? {
        guard let receipts, let span = keys.forgottenSpan(now: now, window: window) else { return nil }
        let found = receipts.receipt(key: key, committed: span)
        for problem in found.unreadable { log.warn("ingest keys not looked up in a journal file", ["error": problem]) }
        if found.receipt != nil { keys.noteFoundInJournal() }
        return found.receipt
    }
}
