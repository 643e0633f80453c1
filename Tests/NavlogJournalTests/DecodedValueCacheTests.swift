import NavlogEvents
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

/// The reader shares payload values it decoded before; what it hands out must be exactly what
/// decoding without sharing gives.
final class DecodedValueCacheTests: XCTestCase {
    private func withBytes<R>(_ value: JSONValue, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        var writer = ByteWriter()
        writer.writeJSON(value)
        return writer.bytes.withUnsafeBytes(body)
    }

    func testAValueIsKeptTheSecondTimeItsBytesAreOfferedAndFoundByThemOnly() {
        let cache = DecodedValueCache()
        let push: JSONValue = ["animated": true]
        withBytes(push) { bytes in
            let hash = DecodedValueCache.hash(bytes)
            XCTAssertNil(cache.value(for: bytes, hash: hash))
            cache.offer(push, for: bytes, hash: hash)
            XCTAssertNil(cache.value(for: bytes, hash: hash), "a one-off value is not kept")
            cache.offer(push, for: bytes, hash: hash)
            XCTAssertEqual(cache.value(for: bytes, hash: hash), push)
            XCTAssertEqual(cache.valueCount, 1)
        }
        withBytes(["animated": false]) { bytes in
            XCTAssertNil(cache.value(for: bytes, hash: DecodedValueCache.hash(bytes)))
        }
    }

    func testEqualHashesWithDifferentBytesAreNotConfused() {
        let cache = DecodedValueCache()
        let first: JSONValue = ["to": "Detail#1"]
        withBytes(first) { bytes in
            // Both offered under one forced hash: the bytes decide.
            cache.offer(first, for: bytes, hash: 7)
            cache.offer(first, for: bytes, hash: 7)
        }
        withBytes(["to": "Detail#2"]) { bytes in
            XCTAssertNil(cache.value(for: bytes, hash: 7))
        }
        withBytes(first) { bytes in
            XCTAssertEqual(cache.value(for: bytes, hash: 7), first)
        }
    }

    func testMemoryStaysBoundedWhateverIsOffered() {
        let cache = DecodedValueCache(slotCount: 64, byteLimit: 4096)
        for index in 0..<10_000 {
            let value: JSONValue = ["screen": .string("Screen number \(index % 500) with a long name")]
            withBytes(value) { bytes in
                let hash = DecodedValueCache.hash(bytes)
                cache.offer(value, for: bytes, hash: hash)
                cache.offer(value, for: bytes, hash: hash)
                XCTAssertEqual(cache.value(for: bytes, hash: hash), value)
            }
            XCTAssertLessThanOrEqual(cache.valueCount, 32)
        }
    }

    func testShortStringsComeBackAsTheirOwnBytesWhateverSharesTheirSlot() {
        let cache = DecodedValueCache()
        // Far more strings than the table has slots, so slots are shared and overwritten;
        // lengths 0...15, ASCII and not, and strings that differ only in their last byte.
        var texts = ["", "a", "ab", "é", "Detail#1", "Detail#2", "123456789012345", "12345678901234"]
        for index in 0..<5000 {
            let pad = String(repeating: index % 2 == 0 ? "x" : "é", count: (index / 7) % 6)
            texts.append(pad + String(index))
        }
        for round in 0..<2 {
            for text in texts where text.utf8.count <= 15 {
                let read = Array(text.utf8).withUnsafeBytes { cache.shortString($0) }
                XCTAssertEqual(read, text, "round \(round)")
            }
        }
    }

    func testBlocksDecodeToTheSameEventsWithAndWithoutSharing() throws {
        // Payloads that repeat whole, repeat in part (long strings), and do not repeat.
        var generator = SplitMix64(seed: 99)
        let names = ["Dashboard pending review", "Inbox", "Settings and privacy", "é€ unicode payload text"]
        let stored = (0..<3000).map { index -> StoredEvent in
            let pick = Int(generator.next() % 4)
            let payload: JSONValue
            switch index % 4 {
            case 0: payload = ["animated": true]
            case 1: payload = ["to": .string(names[pick]), "by": "pop"]
            case 2: payload = ["snapshot": ["title": .string(names[pick]), "count": .int(Int64(index)), "items": .array(names.map { .string($0) })]]
            default: payload = .string(names[pick] + String(repeating: "x", count: pick * 7))
            }
            return StoredEvent(seq: UInt64(index + 1), wallNanoseconds: Int64(index), monotonicNanoseconds: UInt64(index),
                               session: 1, kind: 1, sessionSeq: UInt64(index + 1), subject: Int64(pick + 1),
                               screen: 0, cause: nil, parent: 0, payload: payload)
        }
        let bytes = EventBlock.encode(stored)
        let cache = DecodedValueCache()
        let plain = try EventBlock.decodeColumns(bytes).storedEvents
        XCTAssertEqual(plain, stored)
        for _ in 0..<3 {
            XCTAssertEqual(try EventBlock.decodeColumns(bytes, cache: cache).storedEvents, stored)
        }
        XCTAssertGreaterThan(cache.valueCount, 0)
    }

    func testADamagedPayloadIsRefusedWithACacheToo() throws {
        let stored = (0..<50).map { index in
            StoredEvent(seq: UInt64(index + 1), wallNanoseconds: 0, monotonicNanoseconds: 0, session: 1, kind: 1,
                        sessionSeq: UInt64(index + 1), subject: 1, screen: 0, cause: nil, parent: 0,
                        payload: ["message": "a string long enough to be shared"])
        }
        let bytes = EventBlock.encode(stored)
        let cache = DecodedValueCache()
        _ = try EventBlock.decodeColumns(bytes, cache: cache)
        var mutator = Mutator(seed: 5)
        for _ in 0..<2000 {
            // Mutations may be refused or read as other values, but never crash, and a good
            // block still reads back exactly afterwards.
            _ = try? EventBlock.decodeColumns(mutator.corrupt(bytes, count: 1 + mutator.below(4)), cache: cache)
        }
        XCTAssertEqual(try EventBlock.decodeColumns(bytes, cache: cache).storedEvents, stored)
    }
}
