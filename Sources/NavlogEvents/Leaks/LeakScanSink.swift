import Foundation

/// A sink that looks for leaks in the events as they arrive, keeping the state of each
/// session's instances and screens (``SessionScan``) and never the events themselves.
///
/// What a long-lived host taps instead of a ``MemoryEventSink`` when all it wants is the
/// leaks: its memory grows with the instances a session creates, not with the events they
/// record (a walk 20,000 steps long records 1.5 million events about 25,000 instances).
///
/// ```swift
/// let leaks = LeakScanSink()
/// let session = try SessionCore(id: "s-1", app: app, parameters: parameters, sink: FanOutEventSink([journal, leaks]))
/// // … drive the session, then end it …
/// print(leaks.leaks)   // what LeakDetector.leaks(in:) would find in the same events
/// ```
///
/// `@unchecked Sendable`: `scans` and `order` are touched only under `lock` (an `NSLock`,
/// which ThreadSanitizer sees, as in ``MemoryEventSink``).
public final class LeakScanSink: EventSink, @unchecked Sendable {
    private let lock = NSLock()
    private var scans: [String: SessionScan] = [:]
    /// Sessions in the order their first event arrived.
    private var order: [String] = []

    public init() {}

    public func record(_ event: Event) {
        lock.withLock {
            if scans[event.session] == nil {
                scans[event.session] = SessionScan(session: event.session)
                order.append(event.session)
            }
            scans[event.session]!.consume(event)
        }
    }

    /// The leaks in the events recorded so far, judging what is still alive now: the same
    /// as ``LeakDetector/leaks(in:)`` over those events.
    public var leaks: [LeakDetector.Leak] {
        lock.withLock {
            order.flatMap { session in
                var scan = scans[session]!
                return scan.finish()
            }
        }
    }
}
