import NavlogEvents

/// The payload members of one kind that a reader wants, and where each goes
/// (``InternedEvent/payloadSlots(of:)``): how `navlog report` reads payloads. The members are
/// decoded straight from a block's bytes into a ``ProjectedPayload``, strings as ids of a
/// ``PayloadStrings`` table, view-model snapshots as their fingerprints; the other members
/// are skipped, and no `JSONValue` is built.
struct PayloadProjection: Equatable {
    /// One member name of the vocabulary: its UTF-8 bytes in two little-endian words (names
    /// are at most 16 bytes), the name's length, and its slot.
    private struct Key: Equatable {
        var low: UInt64
        var high: UInt64
        var length: Int
        var slot: InternedEvent.PayloadSlot

        init(name: String, slot: InternedEvent.PayloadSlot) {
            let bytes = Array(name.utf8)
            precondition(bytes.count <= 16, "member names are at most 16 bytes")
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) { $0.copyBytes(from: bytes) }
            low = UInt64(littleEndian: words.0)
            high = UInt64(littleEndian: words.1)
            length = bytes.count
            self.slot = slot
        }
    }

    /// Every member any kind's projection takes (``InternedEvent/payloadSlots(of:)``): a
    /// projection is a set of them, so copying one for every event costs a word.
    private static let vocabulary: [Key] = {
        var keys: [Key] = []
        for kind in EventKind.allKnown {
            for member in InternedEvent.payloadSlots(of: kind) {
                let key = Key(name: member.key, slot: member.slot)
                if !keys.contains(key) { keys.append(key) }
            }
        }
        precondition(keys.count <= 32, "a projection's vocabulary holds at most 32 members")
        return keys
    }()

    /// The members taken, as bits of their places in ``vocabulary``.
    private let members: UInt32
    /// Whether it reads a view-model change's snapshots, whose fingerprints then go with its payload.
    let fingerprintsSnapshots: Bool

    /// The projection onto `members`, which are members of some kind's ``InternedEvent/payloadSlots(of:)``.
    init(_ members: [(key: String, slot: InternedEvent.PayloadSlot)]) {
        var bits: UInt32 = 0
        for member in members {
            let key = Key(name: member.key, slot: member.slot)
            guard let place = Self.vocabulary.firstIndex(of: key) else {
                preconditionFailure("\(member.key) is no kind's payload slot")
            }
            bits |= 1 << UInt32(place)
        }
        self.members = bits
        fingerprintsSnapshots = members.contains { $0.slot == .snapshot }
    }

    /// The slot of the member whose name is `name`; nil for a member not wanted.
    func slot(named name: UnsafeRawBufferPointer) -> InternedEvent.PayloadSlot? {
        guard name.count <= 16 else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: name) }
        let low = UInt64(littleEndian: words.0)
        let high = UInt64(littleEndian: words.1)
        var remaining = members
        while remaining != 0 {
            let place = remaining.trailingZeroBitCount
            remaining &= remaining - 1
            let key = Self.vocabulary[place]
            if key.length == name.count, key.low == low, key.high == high { return key.slot }
        }
        return nil
    }
}

/// What a ``PayloadProjection`` read of one payload: strings as ids of the decoder's
/// ``PayloadStrings``, -1 when absent or not a string.
struct ProjectedPayload {
    /// Whether the event's payload was projected (otherwise its `JSONValue` was read, or nothing).
    var isProjected = false
    var member: Int32 = -1
    var root: Int32 = -1
    var content: Int32 = -1
    var level: Int64?
    /// Where the event's lists start in ``PayloadProjector/lists``: `removed`, `bound`, then
    /// `changed`, each as long as its count says (-1: absent or not an array).
    var listStart: Int32 = 0
    var removedCount: Int32 = -1
    var boundCount: Int32 = -1
    var changedCount: Int32 = -1
    var fingerprints: SnapshotFingerprints?
}

/// A decoder's projected payloads: one ``ProjectedPayload`` per event of the block being
/// decoded, their lists, and the strings they name, which stay from block to block.
///
/// A value the decoder keeps and lends to one block's decoding at a time, so none of its
/// parts pays for the dynamic checks of a class's properties.
struct PayloadProjector {
    /// By event of the block: its projected payload; empty when the block projected none.
    private(set) var events: [ProjectedPayload] = []
    private(set) var lists: [Int32] = []
    /// The strings the payloads named, by id.
    private(set) var strings = PayloadStrings()
    private var blockCount = 0

    // Scratch space reused from one event to the next.
    private var removed: [Int32] = []
    private var bound: [Int32] = []
    private var changed: [Int32] = []
    var changedKeys: [UInt64] = []
    var snapshot = SnapshotFingerprints.DigestParts(fingerprint: 0)
    var previous = SnapshotFingerprints.DigestParts(fingerprint: 0)

