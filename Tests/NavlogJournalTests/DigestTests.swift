import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

/// Payload members read as digests: the same fingerprints as the values they stand for, for
/// the kinds asked only, and no trace left in the reader's cache of decoded values.
final class DigestTests: XCTestCase {
    /// A random JSON value with the cases fingerprints must get right: ints and integral
    /// doubles, -0.0, ASCII and non-ASCII strings (composed and decomposed), short and long
    /// strings, nested arrays and objects, empty ones.
    private func randomValue(_ generator: inout SplitMix64, depth: Int = 0) -> JSONValue {
        let texts = ["", "a", "title", "Dashboard pending review", "é", "e\u{301}", "日本語のテキスト", "exactly-15-byte", "sixteen-bytes-xx"]
        switch generator.below(depth < 3 ? 9 : 6) {
        case 0: return .null
        case 1: return .bool(generator.below(2) == 0)
        case 2: return .int(Int64(generator.below(2001)) - 1000)
        case 3: return [.double(1.5), .double(-0.0), .double(0.0), .double(3.0), .double(-2.25e300)][generator.below(5)]
        case 4, 5: return .string(texts[generator.below(texts.count)])
        case 6: return .array((0..<generator.below(5)).map { _ in randomValue(&generator, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<generator.below(6) { members[texts[generator.below(texts.count)]] = randomValue(&generator, depth: depth + 1) }
            return .object(members)
        }
    }

    private func bytes(_ value: JSONValue) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeJSON(value)
        return writer.bytes
    }

    func testFingerprintsAndDigestsReadFromBytesMatchThoseOfTheValues() throws {
        var generator = SplitMix64(seed: 2026)
        for index in 0..<3000 {
            let value = randomValue(&generator)
            var reader = ByteReader(bytes(value))
            XCTAssertEqual(try reader.readFingerprint(), JSONFingerprint.of(value), "value \(index): \(value)")
            XCTAssertTrue(reader.isAtEnd)
            reader = ByteReader(bytes(value))
            let digest = try reader.readDigest()
            XCTAssertEqual(digest, JSONFingerprint.digest(value), "value \(index): \(value)")
            XCTAssertTrue(reader.isAtEnd)
            XCTAssertEqual(JSONFingerprint.Digest(digest)?.fingerprint, JSONFingerprint.of(value), "value \(index): \(value)")
        }
        // Values equal by JSONValue's == read to one fingerprint whatever their encoding.
        let pairs: [(JSONValue, JSONValue)] = [(3, 3.0), (0.0, -0.0), ("é", "e\u{301}"), (["s": "é", "n": 1], ["n": 1.0, "s": "e\u{301}"])]
        for (left, right) in pairs {
            var first = ByteReader(bytes(left))
            var second = ByteReader(bytes(right))
            XCTAssertEqual(try first.readFingerprint(), try second.readFingerprint(), "\(left) and \(right)")
        }
    }

    func testOnlyTheNamedMembersOfTheChosenKindsAreDigestedOrSkipped() throws {
        var generator = SplitMix64(seed: 7)
        let stored = (0..<600).map { index -> StoredEvent in
            let payload: JSONValue = [
                "viewmodel": "MasterViewModel", "changed": ["title", "items"],
                "snapshot": ["title": .string("Item \(index % 7)"), "items": randomValue(&generator), "count": .int(Int64(index % 3))],
                "previous": ["title": "Item 0", "items": nil],
            ]
            return StoredEvent(seq: UInt64(index + 1), wallNanoseconds: Int64(index), monotonicNanoseconds: UInt64(index),
                               session: 1, kind: Int64(1 + index % 3), sessionSeq: UInt64(index + 1), subject: Int64(1 + index % 5),
                               screen: 0, cause: nil, parent: 0, payload: payload)
        }
        let block = EventBlock.encode(stored)
        let cache = DecodedValueCache()
        var asked: [Int64] = []
        for round in 0..<3 {
            let columns = try EventBlock.decodeColumns(block, cache: cache) { kind in
                asked.append(kind)
                return [1: .digesting(["previous", "snapshot"]), 3: .skipped][kind] ?? .values
            }
            for (index, event) in stored.enumerated() {
                var expected = event.payload
                if event.kind == 1 {
                    expected = ["viewmodel": event.payload["viewmodel"]!, "changed": event.payload["changed"]!,
                                "snapshot": JSONFingerprint.digest(event.payload["snapshot"]!),
                                "previous": JSONFingerprint.digest(event.payload["previous"]!)]
                } else if event.kind == 3 {
                    expected = .object([:])
                }
                XCTAssertEqual(columns.payload[index], expected, "round \(round), event \(index)")
            }
            // The values read in between through the same cache are the values, not digests.
            XCTAssertEqual(try EventBlock.decodeColumns(block, cache: cache).storedEvents, stored, "round \(round)")
        }
        XCTAssertEqual(asked.sorted(), [1, 1, 1, 2, 2, 2, 3, 3, 3], "asked once per kind and block")
    }

    func testTheJournalReaderHandsOutDigestsWhenTheFilterAsksForThem() throws {
        let directory = makeTemporaryDirectory(self)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, blockSize: 64))
        let events = makeEvents(count: 700)
        for event in events { writer.record(event) }
        try writer.close()
        let plain = try JournalReader(paths: [directory]).allEvents()
        var filter = EventFilter()
        filter.digestedMembers = [.viewModelChange: ["snapshot"]]
        var digested: [Event] = []
        try JournalPrefetcher(files: JournalReader(paths: [directory]).files(), filter: filter).forEach { digested += $0.events }
        XCTAssertEqual(digested.count, plain.count)
        var changes = 0
        for (read, original) in zip(digested, plain) {
            var expected = original
            if original.kind == .viewModelChange, case .object(var members) = original.payload, let snapshot = members["snapshot"] {
                members["snapshot"] = JSONFingerprint.digest(snapshot)
                expected.payload = .object(members)
                changes += 1
            }
            XCTAssertEqual(read, expected)
        }
        XCTAssertGreaterThan(changes, 10)
    }

