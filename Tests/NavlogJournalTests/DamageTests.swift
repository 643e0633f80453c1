import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

/// Damaged journals give errors that name the file; nothing crashes.
final class DamageTests: XCTestCase {
    /// Writes `count` events in blocks of 100 and closes; returns the directory and its one file.
    private func makeJournal(count: Int = 1000) throws -> (directory: String, file: String) {
        let directory = makeTemporaryDirectory(self, name: name)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, blockSize: 100))
        makeEvents(count: count).forEach(writer.record)
        try writer.close()
        return (directory, try XCTUnwrap(JournalDirectory.listFiles(in: directory).first))
    }

    /// Returns the events read before the first error, and that error.
    private func readUntilError(_ paths: [String]) -> (events: [Event], error: (any Error)?) {
        var iterator = JournalReader(paths: paths).events()
        var events: [Event] = []
        do {
            while let event = try iterator.next() { events.append(event) }
            return (events, nil)
        } catch {
            return (events, error)
        }
    }

    func testFlippedByteInCompressedBlockNamesFileAndSeqRange() throws {
        let (directory, file) = try makeJournal()
        // Find the fourth block's bytes in the file and flip one in the middle.
        let database = try SQLiteDatabase(path: file, readOnly: true)
        let blob = try XCTUnwrap(database.rows("SELECT data FROM block WHERE first_seq = 301").first?.first)
        database.close()
        guard case .blob(let bytes) = blob else { return XCTFail("block 4 has no data") }
        var contents = try Data(contentsOf: URL(fileURLWithPath: file))
        let range = try XCTUnwrap(contents.range(of: Data(bytes.prefix(48))), "block bytes not found in the file")
        contents[range.lowerBound + 24] ^= 0x5A
        try contents.write(to: URL(fileURLWithPath: file))

        let (events, error) = readUntilError([directory])
        XCTAssertEqual(events.map(\.seq), Array(1...300), "events before the damage stay readable")
        XCTAssertEqual(error.map { "\($0)" }?.hasPrefix("\(file) is damaged: the block holding seq 301...400 is unreadable"), true,
                       "\(String(describing: error))")
        let report = JournalVerifier.verify(paths: [directory])
        XCTAssertEqual(report.issues.map(\.path), [file])
        XCTAssertEqual(report.issues.first?.seqRange, 301...400)
        XCTAssertEqual(report.readableEvents, 900)
    }

    func testFileTruncatedMidPage() throws {
        let (directory, file) = try makeJournal(count: 5000)
        let size = JournalDirectory.fileSize(file)
        XCTAssertEqual(truncate(file, off_t(size / 2 + 1000)), 0)
        let (_, error) = readUntilError([directory])
        let report = JournalVerifier.verify(paths: [directory])
        XCTAssertFalse(report.isHealthy)
        XCTAssertTrue(report.issues.allSatisfy { $0.path == file }, "\(report.issues)")
        if let error { XCTAssertTrue("\(error)".contains(file), "\(error)") }
        XCTAssertTrue(error != nil || report.readableEvents < 5000)
    }

    func testMissingWALIsReported() throws {
        let directory = makeTemporaryDirectory(self)
        let copyDirectory = makeTemporaryDirectory(self, name: "copy")
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory))
        makeEvents(count: 200).forEach(writer.record)
        try writer.flush()
        let file = try XCTUnwrap(JournalDirectory.listFiles(in: directory).first)
        let copy = copyDirectory + "/" + URL(fileURLWithPath: file).lastPathComponent
        try FileManager.default.copyItem(atPath: file, toPath: copy)
        try writer.close()

        let report = JournalVerifier.verify(paths: [copyDirectory])
        XCTAssertEqual(report.issues.count, 1, "\(report.issues)")
        XCTAssertEqual(report.issues.first?.path, copy)
        XCTAssertTrue(report.issues.first?.message.contains("write-ahead log (\(copy)-wal) is missing") == true, "\(report.issues)")
        let (events, error) = readUntilError([copyDirectory])
        XCTAssertNil(error)
        XCTAssertEqual(events, [], "the committed events were only in the lost WAL")
    }

    func testGarbageAndEmptyFilesAreNotJournals() throws {
        let directory = makeTemporaryDirectory(self)
        let garbage = directory + "/garbage.navlog"
        let empty = directory + "/empty.navlog"
        var random = SystemRandomNumberGenerator()
        try Data((0..<20_000).map { _ in UInt8.random(in: 0...255, using: &random) }).write(to: URL(fileURLWithPath: garbage))
        _ = FileManager.default.createFile(atPath: empty, contents: Data())

        XCTAssertThrowsError(try JournalReader(paths: [empty]).allEvents()) { error in
            XCTAssertEqual("\(error)", "\(empty) is not a navlog journal: the file is empty")
        }
        XCTAssertThrowsError(try JournalReader(paths: [garbage]).allEvents()) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(garbage) is not a navlog journal: not an SQLite database"), "\(error)")
        }
        let report = JournalVerifier.verify(paths: [directory])
        XCTAssertEqual(report.issues.map(\.path).sorted(), [empty, garbage])
        // A writer opening the directory reports them and carries on.
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory))
        XCTAssertEqual(writer.unreadableFiles.count, 2)
        try writer.close()
    }

    func testNewerSchemaVersionIsRefused() throws {
        let (directory, file) = try makeJournal(count: 10)
        let database = try SQLiteDatabase(path: file)
        try database.execute("PRAGMA user_version = 99")
        database.close()
        let expected = "\(file) has journal schema version 99, newer than the \(JournalSchema.currentVersion) this navlog reads; upgrade navlog"
        XCTAssertThrowsError(try JournalReader(paths: [directory]).allEvents()) { error in
            XCTAssertEqual("\(error)", expected)
        }
        XCTAssertEqual(JournalVerifier.verify(paths: [directory]).issues.map(\.message), ["cannot be opened: \(expected)"])
    }
}
