import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

final class RoundTripTests: XCTestCase {
    /// Every kind over many sessions, across size rotations and an explicit rotation, on disk and in memory.
    func testEveryKindRoundTripsAcrossRotations() throws {
        for root in StorageRoot.allCases {
            let directory = makeTemporaryDirectory(self, root: root)
            let events = makeEvents(count: 6000, sessions: 40)
            let writer = try JournalWriter(configuration: JournalConfiguration(
                directory: directory, labels: ["scenario": "round-trip", "host": "ci"],
                batchSize: 500, blockSize: 128, maximumFileBytes: 48 << 10))
            for event in events.prefix(3000) { writer.record(event) }
            try writer.rotate()
            for event in events.dropFirst(3000) { writer.record(event) }
            let committed = try writer.flush()
            try writer.close()
            XCTAssertEqual(committed, 6000, root.rawValue)

            let reader = JournalReader(paths: [directory])
            XCTAssertGreaterThanOrEqual(reader.files().count, 3, "\(root.rawValue): the explicit rotation and at least one by size")
            let expected = numbered(events, run: writer.runID)
            assertEventsEqual(try reader.allEvents(), expected, root.rawValue)
            XCTAssertEqual(Set(expected.map(\.kind)).count, EventKind.allKnown.count - 1)

            let report = JournalVerifier.verify(paths: [directory])
            XCTAssertTrue(report.isHealthy, "\(root.rawValue): \(report.issues)")
            XCTAssertEqual(report.readableEvents, 6000)
            let metrics = writer.metrics
            XCTAssertEqual(metrics.eventsRecorded, 6000)
            XCTAssertEqual(metrics.eventsDropped, 0)
            XCTAssertGreaterThan(metrics.compressionRatio, 1)
        }
    }

    func testFiltersSelectSessionsKindsAndTime() throws {
        let directory = makeTemporaryDirectory(self)
        let events = makeEvents(count: 3000)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, blockSize: 100, maximumFileBytes: 64 << 10))
        events.forEach(writer.record)
        try writer.close()
        let all = numbered(events, run: writer.runID)
        let reader = JournalReader(paths: [directory])

        let sessions: Set<String> = ["s-3", "s-17"]
        assertEventsEqual(try reader.allEvents(matching: EventFilter(sessions: sessions)), all.filter { sessions.contains($0.session) }, "sessions")
        let kinds: Set<EventKind> = [.screenPush, .viewModelChange]
        assertEventsEqual(try reader.allEvents(matching: EventFilter(kinds: kinds)), all.filter { kinds.contains($0.kind) }, "kinds")
        let since = all[1000].wallNanoseconds, until = all[1200].wallNanoseconds
        assertEventsEqual(try reader.allEvents(matching: EventFilter(since: since, until: until)), Array(all[1000..<1200]), "time")
        assertEventsEqual(try reader.allEvents(matching: EventFilter(sessions: ["s-5"], kinds: [.action])),
                          all.filter { $0.session == "s-5" && $0.kind == .action }, "session and kind")
        XCTAssertEqual(try reader.allEvents(matching: EventFilter(sessions: ["no-such-session"])), [])
    }

    func testCursorResumesAfterTheGivenEvent() throws {
        let directory = makeTemporaryDirectory(self)
        let events = makeEvents(count: 1500)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, blockSize: 64, maximumFileBytes: 32 << 10))
        events.forEach(writer.record)
        try writer.close()
        let all = numbered(events, run: writer.runID)

        var iterator = JournalReader(paths: [directory]).events()
        var firstPart: [Event] = []
        while firstPart.count < 700, let event = try iterator.next() { firstPart.append(event) }
        let cursorText = JournalCursor(after: firstPart.last!).description
        let cursor = try JournalCursor(parsing: cursorText)
        let rest = try JournalReader(paths: [directory]).allEvents(matching: EventFilter(after: cursor))
        assertEventsEqual(firstPart + rest, all)
        XCTAssertThrowsError(try JournalCursor(parsing: "seq=12")) { error in
            XCTAssertEqual("\(error)", "'seq=12' is not a navlog journal cursor")
        }
    }

    func testReaderMergesDirectoriesBySeq() throws {
        let first = makeTemporaryDirectory(self, name: "first")
        let second = makeTemporaryDirectory(self, name: "second")
        let events = makeEvents(count: 400)
        var runs: [String] = []
        for directory in [first, second] {
            let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory))
            events.forEach(writer.record)
            try writer.close()
            runs.append(writer.runID)
        }
        let merged = try JournalReader(paths: [first, second]).allEvents()
        XCTAssertEqual(merged.count, 800)
        XCTAssertEqual(merged.map(\.seq), (1...400).flatMap { [UInt64($0), UInt64($0)] })
        XCTAssertEqual(Set(merged.map(\.run)), Set(runs))
    }

    func testFileHasReadableTablesForStockSQLite() throws {
        let directory = makeTemporaryDirectory(self)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, labels: ["app": "tabs"]))
        makeEvents(count: 50, sessions: 2).forEach(writer.record)
        try writer.close()
        let path = try XCTUnwrap(JournalReader(paths: [directory]).files().first)
        XCTAssertTrue(path.hasSuffix(".navlog"))
        let database = try SQLiteDatabase(path: path, readOnly: true)
        let names = try database.rows("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name").compactMap { $0[0].text }
        XCTAssertEqual(names, ["block", "event", "event_view", "ingest_receipt", "kind", "meta", "migration", "run", "run_label", "session", "string"])
        XCTAssertEqual(try database.scalar("PRAGMA user_version")?.integer, Int64(JournalSchema.currentVersion))
        XCTAssertEqual(try database.rows("SELECT name FROM migration").compactMap { $0[0].text }, ["v1-tables", "v2-block-format-2", "v3-ingest-receipts"])
        XCTAssertEqual(try database.scalar("SELECT value FROM meta WHERE key = 'block_format'")?.text, "2")
        XCTAssertEqual(try database.scalar("SELECT value FROM run_label WHERE key = 'app'")?.text, "tabs")
        XCTAssertEqual(try database.scalar("SELECT sum(event_count) FROM event_view")?.integer, 50)
        XCTAssertNotNil(try database.scalar("SELECT ended_ns FROM run")?.integer)
    }
}
