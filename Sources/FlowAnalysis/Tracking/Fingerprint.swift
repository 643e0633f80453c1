import Navigation

/// A 64-bit fingerprint of a JSON value's content, for telling snapshots apart quickly.
///
/// Equal values have equal fingerprints; different values collide with a chance of about
/// 2⁻⁶⁴ per pair. Objects combine their members order-independently, as they are unordered.
/// It is several times cheaper than `hashValue`, which seeds a fresh `Hasher` for every
/// dictionary member: churn detection takes two of these per view-model change.
enum Fingerprint {
    static func of(_ value: JSONValue) -> UInt64 {
        switch value {
        case .null: return 0x9E37_79B9_7F4A_7C15
        case .bool(let flag): return flag ? 0xD6E8_FEB8_6659_FD93 : 0xA076_1D64_78BD_642F
        // `==` takes an int and an integral double for the same number: fingerprint both
        // as the double, and 0.0 as -0.0.
        case .int(let number): return of(Double(number))
        case .double(let number): return of(number)
        case .string(let text): return of(text)
        case .array(let values):
            var state: UInt64 = 0x5899_65CC_7537_4CC3 ^ UInt64(values.count)
            for value in values { state = mix(state &* 0x1000_0000_01B3 ^ of(value)) }
            return state
        case .object(let members):
            var sum = ObjectSum()
            for (key, value) in members { sum.add(key, value) }
            return sum.fingerprint
        }
    }

    /// An object's fingerprint under construction: an order-independent sum of its members,
    /// so members can be taken out and put in again (a snapshot before a change is its
    /// snapshot after, with the changed fields put back).
    struct ObjectSum {
        private var sum: UInt64 = 0
        private var count: UInt64 = 0

        mutating func add(_ key: String, _ value: JSONValue) {
            sum &+= Fingerprint.member(key, value)
            count &+= 1
        }

        mutating func remove(_ key: String, _ value: JSONValue) {
            sum &-= Fingerprint.member(key, value)
            count &-= 1
        }

        var fingerprint: UInt64 { mix(sum ^ mix(count ^ 0x1D8E_4E27_C47D_124F)) }
    }

    private static func member(_ key: String, _ value: JSONValue) -> UInt64 {
        mix(of(key) &* 0x9FB2_1C65_1E98_DF25 ^ of(value))
    }

    static func of(_ number: Double) -> UInt64 {
        mix((number == 0 ? 0 : number.bitPattern) ^ 0x8EBC_6AF0_9C88_C6E3)
    }

    /// A hash of the UTF-8 bytes, eight at a time. Strings are equal when canonically
    /// equivalent, which bytes tell only for ASCII: others take the standard library's hash.
    static func of(_ text: String) -> UInt64 {
        let hash = text.utf8.withContiguousStorageIfAvailable { bytes -> UInt64? in
            var state: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
            var ascii: UInt64 = 0
            var index = 0
            let raw = UnsafeRawBufferPointer(bytes)
            while index + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                ascii |= word
                state = mix(state ^ word)
                index += 8
            }
            if index < bytes.count {
                var tail: UInt64 = 0
                for offset in index..<bytes.count { tail |= UInt64(bytes[offset]) << (8 * UInt64(offset - index)) }
                ascii |= tail
                state = mix(state ^ tail ^ 0xFF00_0000_0000_0000)
            }
            return ascii & 0x8080_8080_8080_8080 == 0 ? state : nil
        }
        if let hash = hash ?? nil { return hash }
        return mix(UInt64(bitPattern: Int64(text.hashValue)))
    }

    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 { SplitMix64.finalize(value) }
}
