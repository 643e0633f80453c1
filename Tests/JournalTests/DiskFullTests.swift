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
}
