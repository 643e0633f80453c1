/// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), in plain Swift.
///
/// navlog hashes private values with a per-journal key before they are stored; these are the
/// only cryptographic primitives it needs, so it carries them instead of a library. Checked
/// against the NIST examples and the RFC 4231 test vectors (`NavlogRuntimeTests.PrivacyTests`).
public struct SHA256: Sendable {
    /// The digest length in bytes.
    public static let digestByteCount = 32
    /// The block length in bytes.
    public static let blockByteCount = 64

    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    private var state: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
    private var buffer: [UInt8] = []
    private var totalByteCount: UInt64 = 0

    public init() {
        buffer.reserveCapacity(Self.blockByteCount)
    }

    /// Returns the digest of `bytes`.
    public static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Adds `bytes` to the message.
    public mutating func update<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        for byte in bytes {
            buffer.append(byte)
            totalByteCount &+= 1
            if buffer.count == Self.blockByteCount {
                compress(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Pads the message and returns its digest; the hasher is spent afterwards.
    public mutating func finalize() -> [UInt8] {
        let bitCount = totalByteCount &* 8
        var padding: [UInt8] = [0x80]
        let used = (buffer.count + 1) % Self.blockByteCount
        padding += [UInt8](repeating: 0, count: (used <= 56 ? 56 - used : 120 - used))
        for shift in stride(from: 56, through: 0, by: -8) { padding.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift))) }
        let savedCount = totalByteCount
        update(padding)
        totalByteCount = savedCount
        var digest: [UInt8] = []
        digest.reserveCapacity(Self.digestByteCount)
        for word in state {
            digest += [UInt8(truncatingIfNeeded: word >> 24), UInt8(truncatingIfNeeded: word >> 16),
                       UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
        }
        return digest
    }

    private mutating func compress(_ block: [UInt8]) {
        var schedule = [UInt32](repeating: 0, count: 64)
        for index in 0..<16 {
            schedule[index] = UInt32(block[index * 4]) << 24 | UInt32(block[index * 4 + 1]) << 16
                | UInt32(block[index * 4 + 2]) << 8 | UInt32(block[index * 4 + 3])
        }
        for index in 16..<64 {
            let s0 = rotate(schedule[index - 15], 7) ^ rotate(schedule[index - 15], 18) ^ (schedule[index - 15] >> 3)
            let s1 = rotate(schedule[index - 2], 17) ^ rotate(schedule[index - 2], 19) ^ (schedule[index - 2] >> 10)
            schedule[index] = schedule[index - 16] &+ s0 &+ schedule[index - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for index in 0..<64 {
            let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
            let choice = (e & f) ^ (~e & g)
            let first = h &+ s1 &+ choice &+ Self.roundConstants[index] &+ schedule[index]
            let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let second = s0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ first, c, b, a, first &+ second)
        }
        state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
        state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
    }

    private func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { (value >> count) | (value << (32 - count)) }
}

/// HMAC-SHA256 (RFC 2104): a keyed hash, so equal values give equal tags under one key and
/// nobody without the key can test a guess against a tag.
public struct HMACSHA256: Sendable {
    private let innerPad: [UInt8]
    private let outerPad: [UInt8]

    /// Prepares the pads for `key`; a key longer than a block is hashed first.
    public init(key: [UInt8]) {
        var block = key.count > SHA256.blockByteCount ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: SHA256.blockByteCount - block.count)
        innerPad = block.map { $0 ^ 0x36 }
        outerPad = block.map { $0 ^ 0x5c }
    }

    /// Returns the 32-byte tag of `message`.
    public func authenticationCode<Bytes: Sequence<UInt8>>(for message: Bytes) -> [UInt8] {
        var inner = SHA256()
        inner.update(innerPad)
        inner.update(message)
        var outer = SHA256()
        outer.update(outerPad)
        outer.update(inner.finalize())
        return outer.finalize()
    }
}

extension Array where Element == UInt8 {
    /// The bytes as lowercase hexadecimal.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(count * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Parses lowercase or uppercase hexadecimal; nil for anything else.
    public init?(hexString: String) {
        let utf8 = Array(hexString.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func nibble(_ character: UInt8) -> UInt8? {
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self = bytes
    }
}
