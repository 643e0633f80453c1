import NavlogEvents

/// A clock that moves 1 ms per reading from a fixed instant, so recorded times are stable.
public final class SteppingClock: EventClock, @unchecked Sendable {
    // Safe: each test reads it from one thread only (the test's own).
    private var ticks: Int64 = 0

    public init() {}

    public func now() -> (wall: Int64, monotonic: UInt64) {
        ticks += 1
        return (1_796_083_200_000_000_000 + ticks * 1_000_000, UInt64(ticks) * 1_000_000)
    }
}
