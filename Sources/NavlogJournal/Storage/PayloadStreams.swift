import NavlogEvents

/// Splits a version-2 block's payloads into one stream per kind and member path, the way a
/// columnar file splits a record's fields, so that deflate sees every value of one field next
/// to the others of that field.
///
/// A payload goes to its kind's root stream. An object there (or in a member's stream, down to
/// ``shreddedDepth``) of at least ``smallestShredded`` encoded bytes is written as tag 8 and a
/// *shape*, the list of its members' streams, and each member's value goes on in the stream of
/// that member's name under this one. Anything else (scalars, arrays, small, wide or deep
/// objects) is written whole, in ``ByteWriter/writeJSON(_:)``'s tagged form.
///
/// On the bench workload this took the payloads from 5.6 to about 3.6 bytes/event: a view
/// model's snapshot repeats its field names and most of its values, and deflate's 32 KiB
/// window, which held only a few hundred whole snapshots, now holds thousands of one field.
///
/// Layout, after the block's columns (all integers varints):
/// - the number of streams, and for each: 0 and the kind id for a root stream, else its parent
///   stream's index + 1 (always a stream before it) and the member name (length, UTF-8);
/// - the number of shapes, and for each: its stream, its member count and their streams (each a
///   child of the shape's stream), in key order;
/// - each stream's length in bytes, then the streams' bytes one after the other.
struct PayloadShredder {
    /// Objects at this depth (the payload is depth 0) and below are written whole.
    static let shreddedDepth = 2
    /// Objects of fewer encoded bytes than this are written whole: `{"animated":true}` or
    /// `{"child":"DashboardCoordinator#1"}` gain little from being split, and whole they read
    /// through ``DecodedValueCache`` as one shared value instead of a dictionary built per
    /// event. On the bench workload 24 made the journal 1.4% smaller than 48 but `navlog
    /// report` 15–25% slower.
    static let smallestShredded = 48
    /// Objects with more members than this are written whole (they are maps, not records).
    static let widestObject = 64
    /// A block holds at most this many shapes; past it, objects are written whole.
    static let mostShapes = 4096

    private struct Stream {
        var parent: Int
        var kind: Int64
        var name: ArraySlice<UInt8>
        var bytes = ByteWriter(capacity: 256)
        /// The key signature and id of the last shape written here: most objects of one
        /// stream have the same members, and this spares hashing them.
        var lastSignature: [UInt8] = []
        var lastShape = -1
    }

    private struct ChildKey: Hashable {
        var parent: Int
        var name: [UInt8]
    }

    private struct ShapeKey: Hashable {
        var stream: Int
        var signature: [UInt8]
    }

    private var streams: [Stream] = []
    private var roots: [Int64: Int] = [:]
    private var children: [ChildKey: Int] = [:]
    private var shapes: [(stream: Int, members: [Int])] = []
    private var shapeIDs: [ShapeKey: Int] = [:]
    private var signature: [UInt8] = []

    /// How many streams and shapes the payloads so far made.
    var streamCount: Int { streams.count }
    var shapeCount: Int { shapes.count }

    /// Adds the next payload, `payload` being one value in ``ByteWriter/writeJSON(_:)``'s form.
    mutating func add(kind: Int64, payload: UnsafeRawBufferPointer) {
        let root: Int
        if let found = roots[kind] {
            root = found
        } else {
            root = streams.count
            streams.append(Stream(parent: -1, kind: kind, name: []))
            roots[kind] = root
        }
        shred(payload, 0..<payload.count, into: root, depth: 0)
    }

    /// Appends the directory and the streams to `writer`.
    func write(into writer: inout ByteWriter) {
        writer.writeVarint(UInt64(streams.count))
        for stream in streams {
            if stream.parent < 0 {
                writer.writeVarint(0)
                writer.writeVarint(UInt64(bitPattern: stream.kind))
            } else {
                writer.writeVarint(UInt64(stream.parent + 1))
                writer.writeVarint(UInt64(stream.name.count))
                writer.bytes.append(contentsOf: stream.name)
            }
        }
        writer.writeVarint(UInt64(shapes.count))
        for shape in shapes {
            writer.writeVarint(UInt64(shape.stream))
            writer.writeVarint(UInt64(shape.members.count))
            for member in shape.members { writer.writeVarint(UInt64(member)) }
        }
        for stream in streams { writer.writeVarint(UInt64(stream.bytes.bytes.count)) }
        for stream in streams { writer.bytes.append(contentsOf: stream.bytes.bytes) }
    }

    // MARK: - Shredding

