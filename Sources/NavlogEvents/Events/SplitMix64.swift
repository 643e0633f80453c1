/// SplitMix64 (Steele, Lea and Flood): the seeded generator and finalizer shared by every
/// seeded walk, sample and content hash in navlog, so they stay one function. The state
/// advances by a fixed odd constant; the finalizer spreads every input bit over the output.
/// The same seed gives the same sequence on every machine and Swift version, which
/// `SystemRandomNumberGenerator` cannot promise.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// What the state advances by at each step (the golden ratio, as a 64-bit fraction).
    public static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= Self.increment
        return Self.finalize(state)
    }

    /// A uniform integer in `0..<bound`, without modulo bias.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int(truncatingIfNeeded: next(upperBound: UInt64(bound)))
    }

    /// A number in `0..<1`, uniformly (the top 53 bits of the next value).
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) / Double(UInt64(1) << 53)
    }

    /// The output function: a bijection of `value` with good avalanche.
    @inline(__always)
    public static func finalize(_ value: UInt64) -> UInt64 {
        var value = value
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
