/// A 64-bit fingerprint of a JSON value's content, for telling values apart quickly.
///
/// Equal values (by `JSONValue`'s `==`) have equal fingerprints; different values collide with
/// a chance of about 2⁻⁶⁴ per pair. Objects combine their members order-independently, as they
/// are unordered. It is several times cheaper than `hashValue`, which seeds a fresh `Hasher`
/// for every dictionary member.
///
/// Fingerprints are for comparing values within one process: a string that is not ASCII takes
/// the standard library's hash, whose seed changes from run to run.
///
/// The building blocks are public so that a reader of an encoded form (the journal's blocks)
/// can fingerprint a value without building it, and get the same number.
public enum JSONFingerprint {
    public static func of(_ value: JSONValue) -> UInt64 {
        switch value {
        case .null: return null
        case .bool(let flag): return of(flag)
        // `==` takes an int and an integral double for the same number: fingerprint both
        // as the double, and 0.0 as -0.0.
        case .int(let number): return of(Double(number))
        case .double(let number): return of(number)
        case .string(let text): return of(text)
        case .array(let values):
            var state = arrayStart(count: values.count)
            for value in values { state = arrayStep(state, element: of(value)) }
            return state
        case .object(let members):
            var sum = ObjectSum()
            for (key, value) in members { sum.add(key, value) }
            return sum.fingerprint
        }
    }

    /// The fingerprint of `null`.
    public static let null: UInt64 = 0x9E37_79B9_7F4A_7C15

    public static func of(_ flag: Bool) -> UInt64 { flag ? 0xD6E8_FEB8_6659_FD93 : 0xA076_1D64_78BD_642F }

    public static func of(_ number: Double) -> UInt64 {
        mix((number == 0 ? 0 : number.bitPattern) ^ 0x8EBC_6AF0_9C88_C6E3)
    }

    /// An array's fingerprint: start with its count, then step through its elements in order.
    public static func arrayStart(count: Int) -> UInt64 { 0x5899_65CC_7537_4CC3 ^ UInt64(count) }

    public static func arrayStep(_ state: UInt64, element: UInt64) -> UInt64 { mix(state &* 0x1000_0000_01B3 ^ element) }

    /// An object's fingerprint under construction: an order-independent sum of its members,
    /// so members can be taken out and put in again (a view model's snapshot before a change
    /// is its snapshot after, with the changed fields put back).
    public struct ObjectSum: Sendable {
        private var sum: UInt64 = 0
        private var count: UInt64 = 0

        public init() {}

        public mutating func add(_ key: String, _ value: JSONValue) {
            add(key: JSONFingerprint.of(key), value: JSONFingerprint.of(value))
        }

        public mutating func remove(_ key: String, _ value: JSONValue) {
            remove(key: JSONFingerprint.of(key), value: JSONFingerprint.of(value))
        }

        /// Adds a member by the fingerprints of its key and value.
        public mutating func add(key: UInt64, value: UInt64) {
            sum &+= JSONFingerprint.member(key: key, value: value)
            count &+= 1
        }

        /// Takes out a member by the fingerprints of its key and value.
        public mutating func remove(key: UInt64, value: UInt64) {
            sum &-= JSONFingerprint.member(key: key, value: value)
            count &-= 1
        }

        public var fingerprint: UInt64 { mix(sum ^ mix(count ^ 0x1D8E_4E27_C47D_124F)) }
    }

    private static func member(key: UInt64, value: UInt64) -> UInt64 {
        mix(key &* 0x9FB2_1C65_1E98_DF25 ^ value)
    }

    /// A hash of the UTF-8 bytes, eight at a time. Strings are equal when canonically
    /// equivalent, which bytes tell only for ASCII: others take the standard library's hash.
    public static func of(_ text: String) -> UInt64 {
        if let hash = text.utf8.withContiguousStorageIfAvailable({ ofASCII(UnsafeRawBufferPointer($0)) }), let hash {
            return hash
        }
        return mix(UInt64(bitPattern: Int64(text.hashValue)))
    }

