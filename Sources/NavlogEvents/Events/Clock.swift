import Foundation

/// A source of the two times every event carries.
public protocol EventClock: Sendable {
    /// Returns the wall-clock time (ns since the Unix epoch) and the monotonic time (ns).
    func now() -> (wall: Int64, monotonic: UInt64)
}

/// The system's real-time and monotonic clocks (`clock_gettime`).
public struct SystemEventClock: EventClock {
    public init() {}

    public func now() -> (wall: Int64, monotonic: UInt64) {
        var wall = timespec()
        var monotonic = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        return (
            Int64(wall.tv_sec) * 1_000_000_000 + Int64(wall.tv_nsec),
            UInt64(monotonic.tv_sec) * 1_000_000_000 + UInt64(monotonic.tv_nsec)
        )
    }
}
