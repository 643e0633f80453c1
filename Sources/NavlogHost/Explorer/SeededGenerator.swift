import NavlogEvents

/// The explorer's seeded generator: ``Navigation/SplitMix64``, so the same seed walks the same
/// way on every machine and every Swift version (`SystemRandomNumberGenerator` cannot be
/// seeded). The name stays for callers of ``Explorer/availableMoves(in:generator:)``.
public typealias SeededGenerator = SplitMix64