    private mutating func shred(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, into stream: Int, depth: Int) {
        guard depth < Self.shreddedDepth, range.count >= Self.smallestShredded, bytes[range.lowerBound] == 7 else {
            streams[stream].bytes.bytes.append(contentsOf: bytes[range])
            return
        }
        var position = range.lowerBound + 1
        let count = Int(Self.varint(bytes, &position))
        guard count <= Self.widestObject else {
            streams[stream].bytes.bytes.append(contentsOf: bytes[range])
            return
        }
        withUnsafeTemporaryAllocation(of: (key: Range<Int>, value: Range<Int>).self, capacity: count) { members in
            signature.removeAll(keepingCapacity: true)
            for index in 0..<count {
                let keyStart = position
                let length = Int(Self.varint(bytes, &position))
                let key = position..<position + length
                signature.append(contentsOf: bytes[keyStart..<key.upperBound])
                position = key.upperBound
                let valueEnd = Self.end(of: bytes, at: position)
                members[index] = (key, position..<valueEnd)
                position = valueEnd
            }
            guard let shape = shape(in: stream, members: UnsafeBufferPointer(members), bytes) else {
                streams[stream].bytes.bytes.append(contentsOf: bytes[range])
                return
            }
            streams[stream].bytes.bytes.append(8)
            streams[stream].bytes.writeVarint(UInt64(shape))
            let memberStreams = shapes[shape].members
            for index in 0..<count {
                shred(bytes, members[index].value, into: memberStreams[index], depth: depth + 1)
            }
        }
    }

    /// The id of the shape with these members in `stream` (``signature`` holds their keys),
    /// made on first use; nil once the block has ``mostShapes``.
    private mutating func shape(in stream: Int, members: UnsafeBufferPointer<(key: Range<Int>, value: Range<Int>)>,
                                _ bytes: UnsafeRawBufferPointer) -> Int? {
        if streams[stream].lastShape >= 0, streams[stream].lastSignature == signature { return streams[stream].lastShape }
        let key = ShapeKey(stream: stream, signature: signature)
        let id: Int
        if let found = shapeIDs[key] {
            id = found
        } else {
            guard shapes.count < Self.mostShapes else { return nil }
            var memberStreams: [Int] = []
            memberStreams.reserveCapacity(members.count)
            for member in members {
                let name = Array(bytes[member.key])
                let child = ChildKey(parent: stream, name: name)
                if let found = children[child] {
                    memberStreams.append(found)
                } else {
                    children[child] = streams.count
                    memberStreams.append(streams.count)
                    streams.append(Stream(parent: stream, kind: streams[stream].kind, name: name[...]))
                }
            }
            id = shapes.count
            shapes.append((stream, memberStreams))
            shapeIDs[key] = id
        }
        streams[stream].lastSignature = signature
        streams[stream].lastShape = id
        return id
    }

    /// Reads a varint of bytes this block's own encoder wrote.
    private static func varint(_ bytes: UnsafeRawBufferPointer, _ position: inout Int) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    /// Where the value that starts at `start` ends.
    private static func end(of bytes: UnsafeRawBufferPointer, at start: Int) -> Int {
        var position = start + 1
        switch bytes[start] {
        case 3: _ = varint(bytes, &position)
        case 4: position += 8
        case 5: position += Int(varint(bytes, &position))
        case 6:
            let count = varint(bytes, &position)
            for _ in 0..<count { position = end(of: bytes, at: position) }
        case 7:
            let count = varint(bytes, &position)
            for _ in 0..<count {
                position += Int(varint(bytes, &position))
                position = end(of: bytes, at: position)
            }
        default: break
        }
        return position
    }
}

/// Reads the payloads ``PayloadShredder`` wrote, one event at a time, in the order it took them.
struct ShreddedPayloads {
    private var readers: [ByteReader] = []
    private var ends: [Int] = []
    private var names: [String] = []
    private var nameFingerprints: [UInt64] = []
    private var rootKinds: [Int64] = []
    private var roots: [Int64: Int] = [:]
    private var shapeStreams: [Int] = []
    private var shapeMembers: [[Int]] = []
    /// By root stream: whether its kind's payloads were skipped, leaving its streams unread.
    private var skippedRoots: [Bool] = []
    /// By stream: the index of its parent stream, -1 for a root.
    private var parents: [Int] = []
    /// By stream: the slot a projection puts its values in, for the members of the root
    /// streams of the kinds projected so far (``project(kind:_:index:projector:)``).
    private var slotOfStream: [InternedEvent.PayloadSlot?] = []
    /// By stream: whether it is a root whose members' slots are in ``slotOfStream``.
    private var projectedRoots: [Bool] = []
    /// By kind id below ``EventBlock/denseKindIDs``: its root stream + 1, 0 for none; an
    /// array, since a block's every payload looks its kind's root up.
    private var rootOfKind: [Int] = []

