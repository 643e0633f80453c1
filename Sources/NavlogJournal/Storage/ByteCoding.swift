import NavlogEvents

// MARK: - Writing

/// Appends the compact binary forms the journal's blocks are made of.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends an unsigned LEB128 varint.
    mutating func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Appends a signed value as a zigzag varint.
    mutating func writeSigned(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Appends a length-prefixed UTF-8 string.
    mutating func writeString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            writeVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// Appends a JSON value in the journal's tagged binary form; object keys sorted.
    ///
    /// Tags: 0 null, 1 false, 2 true, 3 integer (zigzag), 4 double (IEEE bits), 5 string,
    /// 6 array (count, values), 7 object (count, sorted key/value pairs).
    mutating func writeJSON(_ value: JSONValue) {
        switch value {
        case .null: bytes.append(0)
        case .bool(let flag): bytes.append(flag ? 2 : 1)
        case .int(let integer):
            bytes.append(3)
            writeSigned(integer)
        case .double(let double):
            bytes.append(4)
            var bits = double.bitPattern
            for _ in 0..<8 {
                bytes.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
            }
        case .string(let string):
            bytes.append(5)
            writeString(string)
        case .array(let values):
            bytes.append(6)
            writeVarint(UInt64(values.count))
            for element in values { writeJSON(element) }
        case .object(let members):
            bytes.append(7)
            writeVarint(UInt64(members.count))
            if members.count == 1, let member = members.first {
                writeString(member.key)
                writeJSON(member.value)
            } else if members.count <= Self.smallObject {
                writeSorted(members)
            } else {
                for member in members.sorted(by: { $0.key < $1.key }) {
                    writeString(member.key)
                    writeJSON(member.value)
                }
            }
        }
    }
}

extension ByteWriter {
    /// Objects up to this many members are sorted in place by ``writeSorted(_:)``.
    static let smallObject = 24

    /// Writes the members of a small object in key order: an insertion sort of their
    /// dictionary indices on the stack, so no member is copied out and no array allocated (a
    /// `sorted` copy of the members was a third of the journal writer's time in the daemon).
    private mutating func writeSorted(_ members: [String: JSONValue]) {
        // One `keys` view: `members.keys` made (and retained) a new one at every use.
        let keys = members.keys
        withUnsafeTemporaryAllocation(of: Dictionary<String, JSONValue>.Index.self, capacity: members.count) { order in
            var count = 0
            var index = members.startIndex
            while index != members.endIndex {
                let key = keys[index]
                var slot = count
                while slot > 0 && key < keys[order[slot - 1]] {
                    slot -= 1
                }
                var move = count
                while move > slot {
                    (order.baseAddress! + move).initialize(to: (order.baseAddress! + move - 1).move())
                    move -= 1
                }
                (order.baseAddress! + slot).initialize(to: index)
                count += 1
                members.formIndex(after: &index)
            }
            for position in 0..<count {
                let member = members[order[position]]
                writeString(member.key)
                writeJSON(member.value)
            }
            _ = order.baseAddress!.deinitialize(count: count)
        }
    }
}

// MARK: - Reading

/// A malformed byte sequence inside an inflated block.
struct ByteReaderError: Error, CustomStringConvertible {
    var offset: Int
    var reason: String
    /// The bytes ended where more were needed: in a prefix of a block, more must be inflated.
    var isUnexpectedEnd = false
    var description: String { "malformed block content at byte \(offset): \(reason)" }
}

