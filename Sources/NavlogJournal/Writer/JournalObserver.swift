import NavlogEvents

/// Watches the events a ``JournalWriter`` numbers, in seq order: the daemon's live stream.
///
/// The writer calls ``prepare(_:)`` on the recording thread before it takes its lock, so slow
/// work (redaction) runs there, then ``deliver(_:prepared:)`` with its lock held, right after it
/// gave the event its seq. Deliveries therefore follow seq order exactly, whichever thread
/// recorded, and a watcher that resumes from a seq misses nothing and repeats nothing.
public protocol JournalObserver: AnyObject, Sendable {
    /// Whether anyone is watching now: cheap (an atomic load), checked on every event. While
    /// it is false the writer neither prepares nor delivers, nor keeps a copy of the event.
    var isObserving: Bool { get }

    /// Returns the form of `event` to deliver (it has its run, but no seq yet), or nil when
    /// nobody is watching.
    func prepare(_ event: Event) -> Event?

    /// Takes `event`, now numbered, and `prepared`, what ``prepare(_:)`` returned for it, with
    /// the same seq. Runs with the writer's lock held: it must only enqueue, and returns the work
    /// to do once the lock is released (waking readers), if any.
    func deliver(_ event: Event, prepared: Event?) -> (@Sendable () -> Void)?
}
