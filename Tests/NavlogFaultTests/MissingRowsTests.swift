import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

/// Rows deleted from a journal file: `verify` names every table a reader needs rows of, and
/// readers report the seqs missing without a `journal.dropped` record (``JournalGap``) while
/// still handing out the events that are there.
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

    /// Reads every event of `paths` one by one; returns them and the gaps.
    private func read(_ paths: [String], filter: EventFilter = EventFilter()) throws -> (events: [Event], gaps: [JournalGap]) {
        var iterator = JournalReader(paths: paths).events(matching: filter)
        var events: [Event] = []
        while let event = try iterator.next() { events.append(event) }
        return (events, iterator.gaps)
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
            ("migration", ": table migration holds 0 of the 3 schema steps the file's version counts", nil),
        ]
        for expectation in expectations {
            let (directory, file) = try makeJournal()
            XCTAssertTrue(JournalVerifier.verify(paths: [directory]).isHealthy, expectation.table)
            try execute("DELETE FROM \(expectation.table)", in: file)
            let report = JournalVerifier.verify(paths: [directory])
            XCTAssertEqual(report.issues.map(\.description), [file + expectation.issue], expectation.table)
            do {
                _ = try read([directory])
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

    // MARK: - Readers

    func testReadersReportSeqsMissingWithoutADroppedRecordAndReadTheRest() throws {
        let (directory, file) = try makeJournal()
        try execute("DELETE FROM block WHERE first_seq IN (1, 301, 901)", in: file)
        let expected = [301...400, 1...100, 901...1000].sorted { $0.lowerBound < $1.lowerBound }.map { JournalGap(file: file, seqs: $0) }

        let (events, gaps) = try read([directory])
        XCTAssertEqual(events.count, 700, "the events that are there are read")
        XCTAssertEqual(gaps, expected, "blocks missing at the start and end of a closed file, and between blocks")
        XCTAssertEqual(gaps.first?.description, "\(file): seq 1...100 (100 events) missing, and no journal.dropped record accounts for them")
        // A filter reads fewer blocks, not fewer gaps; a cursor leaves out the seqs before it.
        XCTAssertEqual(try read([directory], filter: EventFilter(sessions: ["s-3"])).gaps, expected)
        XCTAssertEqual(try read([directory], filter: EventFilter(after: JournalCursor(seq: 350))).gaps,
                       [JournalGap(file: file, seqs: 351...400), JournalGap(file: file, seqs: 901...1000)])
        // Reading a page at a time on another thread finds the same.
        let pages = JournalPrefetcher(reader: JournalReader(paths: [directory]))
        var paged = 0
        try pages.forEach { paged += $0.events.count }
        XCTAssertEqual(paged, 700)
        XCTAssertEqual(pages.gaps, expected)
    }

    func testAGapBetweenFilesIsNamedAfterTheFileBeforeIt() throws {
        let directory = makeTemporaryDirectory(self)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, flushInterval: .seconds(600)))
        let events = makeEvents(count: 300)
        for range in [0..<100, 100..<200, 200..<300] {
            events[range].forEach(writer.record)
            try writer.rotate()
        }
        try writer.close()
        let files = JournalDirectory.listFiles(in: directory)
        XCTAssertEqual(files.count, 4, "three rotated files and the one close ended")
        XCTAssertEqual(try read([directory]).gaps, [], "rotation leaves no gap")
        JournalDirectory.delete(files[1])
        let (events2, gaps) = try read([directory])
        XCTAssertEqual(events2.count, 200)
        XCTAssertEqual(gaps, [JournalGap(file: files[0], seqs: 101...200)])
        XCTAssertEqual(JournalVerifier.verify(paths: [directory]).issues.map(\.description),
                       ["\(files[0]) (seq 101...200): seq gap not accounted for by any journal.dropped record"])
        XCTAssertEqual(try read([files[2]]).gaps, [], "a file read alone has no gap of its own")
    }

    /// A `journal.dropped` record that came from elsewhere (ingested, or pushed by `navlog push`)
    /// names seqs of the journal it was written in: it accounts for nothing here, and a gap in
    /// this journal's own seqs that it happens to name is still found.
    func testAnotherRunsJournalDroppedRecordAccountsForNoSeqsOfThisJournal() throws {
        let directory = makeTemporaryDirectory(self)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, blockSize: 100))
        makeEvents(count: 1000).forEach(writer.record)
        try writer.flush()
        let pushed = Event(wallNanoseconds: 1_800_000_001_000_000_000, monotonicNanoseconds: 1, run: "r-elsewhere",
                           session: JournalWriter.bookkeepingSession, sessionSeq: 1, kind: .journalDropped, subject: "JournalWriter",
                           payload: ["count": 100, "first_seq": 301, "last_seq": 400, "reason": "queue full"])
        try writer.recordForeign([pushed], runLabels: ["source": "test"])
        try writer.close()
        let file = try XCTUnwrap(JournalDirectory.listFiles(in: directory).first)
        try execute("DELETE FROM block WHERE first_seq = 301", in: file)

        let expected = [JournalGap(file: file, seqs: 301...400)]
        XCTAssertEqual(try read([directory]).gaps, expected)
        let pages = JournalPrefetcher(reader: JournalReader(paths: [directory]))
        try pages.forEach { _ in }
        XCTAssertEqual(pages.gaps, expected)
        XCTAssertTrue(JournalVerifier.verify(paths: [directory]).issues.map(\.description)
            .contains("\(file) (seq 301...400): seq gap not accounted for by any journal.dropped record"))
    }

    func testSeqsAJournalDroppedRecordAccountsForAreNoGap() throws {
        let directory = makeTemporaryDirectory(self)
        let writer = try JournalWriter(configuration: JournalConfiguration(
            directory: directory, flushInterval: .seconds(600), queueCapacity: 10, backpressure: .drop))
        makeEvents(count: 100).forEach(writer.record)
        try writer.flush()
        makeEvents(count: 5).forEach(writer.record)
        try writer.close()
        let (events, gaps) = try read([directory])
        XCTAssertEqual(events.map(\.seq), Array(1...10) + [101] + Array(102...106))
        XCTAssertEqual(gaps, [])
        let pages = JournalPrefetcher(reader: JournalReader(paths: [directory]))
        try pages.forEach { _ in }
        XCTAssertEqual(pages.gaps, [])
    }
}
