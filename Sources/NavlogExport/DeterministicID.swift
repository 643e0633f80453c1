import NavlogEvents

/// Trace and span ids derived from names, so two exports of the same journal give the same ids
/// and a batch export and a live push of one session agree.
///
/// The hash is FNV-1a (64 bit) followed by the SplitMix64 finalizer, computed over the UTF-8
/// bytes of the parts joined by NUL. It is stable across processes and platforms, unlike
/// Swift's `Hasher`, which is seeded per process. Ids are lowercase hex, as OTLP/JSON wants.
///
/// ```swift
/// DeterministicID.traceID(run: "r-1", session: "s-3")                          // 32 hex digits
/// DeterministicID.spanID(run: "r-1", session: "s-3", subject: "DetailCoordinator#2")  // 16
/// ```
public enum DeterministicID {
    /// Returns the 16-byte trace id of a session, as 32 hex digits.
    public static func traceID(run: String, session: String) -> String {
        let parts = [run, session]
        return hex(hash(parts, seed: 0x7472_6163_6520_6869)) + hex(hash(parts, seed: 0x7472_6163_6520_6c6f))
    }

    /// Returns the 8-byte span id of one instance (a coordinator, a screen) in a session, as
    /// 16 hex digits.
    public static func spanID(run: String, session: String, subject: String) -> String {
        hex(hash([run, session, subject], seed: 0x7370_616e_2069_6421))
    }

    /// Returns the span id of the session's own root span.
    public static func sessionSpanID(run: String, session: String) -> String {
        // A NUL-prefixed subject cannot collide with an instance name.
        spanID(run: run, session: session, subject: "\u{0}session")
    }

    // MARK: - Hashing

    /// FNV-1a over the parts joined by NUL, mixed with `seed`, then finalized; never zero, since
    /// OTLP reads an all-zero id as "no id".
    static func hash(_ parts: [String], seed: UInt64) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
        for (index, part) in parts.enumerated() {
            // The NUL separator: FNV-1a of the byte 0.
            if index > 0 { value = value &* 0x0000_0100_0000_01b3 }
            for byte in part.utf8 {
                value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        // SplitMix64's finalizer spreads FNV's weak low bits over the whole word.
        value = SplitMix64.finalize(value)
        return value == 0 ? 1 : value
    }

    /// Returns `value` as 16 lowercase hex digits.
    static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