/// Reads what ``ByteWriter`` wrote, bounds-checked throughout.
struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func readByte() throws -> UInt8 {
        guard offset < bytes.count else { throw ByteReaderError(offset: offset, reason: "unexpected end", isUnexpectedEnd: true) }
        defer { offset += 1 }
        return bytes[offset]
    }

    @inline(__always)
    mutating func readVarint() throws -> UInt64 {
        // Most of a block's varints (deltas, ids, kinds) are one byte.
        if offset < bytes.count, bytes[offset] < 0x80 {
            defer { offset += 1 }
            return UInt64(bytes[offset])
        }
        return try readLongVarint()
    }

    private mutating func readLongVarint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte()
            guard shift < 64 else { throw ByteReaderError(offset: offset, reason: "varint too long") }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    mutating func readSigned() throws -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// Reads a count, rejecting one larger than the bytes left could hold.
    mutating func readCount() throws -> Int {
        let count = try readVarint()
        guard count <= UInt64(bytes.count - offset) else {
            throw ByteReaderError(offset: offset, reason: "count \(count) exceeds the remaining bytes")
        }
        return Int(count)
    }

    mutating func readBytes(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - offset else {
            throw ByteReaderError(offset: offset, reason: "length \(count) exceeds the remaining bytes")
        }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// Reads the eight little-endian bytes of a double's bit pattern.
    mutating func readDouble() throws -> Double {
        var bits: UInt64 = 0
        for (index, byte) in try readBytes(8).enumerated() { bits |= UInt64(byte) << (8 * UInt64(index)) }
        return Double(bitPattern: bits)
    }

    /// Moves past `count` bytes.
    mutating func skip(_ count: Int) throws {
        guard count >= 0, count <= bytes.count - offset else {
            throw ByteReaderError(offset: offset, reason: "length \(count) exceeds the remaining bytes")
        }
        offset += count
    }

    mutating func readString() throws -> String {
        readString(count: try readCount())
    }

    /// Reads `count` bytes (at most 15), which ``readCount()`` checked, as a string, through
    /// the cache's table of short strings.
    private mutating func readShortString(count: Int, cache: DecodedValueCache) -> String {
        let start = offset
        offset += count
        return bytes.withUnsafeBytes { all in cache.shortString(UnsafeRawBufferPointer(rebasing: all[start..<start + count])) }
    }

    /// Reads `count` bytes, which ``readCount()`` checked, as a string.
    private mutating func readString(count: Int) -> String {
        let start = offset
        offset += count
        // Straight from the buffer: a slice would retain and release the array per string.
        return bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<start + count]), as: UTF8.self)
        }
    }

    /// Reads one value. With a `cache`, a string too long to be stored inline comes from the
    /// cache when the same bytes were decoded before. (The caller looks up whole payloads,
    /// whose length it knows; looking up the arrays and objects inside them as well, which
    /// takes a pass to find where each ends, made reading slower, not faster.)
    mutating func readJSON(depth: Int = 0, cache: DecodedValueCache? = nil) throws -> JSONValue {
        guard depth < 512 else { throw ByteReaderError(offset: offset, reason: "nesting too deep") }
        let start = offset
        let tag = try readByte()
        switch tag {
        case 0: return .null
        case 1: return .bool(false)
        case 2: return .bool(true)
        case 3: return .int(try readSigned())
        case 4: return .double(try readDouble())
        case 5:
            let count = try readCount()
            guard let cache else { return .string(readString(count: count)) }
            if count <= 15 { return .string(readShortString(count: count, cache: cache)) }
            return try cached(start..<offset + count, in: cache) { .string($0.readString(count: count)) }
        case 6, 7:
            return try readComposite(tag, depth: depth, cache: cache)
        default:
            throw ByteReaderError(offset: offset - 1, reason: "unknown value tag \(tag)")
        }
    }

    /// Moves past one value without building it.
    mutating func skipJSON(depth: Int = 0) throws {
        guard depth < 512 else { throw ByteReaderError(offset: offset, reason: "nesting too deep") }
        let tag = try readByte()
        switch tag {
        case 0, 1, 2: return
        case 3: _ = try readVarint()
        case 4: try skip(8)
        case 5: try skip(try readCount())
        case 6:
            for _ in 0..<(try readCount()) { try skipJSON(depth: depth + 1) }
        case 7:
            for _ in 0..<(try readCount()) {
                try skip(try readCount())
                try skipJSON(depth: depth + 1)
            }
        default:
            throw ByteReaderError(offset: offset - 1, reason: "unknown value tag \(tag)")
        }
    }

    /// The value encoded at `range`: from `cache`, or read by `decode` and kept there. Leaves
    /// the reader at the end of the range either way.
    mutating func cached(_ range: Range<Int>, in cache: DecodedValueCache,
                         decode: (inout ByteReader) throws -> JSONValue) throws -> JSONValue {
        let (found, hash) = bytes.withUnsafeBytes { all -> (JSONValue?, UInt64) in
            let slice = UnsafeRawBufferPointer(rebasing: all[range])
            let hash = DecodedValueCache.hash(slice)
            return (cache.value(for: slice, hash: hash), hash)
        }
        if let found {
            offset = range.upperBound
            return found
        }
        let value = try decode(&self)
        guard offset == range.upperBound else {
            throw ByteReaderError(offset: offset, reason: "value at byte \(range.lowerBound) has the wrong length")
        }
        bytes.withUnsafeBytes { all in cache.offer(value, for: UnsafeRawBufferPointer(rebasing: all[range]), hash: hash) }
        return value
    }

    // MARK: Digests

    /// Reads one value; when it is an object, the members named in `digested` come as their
    /// ``JSONFingerprint/digest(_:)``, read without building them.
    mutating func readJSON(digesting digested: [String], cache: DecodedValueCache? = nil) throws -> JSONValue {
        guard offset < bytes.count, bytes[offset] == 7 else { return try readJSON(cache: cache) }
        offset += 1
        let count = try readCount()
        var members = [String: JSONValue](minimumCapacity: count)
        for _ in 0..<count {
            let key = try readKey(cache: cache)
            members[key] = digested.contains(key) ? try readDigest() : try readJSON(depth: 1, cache: cache)
        }
        return .object(members)
    }

    /// Reads one value as its ``JSONFingerprint/digest(_:)``.
    mutating func readDigest() throws -> JSONValue {
        var parts = SnapshotFingerprints.DigestParts(fingerprint: 0)
        try readDigest(into: &parts)
        return parts.digest
    }

    /// Reads one value as the parts of its ``JSONFingerprint/digest(_:)`` into `parts`, reusing
    /// their storage: an object as its members' key and value fingerprints, anything else as its
    /// fingerprint.
    mutating func readDigest(into parts: inout SnapshotFingerprints.DigestParts) throws {
        parts.members.removeAll(keepingCapacity: true)
        guard offset < bytes.count, bytes[offset] == 7 else {
            parts.isObject = false
            parts.fingerprint = try readFingerprint(depth: 1)
            return
        }
        offset += 1
        parts.isObject = true
        for _ in 0..<(try readCount()) {
            let key = try readStringFingerprint()
            parts.members.append((key, try readFingerprint(depth: 2)))
        }
    }

    /// Reads one value as its ``JSONFingerprint``, without building it: the same number as
    /// `JSONFingerprint.of(readJSON())`.
    mutating func readFingerprint(depth: Int = 0) throws -> UInt64 {
        guard depth < 512 else { throw ByteReaderError(offset: offset, reason: "nesting too deep") }
        let tag = try readByte()
        switch tag {
        case 0: return JSONFingerprint.null
        case 1: return JSONFingerprint.of(false)
        case 2: return JSONFingerprint.of(true)
        case 3: return JSONFingerprint.of(Double(try readSigned()))
        case 4: return JSONFingerprint.of(try readDouble())
        case 5:
            return try readStringFingerprint()
        case 6:
            let count = try readCount()
            var state = JSONFingerprint.arrayStart(count: count)
            for _ in 0..<count { state = JSONFingerprint.arrayStep(state, element: try readFingerprint(depth: depth + 1)) }
            return state
        case 7:
            let count = try readCount()
            var sum = JSONFingerprint.ObjectSum()
            for _ in 0..<count {
                let key = try readStringFingerprint()
                sum.add(key: key, value: try readFingerprint(depth: depth + 1))
            }
            return sum.fingerprint
        default:
            throw ByteReaderError(offset: offset - 1, reason: "unknown value tag \(tag)")
        }
    }

    /// Reads a length-prefixed string as its ``JSONFingerprint``.
    mutating func readStringFingerprint() throws -> UInt64 {
        let count = try readCount()
        let start = offset
        offset += count
        return bytes.withUnsafeBytes { all in Self.stringFingerprint(UnsafeRawBufferPointer(rebasing: all[start..<start + count])) }
    }

    /// The ``JSONFingerprint`` of the string whose UTF-8 bytes are `text`.
    static func stringFingerprint(_ text: UnsafeRawBufferPointer) -> UInt64 {
        JSONFingerprint.ofASCII(text) ?? JSONFingerprint.of(String(decoding: text, as: UTF8.self))
    }

    /// Reads an object key, short ones through the cache's table.
    private mutating func readKey(cache: DecodedValueCache?) throws -> String {
        let length = try readCount()
        if length <= 15, let cache { return readShortString(count: length, cache: cache) }
        return readString(count: length)
    }

    /// Reads the members of an array (tag 6) or object (tag 7) whose tag was just read.
    private mutating func readComposite(_ tag: UInt8, depth: Int, cache: DecodedValueCache?) throws -> JSONValue {
        let count = try readCount()
        if tag == 6 {
            var values: [JSONValue] = []
            values.reserveCapacity(count)
            for _ in 0..<count { values.append(try readJSON(depth: depth + 1, cache: cache)) }
            return .array(values)
        }
        var members = [String: JSONValue](minimumCapacity: count)
        for _ in 0..<count {
            let key = try readKey(cache: cache)
            members[key] = try readJSON(depth: depth + 1, cache: cache)
        }
        return .object(members)
    }
}
