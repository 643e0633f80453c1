import Foundation
import NavlogEvents
import Synchronization

/// The clock of a hosted session: real time plus whatever the session skipped ahead.
///
/// A scripted `wait 2s` does not sleep: it moves this clock and the session's scheduler by two
/// seconds, so recorded dwell times mean what the script says and CI stays fast. A live
/// session never skips, and its clock is the system's.
public final class HostClock: EventClock {
    private let system = SystemEventClock()
    private let skipped = Atomic<UInt64>(0)

    /// Added to every host clock's wall time, in ns: fault tests set it to make the wall clock
    /// jump (`testing.wall_clock_offset_s` in `navlogd.json`). Monotonic time is untouched.
    public static let wallOffsetNanoseconds = Atomic<Int64>(0)

    public init() {}

    public func now() -> (wall: Int64, monotonic: UInt64) {
        let time = system.now()
        let offset = skipped.load(ordering: .relaxed)
        return (time.wall &+ Int64(offset) &+ Self.wallOffsetNanoseconds.load(ordering: .relaxed), time.monotonic + offset)
    }

    /// How far this clock has been moved ahead of the system's.
    public var skippedNanoseconds: UInt64 { skipped.load(ordering: .relaxed) }

    /// Moves this clock ahead by `nanoseconds` without waiting.
    public func skip(_ nanoseconds: UInt64) {
        skipped.add(nanoseconds, ordering: .relaxed)
    }
}
