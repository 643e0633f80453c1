import NavlogEvents

/// One event with its strings replaced by ids: the unit a block stores.
struct StoredEvent: Equatable {
    var seq: UInt64
    var wallNanoseconds: Int64
    var monotonicNanoseconds: UInt64
    /// Row id in the `session` table.
    var session: Int64
    /// Row id in the `kind` table.
    var kind: Int64
    /// Ids in the `string` table; 0 stands for an absent optional.
    var sessionSeq: UInt64
    var subject: Int64
    var screen: Int64
    var cause: UInt64?
    var parent: Int64
    var payload: JSONValue
    /// `payload` already encoded (``ByteWriter/writeJSON(_:)``), when the writer has it so;
    /// ``EventBlock/encode(_:)`` then copies these bytes and ignores `payload`. Decoding never
    /// sets it.
    var encodedPayload: [UInt8]? = nil
}

/// The uncompressed layout of a block of events, column by column.
///
/// Layout (all integers varints): version (2; 1 is still read), count, first seq; then one
/// column at a time: seq deltas, wall-time deltas (zigzag), monotonic deltas minus wall deltas
/// (zigzag), session ids, kind ids, session-seq deltas per session (zigzag), subject ids and
/// screen ids (each through its session's recent ids, see ``RecentIDs``), parent ids, causes (0 for none, else 1 + zigzag(sessionSeq − cause)); then the payloads,
/// ordered by kind and then subject (stable), so successive snapshots of one view model come one
/// after the other, split into one stream per kind and member (see ``PayloadShredder``).
///
/// Version 1 wrote subject and screen ids as they are, and each payload whole, length-prefixed,
/// ordered by subject alone.
///
/// Why blocks and not preset dictionaries: on `scripts/bench` (400k events, 1631 sessions, 335-byte
/// average NDJSON line) the payloads cost 5.4 bytes/event deflated in blocks of 2048 grouped by
/// subject, against 58.4 bytes/event deflated one by one with `deflateSetDictionary` primed with
/// the previous payload of the same subject (per-stream overhead dominates). The whole journal
/// came to 16.5 bytes/event, 0.43x gzip -6 NDJSON (38.1).
enum EventBlock {
    /// The version this navlog writes.
    static let version: UInt8 = 2
    /// The versions it reads.
    static let readableVersions: ClosedRange<UInt8> = 1...2

    /// Returns the uncompressed bytes of `events`, which are in seq order, in block format
    /// `version` (tests write version 1 to check it is still read).
    static func encode(_ events: [StoredEvent], version: UInt8 = version) -> [UInt8] {
        // Through a buffer pointer: the column loops read fields in place, where `for event in
        // events` copied each event, retaining and releasing its payload, once per column.
        events.withUnsafeBufferPointer { events in
            var writer = ByteWriter(capacity: events.count * 96)
            writer.bytes.append(version)
            writer.writeVarint(UInt64(events.count))
            writer.writeVarint(events.first?.seq ?? 0)
            var previousSeq = events.first?.seq ?? 0
            for index in events.indices {
                writer.writeVarint(events[index].seq &- previousSeq)
                previousSeq = events[index].seq
            }
            var previousWall: Int64 = 0
            for index in events.indices {
                writer.writeSigned(events[index].wallNanoseconds &- previousWall)
                previousWall = events[index].wallNanoseconds
            }
            // Monotonic time advances with wall time: store how far its step differs from wall's.
            var previousMono: UInt64 = 0
            previousWall = 0
            for index in events.indices {
                let wallStep = events[index].wallNanoseconds &- previousWall
                writer.writeSigned(Int64(bitPattern: events[index].monotonicNanoseconds &- previousMono) &- wallStep)
                previousMono = events[index].monotonicNanoseconds
                previousWall = events[index].wallNanoseconds
            }
            for index in events.indices { writer.writeVarint(UInt64(events[index].session)) }
            for index in events.indices { writer.writeVarint(UInt64(events[index].kind)) }
            var lastSessionSeq = SessionSeqTable(capacity: events.count)
            for index in events.indices {
                let sessionSeq = events[index].sessionSeq
                lastSessionSeq.advance(events[index].session) { last in
                    writer.writeSigned(Int64(bitPattern: sessionSeq &- last))
                    return sessionSeq
                }
            }
            if version == 1 {
                for index in events.indices { writer.writeVarint(UInt64(events[index].subject)) }
                for index in events.indices { writer.writeVarint(UInt64(events[index].screen)) }
            } else {
                var subjects = RecentIDs(sessions: events.indices.map { events[$0].session })
                // Empty lists over the same session slots, which are worked out once.
                var screens = subjects
                for index in events.indices { writer.writeVarint(subjects.encode(events[index].subject, at: index)) }
                for index in events.indices { writer.writeVarint(screens.encode(events[index].screen, at: index)) }
            }
            for index in events.indices { writer.writeVarint(UInt64(events[index].parent)) }
            for index in events.indices {
                if let cause = events[index].cause {
                    writer.writeVarint(1 &+ UInt64(bitPattern: zigzag(Int64(bitPattern: events[index].sessionSeq &- cause))))
                } else {
                    writer.writeVarint(0)
                }
            }
            if version == 1 {
                writeWholePayloads(events, into: &writer)
                return writer.bytes
            }
            var shredder = PayloadShredder()
            var payload = ByteWriter(capacity: 512)
            for index in payloadOrder(kinds: events.indices.map { events[$0].kind }, subjects: events.indices.map { events[$0].subject }) {
                // Through the pointee: `events[index].payload` copied the whole event first.
                let event = UnsafePointer(events.baseAddress! + index)
                if let encoded = event.pointee.encodedPayload {
                    encoded.withUnsafeBytes { shredder.add(kind: event.pointee.kind, payload: $0) }
                    continue
                }
                payload.bytes.removeAll(keepingCapacity: true)
                payload.writeJSON(event.pointee.payload)
                payload.bytes.withUnsafeBytes { shredder.add(kind: event.pointee.kind, payload: $0) }
            }
            shredder.write(into: &writer)
            return writer.bytes
        }
    }

