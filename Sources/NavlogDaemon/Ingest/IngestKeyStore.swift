import Foundation
import NavlogEvents
import NavlogJournal
import Synchronization

/// The `Idempotency-Key`s of `POST /v1/ingest` the daemon remembers: those in flight, and
/// those committed within the window, with the answer they were given.
///
/// At startup it is filled from the journal's receipts (``IngestLedger``), which the writer
/// commits with the events they cover, so a key survives a `kill -9` exactly when its events do.
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

    private enum Entry {
        case inFlight
        case committed(answer: String, accepted: Int, nanoseconds: Int64)
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Committed keys in commit order, for forgetting them when the window passes.
        var order: [(key: String, nanoseconds: Int64)] = []
        var head = 0
    }

    private let state = Mutex(State())

    /// Loads `receipts` (oldest first), as committed.
    init(receipts: [IngestReceipt] = []) {
        state.withLock { state in
            for receipt in receipts {
                let accepted = Self.acceptedCount(of: receipt.answer)
                state.entries[receipt.key] = .committed(answer: receipt.answer, accepted: accepted, nanoseconds: receipt.committedNanoseconds)
                state.order.append((receipt.key, receipt.committedNanoseconds))
            }
        }
    }

    /// Looks `key` up at wall time `now`, forgetting keys older than `window` nanoseconds first;
    /// holds it for the caller when it is new.
    func acquire(_ key: String, now: Int64, window: Int64) -> Lookup {
        state.withLock { state in
            while state.head < state.order.count, state.order[state.head].nanoseconds < now - window {
                let old = state.order[state.head]
                if case .committed(_, _, let nanoseconds)? = state.entries[old.key], nanoseconds == old.nanoseconds {
                    state.entries[old.key] = nil
                }
                state.head += 1
            }
            if state.head > 4096, state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
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

    /// Marks a held key committed with the answer given.
    func commit(_ key: String, answer: String, accepted: Int, now: Int64) {
        state.withLock { state in
            state.entries[key] = .committed(answer: answer, accepted: accepted, nanoseconds: now)
            state.order.append((key, now))
        }
    }

    /// Lets go of a held key whose request journaled nothing: a retry is taken anew.
    func release(_ key: String) {
        state.withLock { state in
            if case .inFlight? = state.entries[key] { state.entries[key] = nil }
        }
    }

    /// Keys remembered now (held or committed).
    var count: Int { state.withLock { $0.entries.count } }

    private static func acceptedCount(of answer: String) -> Int {
        guard let value = try? JSONValue(parsing: answer), let accepted = value["accepted"]?.intValue else { return 0 }
        return Int(accepted)
    }
}
