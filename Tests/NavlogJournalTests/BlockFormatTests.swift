import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

/// Block format 2 (payloads split into streams, subject and screen ids through each session's
/// recent ids) against format 1: the same events back, the same digests, damage refused, and
/// files an older navlog wrote still read.
final class BlockFormatTests: XCTestCase {
    private let texts = ["", "a", "title", "items", "Dashboard pending review", "é", "e\u{301}", "日本語のテキスト", "exactly-15-byte", "sixteen-bytes-xx"]

    /// A random value that reaches every branch of the shredder: records big enough to split,
    /// small ones kept whole, objects nested past the split depth, maps wider than a record,
    /// arrays of objects, scalars of every kind, and a key set drawn per value so that shapes
    /// vary (and, in a big block, run past the shape limit).
    private func randomPayload(_ generator: inout SplitMix64, depth: Int = 0, keySalt: Int) -> JSONValue {
        switch generator.below(depth == 0 ? 10 : (depth < 4 ? 12 : 7)) {
        case 0: return .null
        case 1: return .bool(generator.below(2) == 0)
        case 2: return .int(Int64(generator.below(2_000_001)) - 1_000_000)
        case 3: return [.double(1.5), .double(-0.0), .double(0.0), .double(3.0), .double(-2.25e300)][generator.below(5)]
        case 4, 5: return .string(texts[generator.below(texts.count)])
        case 6: return .array((0..<generator.below(5)).map { _ in randomPayload(&generator, depth: depth + 1, keySalt: keySalt) })
        case 7:
            // A map: more members than a record has.
            var members: [String: JSONValue] = [:]
            for index in 0..<(PayloadShredder.widestObject + generator.below(10)) { members["k\(index)"] = .int(Int64(index)) }
            return .object(members)
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<generator.below(9) {
                let key = generator.below(4) == 0 ? "field\(keySalt % 5000)" : texts[generator.below(texts.count)]
                members[key] = randomPayload(&generator, depth: depth + 1, keySalt: keySalt)
            }
            return .object(members)
        }
    }

    /// Events of `sessions` interleaved sessions, each using more subjects and screens than a
    /// session's list of recent ids holds.
    private func makeStored(count: Int, sessions: Int, seed: UInt64) -> [StoredEvent] {
        var generator = SplitMix64(seed: seed)
        var sessionSeqs = [UInt64](repeating: 0, count: sessions)
        return (0..<count).map { index in
            let session = generator.below(sessions)
            sessionSeqs[session] += 1
            let payload: JSONValue = generator.below(3) == 0
                ? ["viewmodel": "MasterViewModel", "changed": ["title"],
                   "snapshot": ["title": .string("Item \(generator.below(7))"), "items": ["a", "b", .string(texts[generator.below(texts.count)])],
                                "count": .int(Int64(generator.below(3))), "isLoading": .bool(generator.below(2) == 0)]]
                : randomPayload(&generator, keySalt: index)
            return StoredEvent(
                seq: UInt64(index + 1), wallNanoseconds: Int64(index) * 1_000_003, monotonicNanoseconds: UInt64(index) * 999_999,
                session: Int64(session + 1), kind: Int64(1 + generator.below(6)), sessionSeq: sessionSeqs[session],
                subject: Int64(1 + session * 100 + generator.below(24)), screen: generator.below(4) == 0 ? 0 : Int64(5000 + generator.below(20)),
                cause: generator.below(2) == 0 ? nil : sessionSeqs[session] - UInt64(generator.below(Int(sessionSeqs[session]))),
                parent: Int64(generator.below(3)), payload: payload)
        }
    }

