import Foundation
import Navigation
import Synchronization

/// The clock of a hosted session: real time plus whatever the session skipped ahead.
///
/// A scripted `wait 2s` does not sleep: it moves this clock and the session's scheduler by two
/// seconds, so recorded dwell times mean what the script says and CI stays fast. A live
/// session never skips, and its clock is the system's.
public final class HostClock: EventClock {
    private let system = SystemEventClock()
    private let skipped = Atomic<UInt64>(0)

    public init() {}

    public func now() -> (wall: Int64, monotonic: UInt64) {
        let time = system.now()
        let offset = skipped.load(ordering: .relaxed)
        return (time.wall + Int64(offset), time.monotonic + offset)
    }

    /// Moves this clock ahead by `nanoseconds` without waiting.
    public func skip(_ nanoseconds: UInt64) {
        skipped.add(nanoseconds, ordering: .relaxed)
    }
}
