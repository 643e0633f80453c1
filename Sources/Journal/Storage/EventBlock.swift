import Navigation

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
}

/// The uncompressed layout of a block of events, column by column.
///
/// Layout (all integers varints): version 1, count, first seq; then one column at a time: seq
/// deltas, wall-time deltas (zigzag), monotonic deltas minus wall deltas (zigzag), session ids, kind ids,
/// session-seq deltas per session (zigzag), subject ids, screen ids, parent ids, causes (0 for
/// none, else 1 + zigzag(sessionSeq − cause)); then the payloads, length-prefixed, ordered by
/// subject (stable), so successive snapshots of one view model sit next to each other and
/// deflate finds them within its 32 KiB window.
///
/// Why blocks and not preset dictionaries: on `scripts/bench` (400k events, 1631 sessions, 335-byte
/// average NDJSON line) the payloads cost 5.4 bytes/event deflated in blocks of 2048 grouped by
/// subject, against 58.4 bytes/event deflated one by one with `deflateSetDictionary` primed with
/// the previous payload of the same subject (per-stream overhead dominates). The whole journal
/// came to 16.5 bytes/event, 0.43x gzip -6 NDJSON (38.1).
enum EventBlock {
    static let version: UInt8 = 1

    /// Returns the uncompressed bytes of `events`, which are in seq order.
    static func encode(_ events: [StoredEvent]) -> [UInt8] {
        var writer = ByteWriter(capacity: events.count * 96)
        writer.bytes.append(version)
        writer.writeVarint(UInt64(events.count))
        writer.writeVarint(events.first?.seq ?? 0)
        var previousSeq = events.first?.seq ?? 0
        for event in events {
            writer.writeVarint(event.seq &- previousSeq)
            previousSeq = event.seq
        }
        var previousWall: Int64 = 0
        for event in events {
            writer.writeSigned(event.wallNanoseconds &- previousWall)
            previousWall = event.wallNanoseconds
        }
        // Monotonic time advances with wall time: store how far its step differs from wall's.
        var previousMono: UInt64 = 0
        previousWall = 0
        for event in events {
            let wallStep = event.wallNanoseconds &- previousWall
            writer.writeSigned(Int64(bitPattern: event.monotonicNanoseconds &- previousMono) &- wallStep)
            previousMono = event.monotonicNanoseconds
            previousWall = event.wallNanoseconds
        }
        for event in events { writer.writeVarint(UInt64(event.session)) }
        for event in events { writer.writeVarint(UInt64(event.kind)) }
        var lastSessionSeq: [Int64: UInt64] = [:]
        for event in events {
            writer.writeSigned(Int64(bitPattern: event.sessionSeq &- lastSessionSeq[event.session, default: 0]))
            lastSessionSeq[event.session] = event.sessionSeq
        }
        for event in events { writer.writeVarint(UInt64(event.subject)) }
        for event in events { writer.writeVarint(UInt64(event.screen)) }
        for event in events { writer.writeVarint(UInt64(event.parent)) }
        for event in events {
            if let cause = event.cause {
                writer.writeVarint(1 &+ UInt64(bitPattern: zigzag(Int64(bitPattern: event.sessionSeq &- cause))))
            } else {
                writer.writeVarint(0)
            }
        }
        var payload = ByteWriter(capacity: 512)
        for index in payloadOrder(events.map(\.subject)) {
            payload.bytes.removeAll(keepingCapacity: true)
            payload.writeJSON(events[index].payload)
            writer.writeVarint(UInt64(payload.bytes.count))
            writer.bytes.append(contentsOf: payload.bytes)
        }
        return writer.bytes
    }

    /// Decodes bytes ``encode(_:)`` produced.
    static func decode(_ bytes: [UInt8]) throws -> [StoredEvent] {
        var reader = ByteReader(bytes)
        let version = try reader.readByte()
        guard version == Self.version else {
            throw ByteReaderError(offset: 0, reason: "unknown block version \(version)")
        }
        let count = try reader.readCount()
        var seq = try reader.readVarint()
        var events = [StoredEvent](
            repeating: StoredEvent(seq: 0, wallNanoseconds: 0, monotonicNanoseconds: 0, session: 0, kind: 0,
                                   sessionSeq: 0, subject: 0, screen: 0, cause: nil, parent: 0, payload: .null),
            count: count)
        for index in 0..<count {
            seq &+= try reader.readVarint()
            events[index].seq = seq
        }
        var wall: Int64 = 0
        for index in 0..<count {
            wall &+= try reader.readSigned()
            events[index].wallNanoseconds = wall
        }
        var mono: UInt64 = 0
        var previousWall: Int64 = 0
        for index in 0..<count {
            let wallStep = events[index].wallNanoseconds &- previousWall
            mono &+= UInt64(bitPattern: try reader.readSigned() &+ wallStep)
            events[index].monotonicNanoseconds = mono
            previousWall = events[index].wallNanoseconds
        }
        for index in 0..<count { events[index].session = Int64(bitPattern: try reader.readVarint()) }
        for index in 0..<count { events[index].kind = Int64(bitPattern: try reader.readVarint()) }
        var lastSessionSeq: [Int64: UInt64] = [:]
        for index in 0..<count {
            let session = events[index].session
            let value = lastSessionSeq[session, default: 0] &+ UInt64(bitPattern: try reader.readSigned())
            events[index].sessionSeq = value
            lastSessionSeq[session] = value
        }
        for index in 0..<count { events[index].subject = Int64(bitPattern: try reader.readVarint()) }
        for index in 0..<count { events[index].screen = Int64(bitPattern: try reader.readVarint()) }
        for index in 0..<count { events[index].parent = Int64(bitPattern: try reader.readVarint()) }
        for index in 0..<count {
            let raw = try reader.readVarint()
            if raw > 0 {
                let distance = unzigzag(raw - 1)
                events[index].cause = events[index].sessionSeq &- UInt64(bitPattern: distance)
            }
        }
        for index in payloadOrder(events.map(\.subject)) {
            let length = try reader.readCount()
            let end = reader.offset + length
            events[index].payload = try reader.readJSON()
            guard reader.offset == end else {
                throw ByteReaderError(offset: reader.offset, reason: "payload of seq \(events[index].seq) has the wrong length")
            }
        }
        guard reader.isAtEnd else { throw ByteReaderError(offset: reader.offset, reason: "trailing bytes") }
        return events
    }

    /// Returns event indices ordered by subject id, keeping seq order within a subject.
    static func payloadOrder(_ subjects: [Int64]) -> [Int] {
        subjects.indices.sorted { left, right in
            subjects[left] != subjects[right] ? subjects[left] < subjects[right] : left < right
        }
    }

    private static func zigzag(_ value: Int64) -> Int64 { (value << 1) ^ (value >> 63) }

    private static func unzigzag(_ raw: UInt64) -> Int64 { Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1) }
}