    /// Appends version 1's payloads: each whole and length-prefixed, in subject order.
    private static func writeWholePayloads(_ events: UnsafeBufferPointer<StoredEvent>, into writer: inout ByteWriter) {
        var payload = ByteWriter(capacity: 512)
        for index in payloadOrder(events.indices.map { events[$0].subject }) {
            let event = UnsafePointer(events.baseAddress! + index)
            if let encoded = event.pointee.encodedPayload {
                writer.writeVarint(UInt64(encoded.count))
                writer.bytes.append(contentsOf: encoded)
                continue
            }
            payload.bytes.removeAll(keepingCapacity: true)
            payload.writeJSON(event.pointee.payload)
            writer.writeVarint(UInt64(payload.bytes.count))
            writer.bytes.append(contentsOf: payload.bytes)
        }
    }

    /// Decodes bytes ``encode(_:)`` produced.
    static func decode(_ bytes: [UInt8]) throws -> [StoredEvent] {
        try decodeColumns(bytes).storedEvents
    }

    /// Decodes bytes ``encode(_:)`` produced into one array per field, as they are laid out;
    /// readers build their events from these without an intermediate event list.
    ///
    /// With a `cache`, payloads (and the long strings, arrays and objects inside them) whose
    /// bytes were decoded before, in this block or an earlier one, are shared rather than
    /// decoded again.
    ///
    /// With `plan`, payloads are read as it says for their event's kind id (see
    /// ``PayloadReading``); it is asked once per kind id in the block.
    ///
    /// What the plan reads by a ``PayloadReading/projecting(_:)`` goes to a projector of its
    /// own, which this throws away: a reader that projects gives its own to the variant below.
    static func decodeColumns(_ bytes: [UInt8], cache: DecodedValueCache? = nil,
                              plan: ((Int64) throws -> PayloadReading)? = nil) throws -> Columns {
        var projector = PayloadProjector()
        return try decodeColumns(bytes, cache: cache, plan: plan, projector: &projector)
    }

