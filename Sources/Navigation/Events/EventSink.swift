import Synchronization

/// Where the runtime sends every event it records.
///
/// The runtime knows only this protocol; it never imports storage. Implementations must return
/// quickly and never block the caller on I/O: the journal writer enqueues, a printer formats.
/// Calls for one session arrive in order, from that session's executor.
public protocol EventSink: AnyObject, Sendable {
    /// Takes one event. Must not block on I/O.
    func record(_ event: Event)
}

/// A sink that keeps every event in memory, in order; for tests and short runs.
public final class MemoryEventSink: EventSink {
    private let storage = Mutex<[Event]>([])

    public init() {}

    public func record(_ event: Event) {
        storage.withLock { $0.append(event) }
    }

    /// The events recorded so far, in arrival order.
    public var events: [Event] { storage.withLock { $0 } }

    /// Forgets every event recorded so far.
    public func removeAll() {
        storage.withLock { $0.removeAll() }
    }
}

/// A sink that discards everything.
public final class NullEventSink: EventSink {
    public init() {}
    public func record(_ event: Event) {}
}

/// A sink that forwards each event to several sinks, in order.
public final class FanOutEventSink: EventSink {
    private let sinks: [any EventSink]

    public init(_ sinks: [any EventSink]) {
        self.sinks = sinks
    }

    public func record(_ event: Event) {
        for sink in sinks { sink.record(event) }
    }
}
