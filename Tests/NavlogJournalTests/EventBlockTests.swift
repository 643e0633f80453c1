import NavlogEvents
import XCTest

@testable import NavlogJournal

/// The order payloads are stored in: by subject id, each subject's events in seq order.
final class EventBlockTests: XCTestCase {
    func testPayloadOrderSortsBySubjectAndKeepsEachSubjectsEventsInOrder() {
        var generator = SplitMix64(seed: 11)
        // Small ids, ids needing two and three radix passes, the 32-bit limit, and damaged
        // (negative or too large) ids that take the general sort.
        let ranges: [ClosedRange<Int64>] = [0...5, 0...3000, 0...5_000_000, 4_000_000_000...Int64(UInt32.max), -3...3, 0...(Int64(1) << 40)]
        for range in ranges {
            for count in [0, 1, 2, 100, 2048] {
                let width = UInt64(range.upperBound - range.lowerBound) + 1
                let subjects = (0..<count).map { _ in range.lowerBound + Int64(generator.next() % width) }
                let expected = subjects.indices.sorted { subjects[$0] != subjects[$1] ? subjects[$0] < subjects[$1] : $0 < $1 }
                XCTAssertEqual(EventBlock.payloadOrder(subjects), expected, "\(count) ids in \(range)")
            }
        }
    }

    func testSessionSeqTableAgreesWithADictionary() {
        var generator = SplitMix64(seed: 3)
        for sessions in [1, 7, 300, 2048] {
            var table = EventBlock.SessionSeqTable(capacity: 2048)
            var reference: [Int64: UInt64] = [:]
            // Ids that collide in the table's low bits, and far-apart ones.
            let ids = (0..<sessions).map { index in index % 2 == 0 ? Int64(index) * 4096 : Int64(bitPattern: generator.next()) }
            for _ in 0..<2048 {
                let id = ids[generator.below(ids.count)]
                let step = UInt64(generator.below(5))
                let expected = reference[id, default: 0] + step
                reference[id] = expected
                XCTAssertEqual(table.advance(id) { $0 + step }, expected)
            }
        }
    }
}
