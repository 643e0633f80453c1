import Navigation

/// SplitMix64: a small, fast, seedable generator, so the same seed walks the same way on every
/// machine and every Swift version (`SystemRandomNumberGenerator` cannot be seeded).
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= SplitMix64.increment
        return SplitMix64.finalize(state)
    }

    /// A uniform integer in `0..<bound`, without modulo bias.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int(truncatingIfNeeded: next(upperBound: UInt64(bound)))
    }
}
