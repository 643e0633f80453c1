import NavlogEvents

/// A seeded mutation fuzzer for tests: derives hostile inputs from valid seeds, the same ones
/// for the same seed on every machine.
///
/// ```swift
/// var mutator = Mutator(seed: 8)
/// for _ in 0..<3000 {
///     let input = mutator.mutate(seedText)
///     _ = try? ScenarioParser.parse(String(decoding: input, as: UTF8.self), source: "fuzz")
/// }
/// ```
public struct Mutator {
    private var state: UInt64

    /// Byte strings that tend to break parsers: delimiters, escapes, extreme numbers, deep nesting.
    public static let tokens: [[UInt8]] = [
        "\"", "\\", "{", "}", "[", "]", ":", ",", "null", "true", "-1", "0", "1e999", "-9223372036854775809",
        "18446744073709551616", "0.0000000000000000000001", "\\u0000", "\\ud800", "\u{0}", "\n", "\r\n", "\t",
        String(repeating: "[", count: 200), String(repeating: "{\"a\":", count: 100), String(repeating: "A", count: 5000),
        "é", "\u{202E}", "%00", "../", "//", "?", "#", "s-1", "%", "%zz",
    ].map { Array($0.utf8) }

    public init(seed: UInt64) {
        state = seed &+ SplitMix64.increment
    }

    /// The next pseudo-random number (SplitMix64).
    public mutating func next() -> UInt64 {
        state &+= SplitMix64.increment
        return SplitMix64.finalize(state)
    }

    /// A number in `0..<bound` (bound > 0).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }

    /// Returns `input` with 1 to 4 random mutations: bit flips, byte replacements, insertions
    /// of tokens or random bytes, deletions, duplications, or a splice of `others`.
    public mutating func mutate(_ input: [UInt8], splicing others: [[UInt8]] = []) -> [UInt8] {
        var bytes = input
        for _ in 0...below(4) {
            let position = below(bytes.count + 1)
            switch below(8) {
            case 0 where !bytes.isEmpty:
                bytes[min(position, bytes.count - 1)] ^= UInt8(1 << below(8))
            case 1 where !bytes.isEmpty:
                bytes[min(position, bytes.count - 1)] = UInt8(truncatingIfNeeded: next())
            case 2, 3:
                bytes.insert(contentsOf: Self.tokens[below(Self.tokens.count)], at: position)
            case 4:
                bytes.insert(contentsOf: (0..<1 + below(8)).map { _ in UInt8(truncatingIfNeeded: next()) }, at: position)
            case 5 where !bytes.isEmpty:
                let end = min(bytes.count, position + 1 + below(32))
                bytes.removeSubrange(min(position, bytes.count - 1)..<end)
            case 6 where !bytes.isEmpty:
                let start = min(position, bytes.count - 1)
                let end = min(bytes.count, start + 1 + below(64))
                bytes.insert(contentsOf: bytes[start..<end], at: below(bytes.count + 1))
            case 7 where !others.isEmpty:
                let other = others[below(others.count)]
                guard !other.isEmpty else { break }
                let start = below(other.count)
                bytes.insert(contentsOf: other[start..<min(other.count, start + 1 + below(128))], at: position)
            default:
                bytes.insert(UInt8(truncatingIfNeeded: next()), at: position)
            }
        }
        return bytes
    }

    /// Returns `input` with `count` random bytes overwritten in place (length kept), for binary
    /// formats whose length is checked elsewhere.
    public mutating func corrupt(_ input: [UInt8], count: Int) -> [UInt8] {
        var bytes = input
        guard !bytes.isEmpty else { return bytes }
        for _ in 0..<count {
            let index = below(bytes.count)
            bytes[index] = below(2) == 0 ? bytes[index] ^ UInt8(1 << below(8)) : UInt8(truncatingIfNeeded: next())
        }
        return bytes
    }
}
