import XCTest

@testable import NavlogEvents

/// Interned events point into their storage: every list reads back as it was interned, across
/// chunks and after the storage is emptied for reuse, and `session.start` keeps its payload.
final class InternedEventStorageTests: XCTestCase {
    /// A `screen.push` whose `removed` and `bound` lists are `removed` and `bound` names.
    private func push(_ index: Int, removed: Int, bound: Int) -> Event {
        Event(seq: UInt64(index + 1), wallNanoseconds: 0, monotonicNanoseconds: 0, session: "s", sessionSeq: UInt64(index + 1), kind: .screenPush, subject: "c#\(index)", screen: "Screen#\(index)",
              payload: .object(["stack": .string("nav"), "removed": .array((0..<removed).map { .string("r\(index)-\($0)") }),
                                "bound": .array((0..<bound).map { .string("b\(index)-\($0)") })]))
    }

    func testListsReadBackAcrossChunksAndAfterReuse() {
        let storage = InternedEventStorage()
        var names = NameTable()
        // Lists of up to 40,000 names in all: past two chunks, with one list larger than a chunk.
        var shapes = (0..<300).map { ($0, $0 % 7, $0 % 5 * 20) }
        shapes.append((300, 20_000, 3))
        var events: [(Event, InternedEvent)] = []
        for (index, removed, bound) in shapes {
            let event = push(index, removed: removed, bound: bound)
            events.append((event, InternedEvent(event, session: 0, names: &names, storage: storage)))
        }
        for (event, interned) in events {
            XCTAssertEqual(interned.payloadNames(.removed).map { $0.map { names[$0] } }, event.payloadNames(.removed).map(Array.init))
            XCTAssertEqual(interned.payloadNames(.bound).map { $0.map { names[$0] } }, event.payloadNames(.bound).map(Array.init))
            XCTAssertNil(interned.payloadNames(.changed))
            XCTAssertNil(interned.payload)
        }

        storage.removeAll()
        let start = Event(seq: 1, wallNanoseconds: 0, monotonicNanoseconds: 0, session: "s", sessionSeq: 1, kind: .sessionStart, subject: "app", payload: .object(["app": .string("tabs"), "build": .int(7)]))
        let interned = InternedEvent(start, session: 0, names: &names, storage: storage)
        XCTAssertEqual(interned.payload, start.payload)
        XCTAssertEqual(interned.payloadName(.app).map { names[$0] }, "tabs")
        let again = InternedEvent(push(5, removed: 3, bound: 0), session: 0, names: &names, storage: storage)
        XCTAssertEqual(again.payloadNames(.removed).map { $0.map { names[$0] } }, ["r5-0", "r5-1", "r5-2"])
        XCTAssertEqual(again.payloadNames(.bound).map(Array.init), [])
    }
}
