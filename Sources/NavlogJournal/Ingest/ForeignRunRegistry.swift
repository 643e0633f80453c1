import Foundation

/// The runs whose events a writer journals on others' behalf (``JournalWriter/recordForeign(_:receipt:)``),
/// with their labels: each file the writer opens adds a run's row, with these labels, when it
/// first holds one of its events.
///
/// `@unchecked Sendable`: `runs` is touched only under `lock` (the recording threads register,
/// the writer thread reads).
final class ForeignRunRegistry: @unchecked Sendable {
    struct Run {
        var startedNanoseconds: Int64
        var labels: [String: String]
    }

    private let lock = NSLock()
    private var runs: [String: Run] = [:]
    /// Runs remembered at most; the oldest registration is forgotten first (a file then adds
    /// such a run with the time of its first event and no labels).
    static let limit = 65_536
    private var order: [String] = []

    /// Registers `run` with `labels` unless it is known; the first registration's labels stay.
    func register(_ run: String, startedNanoseconds: Int64, labels: [String: String]) {
        lock.withLock {
            guard runs[run] == nil else { return }
            if order.count >= Self.limit {
                let forgotten = order.prefix(Self.limit / 2)
                for name in forgotten { runs[name] = nil }
                order.removeFirst(forgotten.count)
            }
            runs[run] = Run(startedNanoseconds: startedNanoseconds, labels: labels)
            order.append(run)
        }
    }

    /// The registration of `run`, nil when unknown.
    func run(_ run: String) -> Run? {
        lock.withLock { runs[run] }
    }
}
