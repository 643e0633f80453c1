import Foundation
import NavlogEvents
import NavlogJournal
import Synchronization

/// Hands every event the journal numbers to the open `/v1/events` subscriptions, in seq order.
///
/// It is the journal writer's ``JournalObserver`` (``JournalWriter/observe(with:)``), so live
/// events carry their seq and run, and a client that resumes after one (`Last-Event-ID`,
/// `after=`) gets exactly what followed it. With no subscribers an event costs one atomic load.
public final class EventBroadcaster: JournalObserver {
    private let subscriptions = Mutex<[ObjectIdentifier: EventSubscription]>([:])
    /// The values of `subscriptions`, kept in step with it and arranged by session, so that
    /// delivering an event takes them as they are (a retain) and looks its session up once,
    /// rather than testing every subscription's filter under the journal's lock.
    private let routes = Mutex(Routes())
    /// How many subscriptions `subscriptions` holds, readable without its lock: recording
    /// checks it first, so with no subscribers an event costs one atomic load.
    private let subscriptionCount = Atomic<Int>(0)
    private let droppedByClosed = Atomic<UInt64>(0)
    private let redactor: Redactor?

    /// Creates a broadcaster; `redactor` (the journal's) protects private values in the stream
    /// as in the journal, and runs only when someone subscribes.
    public init(redactor: Redactor? = nil) {
        self.redactor = redactor
    }

    /// Whether any subscription is open (one atomic load).
    public var isObserving: Bool { subscriptionCount.load(ordering: .acquiring) > 0 }

    /// Redacts `event` for the stream when someone subscribes; runs on the recording thread,
    /// before the writer's lock. Most events carry nothing private and skip the redactor's copy.
    public func prepare(_ event: Event) -> Event? {
        guard subscriptionCount.load(ordering: .acquiring) > 0 else { return nil }
        return redacted(event)
    }

    /// Buffers the numbered event in every subscription that wants it (one filter check each);
    /// returns the wake-ups to run once the writer's lock is released. An event recorded while
    /// the first subscription was being added has no prepared form and is redacted here.
    public func deliver(_ event: Event, prepared: Event?) -> (@Sendable () -> Void)? {
        guard subscriptionCount.load(ordering: .acquiring) > 0 else { return nil }
        var delivered = prepared
        var wakes: [@Sendable () -> Void] = []
        let routes = routes.withLock { $0 }
        func offer(to subscription: EventSubscription) {
            guard subscription.matchesKind(event) else { return }
            if delivered == nil { delivered = redacted(event) }
            if let wake = subscription.offer(delivered!, isMatched: true) { wakes.append(wake) }
        }
        for subscription in routes.everySession { offer(to: subscription) }
        if !routes.bySession.isEmpty, let named = routes.bySession[event.session] {
            for subscription in named { offer(to: subscription) }
        }
        guard !wakes.isEmpty else { return nil }
        return { [wakes] in for wake in wakes { wake() } }
    }

    private func redacted(_ event: Event) -> Event {
        redactor.map { $0.mayRedact(event) ? $0.redact(event) : event } ?? event
    }

    /// Starts delivering events to `subscription`.
    func add(_ subscription: EventSubscription) {
        subscriptions.withLock { all in
            all[ObjectIdentifier(subscription)] = subscription
            routes.withLock { $0 = Routes(all.values) }
            subscriptionCount.store(all.count, ordering: .releasing)
        }
    }

    /// Forgets subscriptions whose clients are gone.
    func prune() {
        subscriptions.withLock { all in
            for (key, subscription) in all where subscription.isClosed {
                droppedByClosed.add(subscription.droppedCount, ordering: .relaxed)
                all[key] = nil
            }
            routes.withLock { $0 = Routes(all.values) }
            subscriptionCount.store(all.count, ordering: .releasing)
        }
    }

    /// Sends a heartbeat to every idle subscription and forgets closed ones.
    func heartbeat() {
        prune()
        for subscription in subscriptions.withLock({ Array($0.values) }) { subscription.heartbeat() }
    }

    /// Ends every stream after what is buffered (shutdown).
    func finishAll() {
        for subscription in subscriptions.withLock({ Array($0.values) }) { subscription.finish() }
    }

    /// Open subscriptions.
    public var subscriberCount: Int { subscriptions.withLock { $0.values.filter { !$0.isClosed }.count } }

    /// Events dropped for slow subscribers, over the daemon's life.
    public var droppedCount: UInt64 {
        droppedByClosed.load(ordering: .relaxed) + subscriptions.withLock { $0.values.reduce(0) { $0 + $1.droppedCount } }
    }
}

/// The open subscriptions as the broadcaster looks them up: those of named sessions under each
/// name, the others (every session) apart.
private struct Routes {
    var everySession: [EventSubscription] = []
    var bySession: [String: [EventSubscription]] = [:]

    init() {}

    init(_ subscriptions: some Sequence<EventSubscription>) {
        for subscription in subscriptions {
            guard let sessions = subscription.sessions else {
                everySession.append(subscription)
                continue
            }
            for session in sessions { bySession[session, default: []].append(subscription) }
        }
    }
}
