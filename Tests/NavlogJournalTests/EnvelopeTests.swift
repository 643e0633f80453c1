import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

/// The envelope columns read from the front of a block, inflating no more of it than they
/// take, equal the columns a whole decode gives; damage is refused, not crashed on.
final class EnvelopeTests: XCTestCase {
    /// Events of `sessions` sessions whose times jump far and at random, so that the time
    /// columns take many bytes and the first guess of the front's size falls short.
    private func makeStored(count: Int, sessions: Int, seed: UInt64) -> [StoredEvent] {
        var generator = SplitMix64(seed: seed)
        var sessionSeqs = [UInt64](repeating: 0, count: sessions)
        var wall: Int64 = 1_700_000_000_000_000_000
        return (0..<count).map { index in
            let session = generator.below(sessions)
            sessionSeqs[session] += 1
            wall += Int64(generator.below(1 << 40))
            return StoredEvent(
                seq: UInt64(index + 10), wallNanoseconds: wall, monotonicNanoseconds: UInt64(wall / 3) + UInt64(generator.below(1 << 30)),
                session: Int64(session + 1), kind: Int64(1 + generator.below(9)), sessionSeq: sessionSeqs[session],
                subject: Int64(1 + generator.below(300)), screen: Int64(generator.below(40)),
                cause: generator.below(3) == 0 ? nil : sessionSeqs[session] - UInt64(generator.below(Int(sessionSeqs[session]))),
                parent: Int64(generator.below(5)),
                payload: ["title": .string("Item \(generator.below(1000))"), "count": .int(Int64(generator.below(50)))])
        }
    }

    private func deflated(_ bytes: [UInt8]) throws -> [UInt8] { try Deflater(level: 6).compressAll(bytes) }

    func testTheFrontOfABlockGivesTheColumnsAWholeDecodeGives() throws {
        let inflater = try Inflater()
        for (count, sessions, seed) in [(1, 1, 1), (7, 2, 2), (500, 5, 3), (6000, 60, 4)] as [(Int, Int, UInt64)] {
            for version: UInt8 in [1, 2] {
                let raw = EventBlock.encode(makeStored(count: count, sessions: sessions, seed: seed), version: version)
                let whole = try EventBlock.decodeColumns(raw)
                let compressed = try deflated(raw)
                // From one byte (doubling many times), the usual guess, and more than the block holds.
                for guess in [1, 64 + count * 12, raw.count * 2] {
                    let label = "\(count) events, format \(version), first guess \(guess)"
                    let kinds = try EventBlock.inflateEnvelope(compressed, rawBytes: raw.count, through: .kinds, inflater: inflater,
                                                               firstGuess: guess, context: label)
                    XCTAssertEqual(kinds.seq, whole.seq, label)
                    XCTAssertEqual(kinds.wall, whole.wall, label)
                    XCTAssertEqual(kinds.monotonic, whole.monotonic, label)
                    XCTAssertEqual(kinds.session, whole.session, label)
                    XCTAssertEqual(kinds.kind, whole.kind, label)
                    XCTAssertEqual(kinds.sessionSeq, [], label)
                    let causes = try EventBlock.inflateEnvelope(compressed, rawBytes: raw.count, through: .causes, inflater: inflater,
                                                                firstGuess: guess, context: label)
                    XCTAssertEqual(causes.sessionSeq, whole.sessionSeq, label)
                    XCTAssertEqual(causes.cause, whole.cause, label)
                    XCTAssertEqual(causes.kind, whole.kind, label)
                }
            }
        }
    }

    func testTheFrontIsAllThatIsInflated() throws {
        let raw = EventBlock.encode(makeStored(count: 2000, sessions: 20, seed: 9))
        var front: [UInt8] = []
        let inflater = try Inflater()
        try inflater.decompressPrefix(try deflated(raw), expectedCount: raw.count, atLeast: 1000, into: &front, context: "test")
        XCTAssertEqual(front.count, 1000)
        XCTAssertEqual(front, Array(raw.prefix(1000)))
        XCTAssertNil(try EventBlock.decodeEnvelope(front, isComplete: false, through: .kinds), "2000 events need more than 1000 bytes")
        XCTAssertThrowsError(try EventBlock.decodeEnvelope(front, isComplete: true, through: .kinds), "a whole block that short is damaged")
    }

    func testDamagedBlocksAreRefusedNotCrashedOn() throws {
        let raw = EventBlock.encode(makeStored(count: 300, sessions: 4, seed: 12))
        let inflater = try Inflater()
        var mutator = Mutator(seed: 31)
        var refused = 0
        for round in 0..<1500 {
            let damaged = mutator.below(2) == 0 ? mutator.mutate(raw) : mutator.corrupt(raw, count: 1 + mutator.below(6))
            // Half the rounds damage the inflated bytes; the others the deflated stream.
            let compressed = round % 2 == 0 ? try deflated(damaged) : mutator.corrupt(try deflated(raw), count: 1 + mutator.below(4))
            let size = round % 2 == 0 ? damaged.count : raw.count
            do {
                _ = try EventBlock.inflateEnvelope(compressed, rawBytes: size, through: round % 3 == 0 ? .kinds : .causes, inflater: inflater,
                                                   firstGuess: 1 + mutator.below(4000), context: "round \(round)")
            } catch {
                refused += 1
            }
        }
        // Damage past the front (most of a block: its payloads) is not seen; a broken stream or column is.
        XCTAssertGreaterThan(refused, 150)
    }
}
