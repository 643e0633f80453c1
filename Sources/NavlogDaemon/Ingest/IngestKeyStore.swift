import Foundation
import NavlogEvents
import NavlogJournal
import Synchronization

/// The `Idempotency-Key`s of `POST /v1/ingest` the daemon remembers: those in flight, and
/// those committed within the window, with the answer they were given.
///
/// At startup it is filled from the journal's receipts (``IngestLedger``), which the writer
/// commits with the events they cover, so a key survives a `kill -9` exactly when its events do.
///
/// Memory is bounded: the committed keys and answers held (counted by
/// ``IngestReceipt/rememberedBytes(key:answer:)``) stay within a budget
/// (`ingest.idempotency_max_bytes`); past it the oldest are forgotten before their window
/// ends. Each is kept as a 64-bit digest with its commit time instead (``digestBytes``; the
/// digests take at most a quarter of the budget), so that a retry under it is told from a new
/// key and answered from the journal's receipt (``IngestLedger/receipt(key:committed:in:)``);
/// past that quarter the oldest digests go, and those keys are forgotten altogether and counted
/// (``Statistics/forgottenEarly``).
final class IngestKeyStore: Sendable {
    /// What a request finds under its key.
    enum Lookup: Equatable {
        /// The key is new; it is now held for this request until ``commit`` or ``release``.
        case acquired
        /// Another request with this key is being answered.
        case inFlight
        /// The key was committed: the answer given then, and its accepted count.
        case committed(answer: String, accepted: Int)
    }

    /// What the store holds now, for `/metrics`.
    struct Statistics: Sendable, Equatable {
        /// Keys remembered (held or committed).
        var keys = 0
        /// Keys forgotten from memory whose digest is kept, for their receipt to be looked up in
        /// the journal.
        var digests = 0
        /// The committed keys' ``IngestReceipt/rememberedBytes(key:answer:)`` and the digests'
        /// ``IngestKeyStore/digestBytes``.
        var bytes = 0
        /// Committed keys forgotten altogether before their window ended, to stay within the
        /// budget, since the daemon started (those left out when loading included).
        var forgottenEarly: UInt64 = 0
        /// Requests answered from the journal's receipt of a key kept as a digest.
        var foundInJournal: UInt64 = 0
    }

    /// What a key kept as a digest costs the budget: its 64-bit digest and commit time, in the
    /// table and in the order they go (measured: 43 to 83 bytes each for 100,000 to 1,000,000
    /// of them, as the table and the array grow in steps).
    static let digestBytes = 64

    /// The digests may take a quarter of the budget; the keys and answers the rest.
    static func digestLimit(budget: Int) -> Int { budget / 4 / digestBytes }

    private enum Entry {
        case inFlight
        case committed(answer: String, accepted: Int, nanoseconds: Int64)
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Committed keys in commit order, for forgetting them when the window passes or the
        /// budget is full.
        var order: [(key: String, nanoseconds: Int64)] = []
        var head = 0
        var bytes = 0
        /// Keys forgotten from `entries` for the budget, by digest (`String.hashValue`, fixed
        /// for the process), with when they were committed; in the order they were forgotten.
        var digests: [Int: Int64] = [:]
        var digestOrder: [(digest: Int, nanoseconds: Int64)] = []
        var digestHead = 0
        var forgottenEarly: UInt64 = 0
        var foundInJournal: UInt64 = 0

        var digestBytes: Int { digests.count * IngestKeyStore.digestBytes }

        /// Forgets committed keys from the oldest on while the oldest was committed before
        /// `cutoff` (wall-clock nanoseconds) or the store takes more than `budget` bytes; those
        /// within the window are kept as digests (``digest(_:nanoseconds:cutoff:budget:)``).
        /// Then lets go of the digests past the window.
        mutating func forgetOldest(committedBefore cutoff: Int64 = .min, overBudget budget: Int = .max) {
            while head < order.count, order[head].nanoseconds < cutoff || bytes + digestBytes > budget {
                let old = order[head]
                head += 1
                guard case .committed(let answer, _, let nanoseconds)? = entries[old.key], nanoseconds == old.nanoseconds else { continue }
                entries[old.key] = nil
                bytes -= IngestReceipt.rememberedBytes(key: old.key, answer: answer)
                if nanoseconds >= cutoff { digest(old.key.hashValue, nanoseconds: nanoseconds, cutoff: cutoff, budget: budget) }
            }
            while digestHead < digestOrder.count, digestOrder[digestHead].nanoseconds < cutoff { dropOldestDigest(cutoff: cutoff) }
            if head > 4096, head * 2 > order.count {
                order.removeFirst(head)
                head = 0
            }
            if digestHead > 4096, digestHead * 2 > digestOrder.count {
                digestOrder.removeFirst(digestHead)
                digestHead = 0
            }
        }

