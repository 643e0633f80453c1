import Foundation

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
///
/// `@unchecked Sendable`: `storage` is touched only under `lock`. An `NSLock` (a pthread
/// mutex) rather than `Mutex`: sessions now record from many threads at once, and
/// ThreadSanitizer does not see `Mutex`'s contended path (a futex in the uninstrumented
/// runtime), so `scripts/tsan` reported this sink's appends as races.
public final class MemoryEventSink: EventSink, @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Event] = []

    public init() {}

    public func record(_ event: Event) {
        lock.withLock { storage.append(event) }
    }

    /// The events recorded so far, in arrival order.
    public var events: [Event] { lock.withLock { storage } }

    /// Forgets every event recorded so far.
    public func removeAll() {
        lock.withLock { storage.removeAll() }
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