    /// The fingerprint of the string whose UTF-8 bytes are `bytes`, when they are all ASCII;
    /// nil otherwise (then make the `String` and take ``of(_:)-(String)``).
    public static func ofASCII(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        // A multiply and a shift per word, and one full mix at the end: the words of a string
        // need to be told apart, not each spread over all 64 bits.
        var state: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
        var ascii: UInt64 = 0
        var index = 0
        while index + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            ascii |= word
            state = (state ^ word) &* 0x9FB2_1C65_1E98_DF25
            state ^= state >> 29
            index += 8
        }
        if index < bytes.count {
            var tail: UInt64 = 0
            if bytes.count >= 8 {
                // The last eight bytes, shifted past those already read.
                tail = bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self) >> (8 * UInt64(index + 8 - bytes.count))
            } else {
                for offset in index..<bytes.count { tail |= UInt64(bytes[offset]) << (8 * UInt64(offset - index)) }
            }
            ascii |= tail
            state = (state ^ tail ^ 0xFF00_0000_0000_0000) &* 0x9FB2_1C65_1E98_DF25
        }
        return ascii & 0x8080_8080_8080_8080 == 0 ? mix(state) : nil
    }

    // MARK: - Digests

    /// `value` with its content replaced by fingerprints, one level down, as plain integers
    /// (bit patterns): an object becomes `.array` of its members' key and value fingerprints,
    /// `[key₁, value₁, key₂, value₂, …]` in key order; anything else becomes `.int` of its
    /// fingerprint.
    ///
    /// A reader that needs only to tell snapshots apart (the report's churn) asks the journal
    /// for this form of a payload member instead of the member itself: it is far cheaper to
    /// read, and ``ObjectSum`` rebuilds the object's fingerprint from it, also with members
    /// swapped (see ``Digest``).
    public static func digest(_ value: JSONValue) -> JSONValue {
        guard case .object(let members) = value else { return .int(Int64(bitPattern: of(value))) }
        var pairs: [JSONValue] = []
        pairs.reserveCapacity(2 * members.count)
        for (key, member) in members.sorted(by: { $0.key < $1.key }) {
            pairs.append(.int(Int64(bitPattern: of(key))))
            pairs.append(.int(Int64(bitPattern: of(member))))
        }
        return .array(pairs)
    }

    /// Reads a ``digest(_:)``.
    public enum Digest: Sendable {
        /// An object's members: key and value fingerprints, in pairs.
        case object([JSONValue])
        /// Any other value's fingerprint.
        case value(UInt64)

        /// The digest `digest` holds, or nil when it is not one.
        public init?(_ digest: JSONValue) {
            switch digest {
            case .int(let bits): self = .value(UInt64(bitPattern: bits))
            case .array(let pairs) where pairs.count % 2 == 0: self = .object(pairs)
            default: return nil
            }
        }

        /// The fingerprint of the value: for an object, its members' sum (to take members out
        /// of and put back in).
        public var sum: ObjectSum? {
            guard case .object = self else { return nil }
            var sum = ObjectSum()
            forEachMember { sum.add(key: $0, value: $1) }
            return sum
        }

        /// The fingerprint of the whole value.
        public var fingerprint: UInt64 {
            switch self {
            case .value(let fingerprint): fingerprint
            case .object: sum?.fingerprint ?? JSONFingerprint.null
            }
        }

        /// The fingerprint of the member whose key has fingerprint `key`; nil when the value
        /// is not an object or has no such member.
        public func member(key: UInt64) -> UInt64? {
            var found: UInt64?
            forEachMember { if found == nil, $0 == key { found = $1 } }
            return found
        }

        /// Calls `body` with the key and value fingerprints of each member of an object, in
        /// key order; nothing for another value.
        public func forEachMember(_ body: (_ key: UInt64, _ value: UInt64) -> Void) {
            guard case .object(let pairs) = self else { return }
            var index = 0
            while index + 1 < pairs.count {
                body(Self.bits(pairs[index]), Self.bits(pairs[index + 1]))
                index += 2
            }
        }

        private static func bits(_ value: JSONValue) -> UInt64 {
            if case .int(let bits) = value { return UInt64(bitPattern: bits) }
            return JSONFingerprint.of(value)
        }
    }

    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 { SplitMix64.finalize(value) }
}
