
/// Runs a session's asynchronous work (interactor loads, timers) in a deterministic order.
///
/// Work is queued with a delay on the scheduler's own clock, which only moves when the host
/// says so: ``advance(by:)`` for a scripted `wait`, or with real elapsed time in a live
/// session. Items due at the same time run in the order they were scheduled, so a scenario
/// replays identically.
public final class WorkScheduler {
    private struct Item {
        var due: UInt64
        var order: UInt64
        var work: () -> Void
    }

    /// The scheduler's clock, in nanoseconds since the session started.
    public private(set) var now: UInt64 = 0
    private var items: [Item] = []
    private var nextOrder: UInt64 = 0

    public init() {}

    /// Queues `work` to run `delay` nanoseconds from now.
    public func schedule(after delay: UInt64, _ work: @escaping () -> Void) {
        items.append(Item(due: now &+ delay, order: nextOrder, work: work))
        nextOrder += 1
    }

    /// The number of items waiting to run.
    public var pendingCount: Int { items.count }

    /// The time the next item is due, if any.
    public var nextDueTime: UInt64? { items.map(\.due).min() }

    /// Moves the clock forward by `duration` nanoseconds, running every item that falls due,
    /// including items scheduled by items that ran. Returns how many ran.
    @discardableResult
    public func advance(by duration: UInt64) -> Int {
        let target = now &+ duration
        var ran = 0
        while let next = takeNext(dueBy: target) {
            now = max(now, next.due)
            next.work()
            ran += 1
        }
        now = target
        return ran
    }

    /// Runs items until none is left or `limit` have run, moving the clock to each one's due
    /// time. Returns how many ran.
    @discardableResult
    public func runUntilIdle(limit: Int = 10_000) -> Int {
        var ran = 0
        while ran < limit, let next = takeNext(dueBy: .max) {
            now = max(now, next.due)
            next.work()
            ran += 1
        }
        return ran
    }

    /// Drops every waiting item without running it.
    public func cancelAll() {
        items.removeAll()
    }

    private func takeNext(dueBy limit: UInt64) -> Item? {
        var best: Int?
        for index in items.indices where items[index].due <= limit {
            if let current = best {
                let candidate = items[index]
                let chosen = items[current]
                if (candidate.due, candidate.order) < (chosen.due, chosen.order) { best = index }
            } else {
                best = index
            }
        }
        return best.map { items.remove(at: $0) }
    }
}

extension NavigationContext {
    /// Queues `work` on the session's scheduler; events it records keep the cause in effect now.
    public func schedule(after delay: UInt64, _ work: @escaping () -> Void) {
        let cause = currentCause
        scheduler.schedule(after: delay) { [weak self] in
            guard let self, !self.hasEnded else { return }
            if let cause {
                self.withCause(cause, work)
            } else {
                work()
            }
        }
    }
}
