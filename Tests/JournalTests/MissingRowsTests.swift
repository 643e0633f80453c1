import Foundation
import Navigation
import XCTest

@testable import Journal

/// Rows deleted from a journal file: `verify` names every table a reader needs rows of.
final class MissingRowsTests: XCTestCase {
    /// 1000 events in blocks of 100 over 25 sessions, closed; returns the directory and its file.
    private func makeJournal() throws -> (directory: String, file: String) {
        let directory = makeTemporaryDirectory(self, name: name)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, blockSize: 100))
        makeEvents(count: 1000).forEach(writer.record)
        try writer.close()
        return (directory, try XCTUnwrap(JournalDirectory.listFiles(in: directory).first))
    }

    private func execute(_ sql: String, in file: String) throws {
        let database = try SQLiteDatabase(path: file)
        try database.execute(sql)
        database.close()
    }

    // MARK: - verify

    func testVerifyNamesEveryTableWhoseRowsAReaderNeedsAndTheReaderFailsToo() throws {
        let expectations: [(table: String, issue: String, readerError: String?)] = [
            ("session", " (seq 1...1000): 1000 references from events to rows missing from table session: ids 1, 2, 3, 4, 5 and 20 more",
             "block 1 refers to unknown session 1"),
            ("run", ": 25 session rows (ids 1, 2, 3, 4, 5 and 20 more) refer to rows missing from table run: ids 1",
             "block 1 refers to unknown session 1"),
            ("kind", " (seq 1...1000): 1000 references from events to rows missing from table kind: ids 1, 2, 3, 4, 5 and 14 more",
             "block 1 refers to unknown kind 1"),
            ("string", " (seq 1...1000): 1950 references from events to rows missing from table string: ids 1, 2, 3, 4, 5 and 13 more",
             "block 1 refers to unknown string 1"),
            ("meta", ": table meta lacks format, created_at_ns, first_seq, run", nil),
            ("migration", ": table migration holds 0 of the 1 schema steps the file's version counts", nil),
        ]
        for expectation in expectations {
            let (directory, file) = try makeJournal()
            XCTAssertTrue(JournalVerifier.verify(paths: [directory]).isHealthy, expectation.table)
            try execute("DELETE FROM \(expectation.table)", in: file)
            let report = JournalVerifier.verify(paths: [directory])
            XCTAssertEqual(report.issues.map(\.description), [file + expectation.issue], expectation.table)
            do {
                _ = try JournalReader(paths: [directory]).allEvents()
                XCTAssertNil(expectation.readerError, "\(expectation.table): the reader read on")
            } catch {
                XCTAssertTrue("\(error)".hasSuffix("(\(expectation.readerError ?? "no error"))"), "\(expectation.table): \(error)")
            }
        }
    }

    func testVerifyFindsDeletedBlockAndIndexRows() throws {
        let (directory, file) = try makeJournal()
        try execute("DELETE FROM block WHERE first_seq = 301", in: file)
        XCTAssertEqual(JournalVerifier.verify(paths: [directory]).issues.map(\.description), [
            "\(file): 25 event index rows point at no block",
            "\(file): closed with 1000 events but holds 900",
            "\(file) (seq 301...400): seq gap not accounted for by any journal.dropped record",
        ])
        let (other, otherFile) = try makeJournal()
        try execute("DELETE FROM event WHERE block = 4", in: otherFile)
        XCTAssertEqual(JournalVerifier.verify(paths: [other]).issues.map(\.description), [
            "\(otherFile) (seq 301...400): block 4 holds events of 25 sessions but its 0 event index rows disagree",
        ])
    }
}