    /// Reads the directory at `reader`'s position and moves `reader` past the streams.
    init(_ reader: inout ByteReader) throws {
        let streamCount = try reader.readCount()
        for index in 0..<streamCount {
            let parent = try Self.readIndex(&reader, below: index + 1)
            if parent == 0 {
                let kind = Int64(bitPattern: try reader.readVarint())
                guard roots[kind] == nil else { throw ByteReaderError(offset: reader.offset, reason: "two payload streams for kind \(kind)") }
                roots[kind] = index
                if kind >= 0, kind < EventBlock.denseKindIDs {
                    if rootOfKind.count <= kind { rootOfKind += repeatElement(0, count: Int(kind) + 1 - rootOfKind.count) }
                    rootOfKind[Int(kind)] = index + 1
                }
                rootKinds.append(kind)
                names.append("")
                nameFingerprints.append(0)
            } else {
                rootKinds.append(rootKinds[parent - 1])
                let name = try reader.readString()
                names.append(name)
                nameFingerprints.append(JSONFingerprint.of(name))
            }
            parents.append(parent - 1)
        }
        skippedRoots = Array(repeating: false, count: streamCount)
        projectedRoots = Array(repeating: false, count: streamCount)
        let shapeCount = try reader.readCount()
        for _ in 0..<shapeCount {
            let stream = try Self.readIndex(&reader, below: streamCount)
            let memberCount = try reader.readCount()
            var members: [Int] = []
            members.reserveCapacity(memberCount)
            for _ in 0..<memberCount {
                let member = try Self.readIndex(&reader, below: streamCount)
                guard parents[member] == stream else {
                    throw ByteReaderError(offset: reader.offset, reason: "shape member \(member) is not a member of stream \(stream)")
                }
                members.append(member)
            }
            shapeStreams.append(stream)
            shapeMembers.append(members)
        }
        var lengths: [Int] = []
        for _ in 0..<streamCount { lengths.append(try reader.readCount()) }
        var start = reader.offset
        for length in lengths {
            guard length <= reader.bytes.count - start else {
                throw ByteReaderError(offset: start, reason: "payload stream of \(length) bytes exceeds the block")
            }
            readers.append(ByteReader(reader.bytes, offset: start))
            ends.append(start + length)
            start += length
        }
        try reader.skip(start - reader.offset)
    }

    /// Reads the next payload of kind `kind` as `reading` says (values when nil).
    mutating func read(kind: Int64, _ reading: EventBlock.PayloadReading?, cache: DecodedValueCache?) throws -> JSONValue {
        if case .skipped = reading {
            if let root = try? self.root(of: kind) { skippedRoots[root] = true }
            return .object([:])
        }
        let root = try self.root(of: kind)
        if case .digesting(let digested) = reading {
            guard let shape = try shape(in: root) else { return try readers[root].readJSON(digesting: digested, cache: cache) }
            var members = [String: JSONValue](minimumCapacity: shapeMembers[shape].count)
            for member in shapeMembers[shape] {
                members[names[member]] = digested.contains(names[member]) ? try digest(member) : try value(member, depth: 1, cache: cache)
            }
            return .object(members)
        }
        return try value(root, depth: 0, cache: cache)
    }

    /// Reads the next payload of kind `kind` as `projection` says, into event `index` of `projector`.
    mutating func project(kind: Int64, _ projection: PayloadProjection, index: Int, projector: inout PayloadProjector) throws {
        let root = try self.root(of: kind)
        if !projectedRoots[root] {
            projectedRoots[root] = true
            if slotOfStream.isEmpty { slotOfStream = Array(repeating: nil, count: readers.count) }
            for stream in parents.indices where parents[stream] == root {
                slotOfStream[stream] = Array(names[stream].utf8).withUnsafeBytes { projection.slot(named: $0) }
            }
        }
        guard let shape = try shape(in: root) else {
            try readers[root].project(projection, index: index, projector: &projector)
            return
        }
        var reading = projector.begin()
        for member in shapeMembers[shape] {
            guard let slot = slotOfStream[member] else {
                try skip(member, depth: 1)
                continue
            }
            switch slot {
            case .snapshot:
                try digest(member, into: &projector.snapshot)
                reading.hasSnapshot = true
            case .previous:
                try digest(member, into: &projector.previous)
                reading.hasPrevious = true
            default:
                if let shape = try self.shape(in: member) {
                    // An object: not a string, a list or a number.
                    for child in shapeMembers[shape] { try skip(child, depth: 2) }
                    reading.clear(slot)
                } else {
                    try readers[member].project(slot, into: &reading, projector: &projector)
                }
            }
        }
        projector.finish(reading, at: index, fingerprintsSnapshots: projection.fingerprintsSnapshots)
    }