    /// ``decodeColumns(_:cache:plan:)``, with the payloads the plan reads by a
    /// ``PayloadReading/projecting(_:)`` decoded into `projector`.
    static func decodeColumns(_ bytes: [UInt8], cache: DecodedValueCache?, plan: ((Int64) throws -> PayloadReading)?,
                              projector: inout PayloadProjector) throws -> Columns {
        var reader = ByteReader(bytes)
        let version = try readVersion(&reader)
        let count = try reader.readCount()
        projector.start(count: count)
        var columns = Columns(count: count)
        let front = try readFront(&reader, count: count)
        columns.seq = front.seq
        columns.wall = front.wall
        columns.monotonic = front.monotonic
        columns.session = front.session
        columns.kind = front.kind
        var lastSessionSeq = SessionSeqTable(capacity: count)
        for index in 0..<count {
            let value = try lastSessionSeq.advance(columns.session[index]) { $0 &+ UInt64(bitPattern: try reader.readSigned()) }
            columns.sessionSeq[index] = value
        }
        if version == 1 {
            for index in 0..<count { columns.subject[index] = Int64(bitPattern: try reader.readVarint()) }
            for index in 0..<count { columns.screen[index] = Int64(bitPattern: try reader.readVarint()) }
        } else {
            var subjects = RecentIDs(sessions: columns.session)
            var screens = subjects
            for index in 0..<count { columns.subject[index] = try subjects.decode(try reader.readVarint(), at: index) }
            for index in 0..<count { columns.screen[index] = try screens.decode(try reader.readVarint(), at: index) }
        }
        for index in 0..<count { columns.parent[index] = Int64(bitPattern: try reader.readVarint()) }
        for index in 0..<count {
            let raw = try reader.readVarint()
            if raw > 0 {
                let distance = unzigzag(raw - 1)
                columns.cause[index] = columns.sessionSeq[index] &- UInt64(bitPattern: distance)
            }
        }
        // By kind id, as kind ids are small (a huge one, only in a damaged file, reads values).
        var planByKind: [PayloadReading?] = []
        if let plan, let largest = columns.kind.max(), largest < denseKindIDs, columns.kind.allSatisfy({ $0 >= 0 }) {
            planByKind = Array(repeating: nil, count: Int(largest) + 1)
            for kind in columns.kind where planByKind[Int(kind)] == nil { planByKind[Int(kind)] = try plan(kind) }
        }
        if version == 1 {
            try readWholePayloads(&reader, into: &columns, planByKind: planByKind, cache: cache, projector: &projector)
        } else {
            var payloads = try ShreddedPayloads(&reader)
            for index in payloadOrder(kinds: columns.kind, subjects: columns.subject) {
                let reading = planByKind.isEmpty ? nil : planByKind[Int(columns.kind[index])]
                if case .projecting(let projection) = reading {
                    try payloads.project(kind: columns.kind[index], projection, index: index, projector: &projector)
                    continue
                }
                columns.payload[index] = try payloads.read(kind: columns.kind[index], reading, cache: cache)
            }
            try payloads.finish()
        }
        guard reader.isAtEnd else { throw ByteReaderError(offset: reader.offset, reason: "trailing bytes") }
        return columns
    }

    /// Reads version 1's whole, length-prefixed payloads.
    private static func readWholePayloads(_ reader: inout ByteReader, into columns: inout Columns, planByKind: [PayloadReading?],
                                      cache: DecodedValueCache?, projector: inout PayloadProjector) throws {
        for index in payloadOrder(columns.subject) {
            let length = try reader.readCount()
            let end = reader.offset + length
            let reading = planByKind.isEmpty ? nil : planByKind[Int(columns.kind[index])]
            if case .projecting(let projection) = reading {
                try reader.project(projection, index: index, projector: &projector)
            } else if case .skipped = reading {
                try reader.skip(length)
                columns.payload[index] = .object([:])
            } else if case .digesting(let members) = reading {
                // Not through the cache of whole payloads: these are not the values themselves.
                columns.payload[index] = try reader.readJSON(digesting: members, cache: cache)
            } else if let cache, length > 2, length <= DecodedValueCache.largestValue {
                columns.payload[index] = try reader.cached(reader.offset..<end, in: cache) { try $0.readJSON(cache: cache) }
            } else {
                columns.payload[index] = try reader.readJSON(cache: cache)
            }
            guard reader.offset == end else {
                throw ByteReaderError(offset: reader.offset, reason: "payload of seq \(columns.seq[index]) has the wrong length")
            }
        }
    }

    /// The last session seq of each session in a block, for the session-seq column's deltas:
    /// a small open-addressing table, as a `Dictionary` hashes each of a block's thousands of
    /// lookups with a seeded hasher.
    struct SessionSeqTable {
        private var keys: [Int64]
        private var values: [UInt64]
        private var used: [Bool]
        private let mask: Int

        init(capacity: Int) {
            var size = 16
            while size < 2 * capacity { size <<= 1 }
            keys = Array(repeating: 0, count: size)
            values = Array(repeating: 0, count: size)
            used = Array(repeating: false, count: size)
            mask = size - 1
        }