    func testEnvelopeOnlyKindsComeWithoutSubjectScreenParentOrPayload() throws {
        let directory = makeTemporaryDirectory(self)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, blockSize: 64))
        for event in makeEvents(count: 700) { writer.record(event) }
        try writer.close()
        let plain = try JournalReader(paths: [directory]).allEvents()
        var filter = EventFilter()
        filter.envelopeOnlyKinds = [.action, .screenPush]
        filter.digestedMembers = [.viewModelChange: ["snapshot"]]
        let read = try JournalReader(paths: [directory]).allEvents(matching: filter)
        XCTAssertEqual(read.count, plain.count)
        var envelopes = 0
        for (event, original) in zip(read, plain) {
            var expected = original
            if filter.envelopeOnlyKinds.contains(original.kind) {
                expected.subject = ""
                expected.screen = nil
                expected.parent = nil
                expected.payload = .object([:])
                envelopes += 1
            } else if original.kind == .viewModelChange, case .object(var members) = original.payload {
                members["snapshot"] = members["snapshot"].map(JSONFingerprint.digest)
                expected.payload = .object(members)
            }
            XCTAssertEqual(event, expected)
        }
        XCTAssertGreaterThan(envelopes, 50)
    }

    func testDamagedBlocksNeverCrashTheDigestingReader() throws {
        var generator = SplitMix64(seed: 17)
        var stored: [StoredEvent] = []
        for index in 0..<200 {
            let snapshot = randomValue(&generator)
            let previous: JSONValue = .object(["a": randomValue(&generator)])
            let payload: JSONValue = .object(["snapshot": snapshot, "changed": .array([.string("a")]), "previous": previous])
            stored.append(StoredEvent(seq: UInt64(index + 1), wallNanoseconds: 0, monotonicNanoseconds: 0, session: 1, kind: Int64(1 + index % 3),
                                      sessionSeq: UInt64(index + 1), subject: 1, screen: 0, cause: nil, parent: 0, payload: payload))
        }
        let block = EventBlock.encode(stored)
        let plan: (Int64) -> EventBlock.PayloadReading = { [1: .digesting(["previous", "snapshot"]), 2: .skipped][$0] ?? .values }
        let cache = DecodedValueCache()
        var mutator = Mutator(seed: 9)
        for _ in 0..<3000 {
            // Refused or read as other values, never a crash; a good block still reads back.
            _ = try? EventBlock.decodeColumns(mutator.corrupt(block, count: 1 + mutator.below(4)), cache: cache, plan: plan)
        }
        XCTAssertEqual(try EventBlock.decodeColumns(block, cache: cache).storedEvents, stored)
    }
}