    init() {}

    /// Gets ready for a block of `count` events.
    mutating func start(count: Int) {
        events.removeAll(keepingCapacity: true)
        lists.removeAll(keepingCapacity: true)
        blockCount = count
    }

    /// The id of the string whose UTF-8 bytes are `text`.
    mutating func stringID(_ text: UnsafeRawBufferPointer) -> Int32 {
        strings.id(of: text)
    }

    /// Swaps the scratch list of `slot` (`removed`, `bound` or `changed`) with `list`.
    mutating func swapList(_ slot: InternedEvent.PayloadSlot, with list: inout [Int32]) {
        switch slot {
        case .removed: swap(&removed, &list)
        case .bound: swap(&bound, &list)
        default: swap(&changed, &list)
        }
    }

    /// What one payload is being read into.
    struct Reading {
        var payload = ProjectedPayload()
        var hasRemoved = false
        var hasBound = false
        var hasChanged = false
        var hasSnapshot = false
        var hasPrevious = false

        /// Leaves out `slot`'s member, which is not of the form it takes.
        mutating func clear(_ slot: InternedEvent.PayloadSlot) {
            switch slot {
            case .member: payload.member = -1
            case .root: payload.root = -1
            case .content: payload.content = -1
            case .removed: hasRemoved = false
            case .bound: hasBound = false
            case .changed: hasChanged = false
            case .level: payload.level = nil
            case .snapshot: hasSnapshot = false
            case .previous: hasPrevious = false
            }
        }
    }

    /// Starts reading a payload. (Each list is emptied when its member is read; the changed
    /// fields' keys go into the fingerprints whether or not the member is there.)
    mutating func begin() -> Reading {
        changedKeys.removeAll(keepingCapacity: true)
        return Reading()
    }

    /// Stores what `reading` gathered as event `index`'s payload, with the fingerprints of its
    /// snapshots when the projection reads them (a view-model change's).
    mutating func finish(_ reading: Reading, at index: Int, fingerprintsSnapshots: Bool) {
        if events.isEmpty { events = Array(repeating: ProjectedPayload(), count: blockCount) }
        var payload = reading.payload
        payload.isProjected = true
        payload.listStart = Int32(lists.count)
        if reading.hasRemoved {
            payload.removedCount = Int32(removed.count)
            lists += removed
        }
        if reading.hasBound {
            payload.boundCount = Int32(bound.count)
            lists += bound
        }
        if reading.hasChanged {
            payload.changedCount = Int32(changed.count)
            lists += changed
        }
        if fingerprintsSnapshots {
            // As `InternedEvent.snapshotFingerprints(ofPayload:digested:)` works them out.
            payload.fingerprints = SnapshotFingerprints(snapshot: reading.hasSnapshot ? snapshot : nil,
                                                        previous: reading.hasPrevious ? previous : nil,
                                                        changedKeys: changedKeys)
        }
        events[index] = payload
    }
}

/// Strings by their UTF-8 bytes, each given the next id once: a decoder's table of the names
/// payloads hold, looked up by a hash of the bytes rather than by building a `String`.
struct PayloadStrings {
    private var bytes: [UInt8] = []
    /// By id: where its bytes start in `bytes`, and how many.
    private var ranges: [(start: Int, count: Int)] = []
    /// Open addressing: each slot holds an id + 1, or 0 when empty.
    private var slots: [Int32] = []
    private var hashes: [UInt64] = []
    /// By id: the string's ``JSONFingerprint``, worked out once when it is added. A view-model
    /// change's `changed` fields are keyed by it, and the same few field names come back in
    /// most changes of a journal.
    private var fingerprints: [UInt64] = []

    var count: Int { ranges.count }

    /// The ``JSONFingerprint`` of the string with id `id`.
    func fingerprint(_ id: Int32) -> UInt64 { fingerprints[Int(id)] }

    /// The id of the string whose UTF-8 bytes are `text`, added when new.
    mutating func id(of text: UnsafeRawBufferPointer) -> Int32 {
        if slots.isEmpty { slots = [Int32](repeating: 0, count: 1024) }
        let hash = DecodedValueCache.hash(text)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash >> 20) & mask
        while slots[slot] != 0 {
            let id = Int(slots[slot] - 1)
            if hashes[id] == hash, ranges[id].count == text.count,
                bytes.withUnsafeBytes({ UnsafeRawBufferPointer(rebasing: $0[ranges[id].start..<ranges[id].start + text.count]).elementsEqual(text) })
            {
                return Int32(id)
            }
            slot = (slot + 1) & mask
        }
        let id = Int32(ranges.count)
        ranges.append((bytes.count, text.count))
        hashes.append(hash)
        fingerprints.append(ByteReader.stringFingerprint(text))
        bytes.append(contentsOf: text)
        slots[slot] = id + 1
        if ranges.count * 2 > slots.count { grow() }
        return id
    }

    /// The string with id `id`.
    func string(_ id: Int32) -> String {
        let range = ranges[Int(id)]
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range.start..<range.start + range.count]), as: UTF8.self) }
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for id in hashes.indices {
            var slot = Int(truncatingIfNeeded: hashes[id] >> 20) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id + 1)
        }
    }
}

