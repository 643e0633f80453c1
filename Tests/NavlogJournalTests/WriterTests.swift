import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

final class WriterTests: XCTestCase {
    func testDropPolicyCountsAndRecordsDroppedEvents() throws {
        let directory = makeTemporaryDirectory(self)
        let writer = try JournalWriter(configuration: JournalConfiguration(
            directory: directory, flushInterval: .seconds(600), queueCapacity: 10, backpressure: .drop))
        let events = makeEvents(count: 100)
        events.forEach(writer.record)
        XCTAssertEqual(writer.metrics.eventsDropped, 90)
        XCTAssertEqual(writer.metrics.queueDepth, 10)
        XCTAssertEqual(try writer.flush(), 101, "ten events, then the journal.dropped record")
        try writer.close()

        let stored = try JournalReader(paths: [directory]).allEvents()
        assertEventsEqual(Array(stored.prefix(10)), numbered(Array(events.prefix(10)), run: writer.runID))
        let record = try XCTUnwrap(stored.last)
        XCTAssertEqual(record.kind, .journalDropped)
        XCTAssertEqual(record.seq, 101)
        XCTAssertEqual(record.payload["count"], 90)
        XCTAssertEqual(record.payload["first_seq"], 11)
        XCTAssertEqual(record.payload["last_seq"], 100)
        XCTAssertEqual(record.payload["reason"], "queue full")
        let report = JournalVerifier.verify(paths: [directory])
        XCTAssertTrue(report.isHealthy, "\(report.issues)")
    }

    func testBlockPolicyDeliversEverythingThroughASmallQueue() throws {
        let directory = makeTemporaryDirectory(self)
        let writer = try JournalWriter(configuration: JournalConfiguration(
            directory: directory, batchSize: 5, queueCapacity: 8, backpressure: .block))
        let events = makeEvents(count: 2000)
        events.forEach(writer.record)
        try writer.close()
        assertEventsEqual(try JournalReader(paths: [directory]).allEvents(), numbered(events, run: writer.runID))
        XCTAssertEqual(writer.metrics.eventsDropped, 0)
    }