        /// Keeps the key of `digest`, committed at `nanoseconds`, as a digest, then lets go of
        /// the oldest digests past ``IngestKeyStore/digestLimit(budget:)``; those within the
        /// window (committed at `cutoff` or later) are counted forgotten early.
        mutating func digest(_ digest: Int, nanoseconds: Int64, cutoff: Int64, budget: Int) {
            digests[digest] = nanoseconds
            digestOrder.append((digest, nanoseconds))
            while digests.count > IngestKeyStore.digestLimit(budget: budget), digestHead < digestOrder.count {
                dropOldestDigest(cutoff: cutoff)
            }
        }

        private mutating func dropOldestDigest(cutoff: Int64) {
            let old = digestOrder[digestHead]
            digestHead += 1
            guard digests[old.digest] == old.nanoseconds else { return }
            digests[old.digest] = nil
            if old.nanoseconds >= cutoff { forgottenEarly += 1 }
        }

        mutating func remember(_ key: String, answer: String, accepted: Int, nanoseconds: Int64, budget: Int) {
            if case .committed(let earlier, _, _)? = entries[key] { bytes -= IngestReceipt.rememberedBytes(key: key, answer: earlier) }
            entries[key] = .committed(answer: answer, accepted: accepted, nanoseconds: nanoseconds)
            order.append((key, nanoseconds))
            bytes += IngestReceipt.rememberedBytes(key: key, answer: answer)
            forgetOldest(overBudget: budget)
        }
    }

    private let state = Mutex(State())

    /// Loads what was read from the journal (oldest first): the keys kept as digests, then the
    /// receipts, as committed, keeping them within `budget` bytes as when they were committed;
    /// `leftOut` more were left out when reading them for the budget.
    init(receipts: [IngestReceipt] = [], digested: [(key: String, nanoseconds: Int64)] = [], budget: Int = .max, leftOut: Int = 0) {
        state.withLock { state in
            state.forgottenEarly = UInt64(leftOut)
            for (key, nanoseconds) in digested { state.digest(key.hashValue, nanoseconds: nanoseconds, cutoff: .min, budget: budget) }
            for receipt in receipts {
                state.remember(receipt.key, answer: receipt.answer, accepted: Self.acceptedCount(of: receipt.answer),
                               nanoseconds: receipt.committedNanoseconds, budget: budget)
            }
        }
    }

    /// Looks `key` up at wall time `now`, forgetting keys older than `window` nanoseconds first;
    /// holds it for the caller when it is new.
    func acquire(_ key: String, now: Int64, window: Int64) -> Lookup {
        state.withLock { state in
            state.forgetOldest(committedBefore: now - window)
            switch state.entries[key] {
            case .inFlight?: return .inFlight
            case .committed(let answer, let accepted, _)?: return .committed(answer: answer, accepted: accepted)
            case nil:
                state.entries[key] = .inFlight
                return .acquired
            }
        }
    }

    /// What `key` holds at wall time `now`, without taking it: nil when it is unknown, or was
    /// committed more than `window` nanoseconds ago.
    func peek(_ key: String, now: Int64, window: Int64) -> Lookup? {
        state.withLock { state in
            switch state.entries[key] {
            case .inFlight?: .inFlight
            case .committed(let answer, let accepted, let nanoseconds)? where nanoseconds >= now - window:
                .committed(answer: answer, accepted: accepted)
            default: nil
            }
        }
    }

    /// Marks a held key committed with the answer given, then forgets the oldest committed
    /// keys while those held take more than `budget` bytes.
    func commit(_ key: String, answer: String, accepted: Int, now: Int64, budget: Int) {
        state.withLock { state in
            state.remember(key, answer: answer, accepted: accepted, nanoseconds: now, budget: budget)
        }
    }

    /// Lets go of a held key whose request journaled nothing: a retry is taken anew.
    func release(_ key: String) {
        state.withLock { state in
            if case .inFlight? = state.entries[key] { state.entries[key] = nil }
        }
    }

    /// When `key`, which the store does not hold, was committed, if the budget made the store
    /// keep it as a digest within `window` nanoseconds of `now`: its receipt is then to be
    /// looked up in the journal. (A digest another key shares sends that key to the journal for
    /// nothing: one pair in 2^64.)
    func forgottenCommitTime(of key: String, now: Int64, window: Int64) -> Int64? {
        state.withLock { state in
            guard let nanoseconds = state.digests[key.hashValue], nanoseconds >= now - window else { return nil }
            return nanoseconds
        }
    }

    /// Counts a request answered from the journal's receipt of a key kept as a digest.
    func noteFoundInJournal() {
        state.withLock { $0.foundInJournal += 1 }
    }

    /// What the store holds now.
    var statistics: Statistics {
        state.withLock {
            Statistics(keys: $0.entries.count, digests: $0.digests.count, bytes: $0.bytes + $0.digestBytes, forgottenEarly: $0.forgottenEarly,
                       foundInJournal: $0.foundInJournal)
        }
    }

    /// The `accepted` count of an answer as sent.
    static func acceptedCount(of answer: String) -> Int {
        guard let value = try? JSONValue(parsing: answer), let accepted = value["accepted"]?.intValue else { return 0 }
        return Int(accepted)
    }
}