    /// Moves past the next value of `stream`.
    private mutating func skip(_ stream: Int, depth: Int) throws {
        guard depth < 512 else { throw ByteReaderError(offset: readers[stream].offset, reason: "nesting too deep") }
        guard let shape = try shape(in: stream) else { return try readers[stream].skipJSON(depth: depth) }
        for member in shapeMembers[shape] { try skip(member, depth: depth + 1) }
    }

    /// The next value of `stream` as its digest (``digest(_:)``), into `parts`.
    private mutating func digest(_ stream: Int, into parts: inout SnapshotFingerprints.DigestParts) throws {
        guard let shape = try shape(in: stream) else { return try readers[stream].readDigest(into: &parts) }
        parts.members.removeAll(keepingCapacity: true)
        parts.isObject = true
        for member in shapeMembers[shape] {
            parts.members.append((nameFingerprints[member], try fingerprint(member, depth: 2)))
        }
    }

    /// Throws unless every stream that was read was read to its end.
    func finish() throws {
        for index in readers.indices where readers[index].offset != ends[index] && !skippedRoots[roots[rootKinds[index]] ?? index] {
            throw ByteReaderError(offset: readers[index].offset, reason: "payload stream \(index) does not end where its length says")
        }
    }

    /// The root stream of `kind`'s payloads.
    private func root(of kind: Int64) throws -> Int {
        if kind >= 0, kind < rootOfKind.count, rootOfKind[Int(kind)] > 0 { return rootOfKind[Int(kind)] - 1 }
        guard let root = roots[kind] else { throw ByteReaderError(offset: 0, reason: "no payload stream for kind \(kind)") }
        return root
    }

    /// Reads a varint that indexes a table of `count` entries.
    private static func readIndex(_ reader: inout ByteReader, below count: Int) throws -> Int {
        let value = try reader.readVarint()
        guard value < UInt64(count) else { throw ByteReaderError(offset: reader.offset, reason: "index \(value) is not below \(count)") }
        return Int(value)
    }

    // MARK: - Values

    /// The shape of the object that comes next in `stream`, read past; nil when a whole value comes next.
    private mutating func shape(in stream: Int) throws -> Int? {
        guard readers[stream].offset < ends[stream] else {
            throw ByteReaderError(offset: readers[stream].offset, reason: "payload stream \(stream) ends early")
        }
        guard readers[stream].bytes[readers[stream].offset] == 8 else { return nil }
        try readers[stream].skip(1)
        let shape = try Self.readIndex(&readers[stream], below: shapeStreams.count)
        guard shapeStreams[shape] == stream else {
            throw ByteReaderError(offset: readers[stream].offset, reason: "shape \(shape) does not belong to payload stream \(stream)")
        }
        return shape
    }

    private mutating func value(_ stream: Int, depth: Int, cache: DecodedValueCache?) throws -> JSONValue {
        guard depth < 512 else { throw ByteReaderError(offset: readers[stream].offset, reason: "nesting too deep") }
        if let shape = try shape(in: stream) {
            var members = [String: JSONValue](minimumCapacity: shapeMembers[shape].count)
            for member in shapeMembers[shape] { members[names[member]] = try value(member, depth: depth + 1, cache: cache) }
            return .object(members)
        }
        let start = readers[stream].offset
        let tag = readers[stream].bytes[start]
        // Whole payloads, and the arrays and objects inside them, through the cache as in
        // version 1: a view model's unchanged fields repeat from one snapshot to the next.
        if let cache, tag == 6 || tag == 7 || depth == 0 {
            var scan = readers[stream]
            try scan.skipJSON()
            let range = start..<scan.offset
            if range.count > 2, range.count <= DecodedValueCache.largestValue {
                return try readers[stream].cached(range, in: cache) { try $0.readJSON(depth: depth, cache: cache) }
            }
        }
        return try readers[stream].readJSON(depth: depth, cache: cache)
    }

    /// The next value of `stream` as ``JSONFingerprint/digest(_:)`` gives it.
    private mutating func digest(_ stream: Int) throws -> JSONValue {
        var parts = SnapshotFingerprints.DigestParts(fingerprint: 0)
        try digest(stream, into: &parts)
        return parts.digest
    }

    /// The next value of `stream` as its ``JSONFingerprint``.
    private mutating func fingerprint(_ stream: Int, depth: Int) throws -> UInt64 {
        guard depth < 512 else { throw ByteReaderError(offset: readers[stream].offset, reason: "nesting too deep") }
        guard let shape = try shape(in: stream) else { return try readers[stream].readFingerprint(depth: depth) }
        var sum = JSONFingerprint.ObjectSum()
        for member in shapeMembers[shape] {
            sum.add(key: nameFingerprints[member], value: try fingerprint(member, depth: depth + 1))
        }
        return sum.fingerprint
    }
}