    func testSessionsAndNamesTheWriterNoLongerCachesKeepTheirRowsInTheFile() throws {
        // The writer forgets a session at its session.end and empties its caches of names past
        // a limit; what comes back is found in the file, not added twice, and reads back the same.
        let directory = makeTemporaryDirectory(self)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory))
        var events: [Event] = []
        var sessionSeqs: [String: UInt64] = [:]
        func add(_ session: String, _ kind: EventKind, subject: String, screen: String? = nil) {
            sessionSeqs[session, default: 0] += 1
            let index = Int64(events.count)
            let event = Event(wallNanoseconds: 1_800_000_000_000_000_000 + index * 1000, monotonicNanoseconds: UInt64(index) * 1000,
                              session: session, sessionSeq: sessionSeqs[session]!, kind: kind, subject: subject, screen: screen)
            events.append(event)
            writer.record(event)
        }
        add("s-1", .sessionStart, subject: "Session#1")
        add("s-1", .screenPush, subject: "App#1", screen: "Home#1")
        add("s-1", .sessionEnd, subject: "Session#1")
        try writer.flush()
        add("s-1", .error, subject: "App#1", screen: "Home#1")  // after its end, in a later commit
        let names = JournalFileWriter.cacheLimit + 500
        for number in 1...names {
            add("s-2", .presenterInit, subject: "Presenter#\(number)", screen: "Screen#\(number % 3)")
            if number % 4096 == 0 { try writer.flush() }
        }
        add("s-2", .presenterDeinit, subject: "Presenter#1")  // forgotten by the cache, still in the file
        add("s-1", .error, subject: "App#1")
        try writer.close()

        assertEventsEqual(try JournalReader(paths: [directory]).allEvents(), numbered(events, run: writer.runID))
        XCTAssertTrue(JournalVerifier.verify(paths: [directory]).isHealthy)
        let files = JournalReader(paths: [directory]).files()
        XCTAssertEqual(files.count, 1)
        let database = try SQLiteDatabase(path: files[0], readOnly: true)
        XCTAssertEqual(try database.rows("SELECT name FROM session ORDER BY id").map { $0[0].text }, ["s-1", "s-2"])
        XCTAssertEqual(try database.scalar("SELECT count(*) FROM string")?.integer, Int64(names + 6),
                       "Presenter#1…\(names), Screen#0…2, Session#1, App#1 and Home#1, each once")
    }

    func testNewWriterContinuesSeqAndSetsAsideAnUncleanFile() throws {
        // A file whose writer died: a copy of a live file and its WAL, without the closing marker.
        let directory = makeTemporaryDirectory(self)
        let live = makeTemporaryDirectory(self, name: "live")
        let crashed = try JournalWriter(configuration: JournalConfiguration(directory: live))
        makeEvents(count: 5).forEach(crashed.record)
        try crashed.flush()
        let liveFile = try XCTUnwrap(JournalDirectory.listFiles(in: live).first)
        let copy = directory + "/navlog-0000000000000001-20300101T000000Z.navlog"
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: liveFile + suffix, toPath: copy + suffix) }
        try crashed.close()

        let second = try JournalWriter(configuration: JournalConfiguration(directory: directory))
        XCTAssertEqual(second.setAsideFiles, [directory + "/navlog-0000000000000001-20300101T000000Z.unclean.navlog"])
        XCTAssertThrowsError(try JournalWriter(configuration: JournalConfiguration(directory: directory))) { error in
            XCTAssertEqual("\(error)", "journal directory \(directory) is in use by another writer")
        }
        makeEvents(count: 3).forEach(second.record)
        XCTAssertEqual(try second.flush(), 8, "seq continues after the set-aside file's 1...5")
        try second.close()
        let all = try JournalReader(paths: [directory]).allEvents()
        XCTAssertEqual(all.map(\.seq), Array(1...8), "the set-aside file stays readable")
        XCTAssertEqual(Set(all.map(\.run)), [crashed.runID, second.runID])
        let before = try Data(contentsOf: URL(fileURLWithPath: second.setAsideFiles[0]))
        let third = try JournalWriter(configuration: JournalConfiguration(directory: directory))
        try third.close()
        XCTAssertEqual(third.setAsideFiles, [], "a set-aside file is not set aside twice")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: second.setAsideFiles[0])), before, "and never written again")
        XCTAssertTrue(JournalVerifier.verify(paths: [directory]).isHealthy)
    }

    func testRetentionDeletesOnlyClosedFilesOldestFirst() throws {
        let directory = makeTemporaryDirectory(self)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, retentionBytes: 1))
        for round in 0..<4 {
            makeEvents(count: 50).forEach(writer.record)
            try writer.rotate()
            XCTAssertEqual(JournalDirectory.listFiles(in: directory).count, 1, "round \(round): only the open file is left")
        }
        XCTAssertEqual(writer.metrics.rotations, 4)
        try writer.close()
        XCTAssertEqual(try JournalReader(paths: [directory]).allEvents().count, 0, "the open file got no events after the last rotation")
    }

    func testFlushAsyncReportsCommittedSeqAndMetrics() async throws {
        let directory = makeTemporaryDirectory(self)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, flushInterval: .seconds(600)))
        makeEvents(count: 250).forEach(writer.record)
        let committed = try await writer.flush()
        XCTAssertEqual(committed, 250)
        let metrics = writer.metrics
        XCTAssertEqual(metrics.eventsRecorded, 250)
        XCTAssertEqual(metrics.queueDepth, 0)
        XCTAssertEqual(metrics.committedSeq, 250)
        XCTAssertGreaterThan(metrics.bytesWritten, 0)
        XCTAssertNil(metrics.lastError)
        XCTAssertTrue(metrics.currentFile.hasPrefix(directory + "/navlog-0000000000000001-"))
        try writer.close()
        writer.record(makeEvents(count: 1)[0])
        XCTAssertEqual(writer.metrics.eventsDropped, 1, "an event after close is counted, not silently lost")
        do {
            try await writer.flush()
            XCTFail("flush after close should throw")
        } catch {
            XCTAssertEqual("\(error)", "the journal writer for \(directory) is closed")
        }
    }
}