extension ByteReader {
    /// Reads one value where `slot` wants it, or moves past it when it is not of the form the
    /// slot takes (as ``InternedEvent/init(_:session:names:digestedSnapshots:)`` leaves out a
    /// member that is not a string, a list or an integer).
    mutating func project(_ slot: InternedEvent.PayloadSlot, into reading: inout PayloadProjector.Reading, projector: inout PayloadProjector) throws {
        guard offset < bytes.count else { throw ByteReaderError(offset: offset, reason: "unexpected end", isUnexpectedEnd: true) }
        let tag = bytes[offset]
        switch slot {
        case .member, .root, .content:
            let id: Int32 = tag == 5 ? try readStringID(&projector) : -1
            if tag != 5 { try skipJSON() }
            switch slot {
            case .member: reading.payload.member = id
            case .root: reading.payload.root = id
            default: reading.payload.content = id
            }
        case .removed, .bound, .changed:
            // The list's storage taken out of the projector while it fills, which the strings are in.
            var list: [Int32] = []
            projector.swapList(slot, with: &list)
            defer { projector.swapList(slot, with: &list) }
            let isList = try readList(into: &list, projector: &projector, keys: slot == .changed)
            switch slot {
            case .removed: reading.hasRemoved = isList
            case .bound: reading.hasBound = isList
            default: reading.hasChanged = isList
            }
        case .level:
            switch tag {
            case 3:
                offset += 1
                reading.payload.level = try readSigned()
            case 4:
                offset += 1
                reading.payload.level = JSONValue.double(try readDouble()).intValue
            default:
                try skipJSON()
                reading.payload.level = nil
            }
        case .snapshot:
            try readDigest(into: &projector.snapshot)
            reading.hasSnapshot = true
        case .previous:
            try readDigest(into: &projector.previous)
            reading.hasPrevious = true
        }
    }

    /// Reads a whole payload (not shredded) as `projection` says.
    mutating func project(_ projection: PayloadProjection, index: Int, projector: inout PayloadProjector) throws {
        var reading = projector.begin()
        guard offset < bytes.count, bytes[offset] == 7 else {
            try skipJSON()
            projector.finish(reading, at: index, fingerprintsSnapshots: projection.fingerprintsSnapshots)
            return
        }
        offset += 1
        for _ in 0..<(try readCount()) {
            let length = try readCount()
            let start = offset
            offset += length
            let slot = bytes.withUnsafeBytes { projection.slot(named: UnsafeRawBufferPointer(rebasing: $0[start..<start + length])) }
            if let slot { try project(slot, into: &reading, projector: &projector) } else { try skipJSON(depth: 1) }
        }
        projector.finish(reading, at: index, fingerprintsSnapshots: projection.fingerprintsSnapshots)
    }

    /// Reads a list of strings into `list` (its other elements left out) and returns true; for
    /// a value that is not an array, moves past it and returns false. With `keys`, the distinct
    /// ``JSONFingerprint``s of the strings go there too.
    private mutating func readList(into list: inout [Int32], projector: inout PayloadProjector, keys: Bool) throws -> Bool {
        list.removeAll(keepingCapacity: true)
        if keys { projector.changedKeys.removeAll(keepingCapacity: true) }
        guard bytes[offset] == 6 else {
            try skipJSON()
            return false
        }
        offset += 1
        for _ in 0..<(try readCount()) {
            guard offset < bytes.count, bytes[offset] == 5 else {
                try skipJSON(depth: 1)
                continue
            }
            let range = try readStringRange()
            let id = bytes.withUnsafeBytes { projector.stringID(UnsafeRawBufferPointer(rebasing: $0[range])) }
            list.append(id)
            if keys {
                let key = projector.strings.fingerprint(id)
                if !projector.changedKeys.contains(key) { projector.changedKeys.append(key) }
            }
        }
        return true
    }

    /// Reads a string value (its tag at `offset`) and returns where its UTF-8 bytes are.
    private mutating func readStringRange() throws -> Range<Int> {
        offset += 1
        let count = try readCount()
        defer { offset += count }
        return offset..<offset + count
    }

    /// Reads a string value (its tag at `offset`) as its id in the projector's strings.
    mutating func readStringID(_ projector: inout PayloadProjector) throws -> Int32 {
        let range = try readStringRange()
        return bytes.withUnsafeBytes { projector.stringID(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }
}
