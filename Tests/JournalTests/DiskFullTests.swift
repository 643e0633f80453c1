import Foundation
import Navigation
import XCTest

@testable import Journal

/// A full disk: the writer reports it, counts the events as dropped, records that, and resumes.
final class DiskFullTests: XCTestCase {
    func testWriterSurvivesAFullDiskAndRecordsTheLoss() throws {
        let mountPoint = makeTemporaryDirectory(self)
        guard mount("tmpfs", mountPoint, "tmpfs", 0, "size=4m") == 0 else {
            throw XCTSkip("mounting a tmpfs needs root: \(String(cString: strerror(errno)))")
        }
        addTeardownBlock { umount2(mountPoint, Int32(MNT_DETACH)) }
        let directory = mountPoint + "/journal"
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, flushInterval: .seconds(600)))
        let events = makeEvents(count: 3000)
        events.prefix(100).forEach(writer.record)
        XCTAssertEqual(try writer.flush(), 100)

        // Fill the file system.
        let filler = mountPoint + "/filler"
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: { _ = FileManager.default.createFile(atPath: filler, contents: nil); return filler }()))
        let chunk = Data(count: 64 << 10)
        while (try? handle.write(contentsOf: chunk)) != nil {}
        try? handle.close()

        events[100..<2100].forEach(writer.record)
        XCTAssertThrowsError(try writer.flush()) { error in
            XCTAssertTrue("\(error)".hasPrefix("writing \(directory)/navlog-0000000000000001-"), "\(error)")
            XCTAssertTrue("\(error)".contains("seq 101...2100 were dropped"), "\(error)")
        }
        let failed = writer.metrics
        XCTAssertEqual(failed.eventsDropped, 2000)
        XCTAssertNotNil(failed.lastError)

        // Space returns; the next commit carries the loss as a journal.dropped record.
        try FileManager.default.removeItem(atPath: filler)
        events[2100..<2110].forEach(writer.record)
        XCTAssertEqual(try writer.flush(), 2111)
        try writer.close()

        let stored = try JournalReader(paths: [directory]).allEvents()
        XCTAssertEqual(stored.map(\.seq), Array(1...100) + Array(2101...2111))
        let record = try XCTUnwrap(stored.last)
        XCTAssertEqual(record.kind, .journalDropped)
        XCTAssertEqual(record.payload["count"], 2000)
        XCTAssertEqual(record.payload["first_seq"], 101)
        XCTAssertEqual(record.payload["last_seq"], 2100)
        XCTAssertTrue(record.payload["reason"]?.stringValue?.hasPrefix("write failed: ") == true)
        let report = JournalVerifier.verify(paths: [directory])
        XCTAssertTrue(report.isHealthy, "\(report.issues)")
    }

    /// The writer may take (and fail to commit) a batch before anyone asks to flush it: a flush
    /// asked for afterwards must still fail, or a `flush_per_request` daemon would acknowledge
    /// events that were lost.
    func testAFlushAfterTheWriterFailedOnItsOwnStillFails() async throws {
        let mountPoint = makeTemporaryDirectory(self)
        guard mount("tmpfs", mountPoint, "tmpfs", 0, "size=4m") == 0 else {
            throw XCTSkip("mounting a tmpfs needs root: \(String(cString: strerror(errno)))")
        }
        addTeardownBlock { umount2(mountPoint, Int32(MNT_DETACH)) }
        let directory = mountPoint + "/journal"
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, flushInterval: .seconds(600), batchSize: 500))
        let events = makeEvents(count: 2000)
        events.prefix(100).forEach(writer.record)
        XCTAssertEqual(try blockingFlush(writer), 100)
        let filler = mountPoint + "/filler"
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: { _ = FileManager.default.createFile(atPath: filler, contents: nil); return filler }()))
        while (try? handle.write(contentsOf: Data(count: 64 << 10))) != nil {}
        try? handle.close()

        let floor = writer.lastRecordedSeq
        XCTAssertEqual(floor, 100)
        // A full batch wakes the writer by itself; wait until it has failed, with no flush asked.
        events[100..<600].forEach(writer.record)
        let deadline = Date().addingTimeInterval(20)
        while writer.metrics.eventsDropped < 500, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        XCTAssertEqual(writer.metrics.eventsDropped, 500)

        // Space comes back before the flush is asked for: the batch it waits for (the loss
        // record) commits, yet 101...600 are gone.
        try FileManager.default.removeItem(atPath: filler)
        do {
            try await writer.flush(after: floor)
            XCTFail("a flush covering lost events succeeded")
        } catch {
            XCTAssertTrue("\(error)".contains("seq 101...600 were dropped"), "\(error)")
        }
        // Events recorded after the loss, flushed with a floor past it, are fine.
        let later = writer.lastRecordedSeq
        events[600..<610].forEach(writer.record)
        let committed = try await writer.flush(after: later)
        XCTAssertEqual(committed, writer.lastRecordedSeq, "the events and the journal.dropped record")
        XCTAssertEqual(try blockingFlush(writer), committed)
        try writer.close()
    }

    /// The blocking flush, which an async context would not pick by itself.
    private func blockingFlush(_ writer: JournalWriter) throws -> UInt64 {
        try writer.flush()
    }
}