        /// Replaces the last seq of `session` (0 when new) with what `next` makes of it, and
        /// returns the new one. Holds at most `capacity` sessions.
        @discardableResult
        mutating func advance(_ session: Int64, _ next: (UInt64) throws -> UInt64) rethrows -> UInt64 {
            var slot = Int(truncatingIfNeeded: (UInt64(bitPattern: session) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
            while used[slot], keys[slot] != session { slot = (slot + 1) & mask }
            let value = try next(used[slot] ? values[slot] : 0)
            keys[slot] = session
            values[slot] = value
            used[slot] = true
            return value
        }
    }

    /// Kind ids below this are looked up in arrays indexed by id; files hold a few dozen kinds,
    /// so a larger id only comes from a damaged file, and its payloads are read as values.
    static let denseKindIDs: Int64 = 4096

    /// How to read the payloads of one kind of event.
    enum PayloadReading: Equatable {
        /// As the values they are.
        case values
        /// With these members as their ``JSONFingerprint/digest(_:)``.
        case digesting([String])
        /// Not at all: the payload is left an empty object.
        case skipped
        /// Only these members, into the decoding's ``PayloadProjector``; the payload column
        /// holds `null`.
        case projecting(PayloadProjection)
    }

    /// A decoded block, one array per field (see ``StoredEvent`` for their meaning).
    struct Columns {
        let count: Int
        var seq: [UInt64]
        var wall: [Int64]
        var monotonic: [UInt64]
        var session: [Int64]
        var kind: [Int64]
        var sessionSeq: [UInt64]
        var subject: [Int64]
        var screen: [Int64]
        var parent: [Int64]
        var cause: [UInt64?]
        var payload: [JSONValue]

        init(count: Int) {
            self.count = count
            seq = Array(repeating: 0, count: count)
            wall = Array(repeating: 0, count: count)
            monotonic = Array(repeating: 0, count: count)
            session = Array(repeating: 0, count: count)
            kind = Array(repeating: 0, count: count)
            sessionSeq = Array(repeating: 0, count: count)
            subject = Array(repeating: 0, count: count)
            screen = Array(repeating: 0, count: count)
            parent = Array(repeating: 0, count: count)
            cause = Array(repeating: nil, count: count)
            payload = Array(repeating: .null, count: count)
        }

        var storedEvents: [StoredEvent] {
            (0..<count).map { index in
                StoredEvent(seq: seq[index], wallNanoseconds: wall[index], monotonicNanoseconds: monotonic[index],
                            session: session[index], kind: kind[index], sessionSeq: sessionSeq[index], subject: subject[index],
                            screen: screen[index], cause: cause[index], parent: parent[index], payload: payload[index])
            }
        }
    }

    /// Returns event indices ordered by kind id and then subject id, keeping seq order within
    /// a subject: version 2's payload order.
    static func payloadOrder(kinds: [Int64], subjects: [Int64]) -> [Int] {
        let bySubject = payloadOrder(subjects)
        guard let largest = kinds.max(), largest < denseKindIDs, kinds.allSatisfy({ $0 >= 0 }) else {
            // Kind ids this large come only from a damaged block.
            return bySubject.enumerated().sorted { left, right in
                kinds[left.element] != kinds[right.element] ? kinds[left.element] < kinds[right.element] : left.offset < right.offset
            }.map(\.element)
        }
        // A stable counting sort of the subject order by kind.
        var starts = [Int](repeating: 0, count: Int(largest) + 2)
        for kind in kinds { starts[Int(kind) + 1] += 1 }
        for index in 1..<starts.count { starts[index] += starts[index - 1] }
        var order = [Int](repeating: 0, count: kinds.count)
        for position in bySubject {
            let kind = Int(kinds[position])
            order[starts[kind]] = position
            starts[kind] += 1
        }
        return order
    }

    /// Returns event indices ordered by subject id, keeping seq order within a subject.
    static func payloadOrder(_ subjects: [Int64]) -> [Int] {
        guard let largest = subjects.max(), largest <= Int64(UInt32.max), subjects.allSatisfy({ $0 >= 0 }) else {
            // Ids outside 32 bits (only in a damaged block) take the general comparison.
            return subjects.indices.sorted { left, right in
                subjects[left] != subjects[right] ? subjects[left] < subjects[right] : left < right
            }
        }
        // A stable radix sort, 11 bits of the id per pass, lowest first: two passes cover the
        // ids of files of up to 4M strings, and stability keeps each subject's events in order.
        var order = Array(subjects.indices)
        var scratch = order
        let digitBits: Int64 = 11
        var shift: Int64 = 0
        var counts = [Int](repeating: 0, count: 1 << digitBits)
        let mask = (Int64(1) << digitBits) - 1
        repeat {
            for index in counts.indices { counts[index] = 0 }
            for subject in subjects { counts[Int((subject >> shift) & mask)] += 1 }
            var start = 0
            for index in counts.indices {
                let count = counts[index]
                counts[index] = start
                start += count
            }
            for position in order {
                let digit = Int((subjects[position] >> shift) & mask)
                scratch[counts[digit]] = position
                counts[digit] += 1
            }
            swap(&order, &scratch)
            shift += digitBits
        } while largest >> shift > 0
        return order
    }

    private static func zigzag(_ value: Int64) -> Int64 { (value << 1) ^ (value >> 63) }

    static func unzigzag(_ raw: UInt64) -> Int64 { Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1) }
}
