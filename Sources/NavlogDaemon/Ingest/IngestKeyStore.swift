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
/// ends, and counted (``Statistics/forgottenEarly``). The store then says which commit times it
/// may have forgotten (``forgottenSpan(now:window:)``), for the caller to look a key it does not
/// hold up in the journal's receipts (``IngestReceiptFinder``).
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
        /// The committed keys' ``IngestReceipt/rememberedBytes(key:answer:)``.
        var bytes = 0
        /// Committed keys forgotten before their window ended, to stay within the budget,
        /// since the daemon started (those left out when loading included).
        var forgottenEarly: UInt64 = 0
        /// Requests answered from the journal's receipt of a key forgotten early
        /// (``noteFoundInJournal()``).
        var foundInJournal: UInt64 = 0
    }

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
        var forgottenEarly: UInt64 = 0
        var foundInJournal: UInt64 = 0
        /// When the newest key forgotten early was committed: keys committed then or before
        /// and within the window may be in the journal without being here.
        var forgottenThrough: Int64?

        /// Forgets committed keys from the oldest on while the oldest was committed before
        /// `cutoff` (wall-clock nanoseconds) or those held take more than `budget` bytes;
        /// returns how many were forgotten.
        @discardableResult
        mutating func forgetOldest(committedBefore cutoff: Int64 = .min, overBudget budget: Int = .max) -> Int {
            var forgotten = 0
            while head < order.count, order[head].nanoseconds < cutoff || bytes > budget {
                let old = order[head]
                if case .committed(let answer, _, let nanoseconds)? = entries[old.key], nanoseconds == old.nanoseconds {
                    entries[old.key] = nil
                    bytes -= IngestReceipt.rememberedBytes(key: old.key, answer: answer)
                    forgotten += 1
                    if nanoseconds >= cutoff { forgottenThrough = max(forgottenThrough ?? .min, nanoseconds) }
                }
                head += 1
            }
            if head > 4096, head * 2 > order.count {
                order.removeFirst(head)
                head = 0
            }
            return forgotten
        }

        mutating func remember(_ key: String, answer: String, accepted: Int, nanoseconds: Int64, budget: Int) {
            if case .committed(let earlier, _, _)? = entries[key] { bytes -= IngestReceipt.rememberedBytes(key: key, answer: earlier) }
            entries[key] = .committed(answer: answer, accepted: accepted, nanoseconds: nanoseconds)
            order.append((key, nanoseconds))
            bytes += IngestReceipt.rememberedBytes(key: key, answer: answer)
            forgottenEarly += UInt64(forgetOldest(overBudget: budget))
        }
    }

    private let state = Mutex(State())

    /// Loads `receipts` (oldest first), as committed, keeping the newest within `budget` bytes;
    /// `leftOut` more were left out when reading them for the budget, the newest of them
    /// committed at `newestLeftOut`.
    init(receipts: [IngestReceipt] = [], budget: Int = .max, leftOut: Int = 0, newestLeftOut: Int64? = nil) {
        state.withLock { state in
            state.forgottenEarly = UInt64(leftOut)
            state.forgottenThrough = leftOut > 0 ? newestLeftOut : nil
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

    /// The commit times, at wall time `now`, of keys within `window` nanoseconds that the
    /// budget made the store forget: a key not found here may have been committed then, and
    /// its receipt is to be looked for in the journal. Nil while every key committed within the
    /// window is remembered, as long as the budget is never full.
    func forgottenSpan(now: Int64, window: Int64) -> ClosedRange<Int64>? {
        state.withLock { state in
            guard let through = state.forgottenThrough, through >= now - window else { return nil }
            return (now - window)...through
        }
    }

    /// Counts a request answered from the journal's receipt of a key forgotten early.
    func noteFoundInJournal() {
        state.withLock { $0.foundInJournal += 1 }
    }

    /// What the store holds now.
    var statistics: Statistics {
        state.withLock { Statistics(keys: $0.entries.count, bytes: $0.bytes, forgottenEarly: $0.forgottenEarly, foundInJournal: $0.foundInJournal) }
    }

    /// The `accepted` count of an answer as sent.
    static func acceptedCount(of answer: String) -> Int {
        guard let value = try? JSONValue(parsing: answer), let accepted = value["accepted"]?.intValue else { return 0 }
        return Int(accepted)
    }
}