    private func encoded(_ value: JSONValue) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeJSON(value)
        return writer.bytes
    }

    func testBothFormatsGiveBackTheEventsTheyWereGiven() throws {
        for (count, sessions, seed) in [(0, 1, 1), (1, 1, 2), (300, 3, 3), (5000, 40, 4)] as [(Int, Int, UInt64)] {
            let stored = makeStored(count: count, sessions: sessions, seed: seed)
            for version: UInt8 in [1, 2] {
                let block = EventBlock.encode(stored, version: version)
                XCTAssertEqual(block.first, version)
                XCTAssertEqual(try EventBlock.decode(block), stored, "format \(version), \(count) events")
                XCTAssertEqual(try EventBlock.decodeColumns(block, cache: DecodedValueCache()).storedEvents, stored, "format \(version), cached")
            }
        }
    }

    func testTheShredderSplitsRecordsAndRunsPastItsShapeLimit() throws {
        // Snapshots of one view model: one shape, and a stream per field, whatever their number.
        var shredder = PayloadShredder()
        let stored = makeStored(count: 3000, sessions: 20, seed: 9).filter { $0.payload["viewmodel"] != nil }
        for event in stored { encoded(event.payload).withUnsafeBytes { shredder.add(kind: 1, payload: $0) } }
        XCTAssertEqual(shredder.shapeCount, 2, "the payload's members, and the snapshot's")
        XCTAssertEqual(shredder.streamCount, 1 + 3 + 4, "the root, viewmodel/changed/snapshot, and the snapshot's four fields")

        // Records whose keys differ every time: past the limit, objects are kept whole, and
        // everything reads back.
        let varied = (0..<(PayloadShredder.mostShapes + 500)).map { index -> StoredEvent in
            let payload: JSONValue = .object(["field\(index)": .int(Int64(index)), "title": .string("Dashboard pending review, a title long enough to split")])
            return StoredEvent(seq: UInt64(index + 1), wallNanoseconds: Int64(index), monotonicNanoseconds: UInt64(index), session: 1, kind: 1,
                        sessionSeq: UInt64(index + 1), subject: Int64(index % 9 + 1), screen: 0, cause: nil, parent: 0,
                        payload: payload)
        }
        shredder = PayloadShredder()
        for event in varied { encoded(event.payload).withUnsafeBytes { shredder.add(kind: 1, payload: $0) } }
        XCTAssertEqual(shredder.shapeCount, PayloadShredder.mostShapes)
        XCTAssertEqual(try EventBlock.decode(EventBlock.encode(varied)), varied)

        // The same payloads, handed over already encoded as the journal writer does, make the same block.
        let mixed = makeStored(count: 2000, sessions: 10, seed: 10)
        let preencoded = mixed.map { event -> StoredEvent in
            var event = event
            event.encodedPayload = encoded(event.payload)
            event.payload = .null
            return event
        }
        XCTAssertEqual(EventBlock.encode(preencoded), EventBlock.encode(mixed))
    }

    func testDigestsAndSkippedKindsReadTheSameFromBothFormats() throws {
        let stored = makeStored(count: 3000, sessions: 20, seed: 12)
        let plan: (Int64) -> EventBlock.PayloadReading = { [1: .digesting(["snapshot", "items", "title"]), 2: .skipped][$0] ?? .values }
        let old = try EventBlock.decodeColumns(EventBlock.encode(stored, version: 1), cache: DecodedValueCache(), plan: plan)
        let new = try EventBlock.decodeColumns(EventBlock.encode(stored, version: 2), cache: DecodedValueCache(), plan: plan)
        XCTAssertEqual(new.storedEvents, old.storedEvents)
        // And they are digests and empty objects, not the values.
        let digested = stored.indices.filter { stored[$0].kind == 1 && stored[$0].payload["snapshot"] != nil }
        XCTAssertFalse(digested.isEmpty)
        for index in digested {
            XCTAssertEqual(new.payload[index]["snapshot"], JSONFingerprint.digest(stored[index].payload["snapshot"]!))
        }
        for index in stored.indices where stored[index].kind == 2 { XCTAssertEqual(new.payload[index], .object([:])) }
    }

    func testDamagedFormatTwoBlocksAreRefusedNotCrashedOn() throws {
        let stored = makeStored(count: 400, sessions: 6, seed: 21)
        let seed = EventBlock.encode(stored)
        let plan: (Int64) -> EventBlock.PayloadReading = { [1: .digesting(["snapshot"]), 2: .skipped][$0] ?? .values }
        var mutator = Mutator(seed: 77)
        var refused = 0
        let cache = DecodedValueCache()
        for _ in 0..<1500 {
            let input = mutator.below(2) == 0 ? mutator.mutate(seed) : mutator.corrupt(seed, count: 1 + mutator.below(6))
            if (try? EventBlock.decodeColumns(input, cache: cache, plan: mutator.below(2) == 0 ? plan : nil)) == nil { refused += 1 }
        }
        XCTAssertGreaterThan(refused, 500)
        XCTAssertEqual(try EventBlock.decodeColumns(seed, cache: cache).storedEvents, stored, "the cache kept nothing false")
    }

    func testANewerBlockFormatIsRefusedByName() {
        var block = EventBlock.encode(makeStored(count: 10, sessions: 1, seed: 5))
        block[0] = 3
        XCTAssertThrowsError(try EventBlock.decode(block)) { error in
            XCTAssertEqual("\(error)", "malformed block content at byte 0: block format 3 is newer than the 2 this navlog reads; upgrade navlog")
        }
        block[0] = 0
        XCTAssertThrowsError(try EventBlock.decode(block)) { error in
            XCTAssertEqual("\(error)", "malformed block content at byte 0: unknown block format 0")
        }
    }

    /// A file as navlog wrote it before format 2: schema version 1 and format-1 blocks. It is
    /// read as before, by the reader and by `verify`.
    func testAFileAnOlderNavlogWroteIsReadAsBefore() throws {
        let directory = makeTemporaryDirectory(self)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, blockSize: 64))
        let events = makeEvents(count: 500, sessions: 7)
        for event in events { writer.record(event) }
        try writer.close()
        let path = try XCTUnwrap(JournalDirectory.listFiles(in: directory).first)
        let expected = try JournalReader(paths: [directory]).allEvents()
        XCTAssertEqual(expected.count, 500)

        // Rewrite every block in format 1 and take the schema back to version 1.
        let database = try SQLiteDatabase(path: path)
        let inflater = try Inflater(format: .raw)
        let deflater = try Deflater(level: 6, format: .raw)
        var rewritten = 0
        for row in try database.rows("SELECT id, raw_bytes, data FROM block") {
            guard let id = row[0].integer, let rawBytes = row[1].integer, case .blob(let data) = row[2] else { continue }
            let raw = try inflater.decompressAll(data, expectedCount: Int(rawBytes), context: "test")
            let old = EventBlock.encode(try EventBlock.decode(raw), version: 1)
            let update = try database.prepare("UPDATE block SET raw_bytes = ?, crc32 = ?, data = ? WHERE id = ?")
            try update.bind([.integer(Int64(old.count)), .integer(Int64(crc32Checksum(old))), .blob(try deflater.compressAll(old)), .integer(id)])
            try update.run()
            rewritten += 1
        }
        XCTAssertGreaterThan(rewritten, 5)
        try database.execute("DELETE FROM migration WHERE version = 2; DELETE FROM meta WHERE key = 'block_format'; PRAGMA user_version = 1")
        database.close()

        assertEventsEqual(try JournalReader(paths: [directory]).allEvents(), expected, "format-1 file")
        XCTAssertTrue(JournalVerifier.verify(paths: [directory]).isHealthy)
    }
}
