import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

/// Pages read ahead on a thread of their own: the same events, in the same order, as the
/// one-at-a-time iterator; errors name the file; dropping the reader early stops its thread.
final class PrefetcherTests: XCTestCase {
    /// Writes `count` events into `files` files (rotating explicitly) of blocks of 100.
    private func makeJournal(count: Int, files: Int, suffix: String = "") throws -> String {
        let directory = makeTemporaryDirectory(self, name: name + suffix)
        let events = makeEvents(count: count)
        let perFile = (count + files - 1) / files
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, blockSize: 100))
        for (index, event) in events.enumerated() {
            if index > 0, index % perFile == 0 { try writer.rotate() }
            writer.record(event)
        }
        try writer.close()
        return directory
    }

    func testPagesHoldEveryEventInOrderAcrossFiles() throws {
        let directory = try makeJournal(count: 2500, files: 3)
        let files = JournalReader(paths: [directory]).files()
        XCTAssertEqual(files.count, 3)
        let expected = try JournalReader(paths: [directory]).allEvents()
        XCTAssertEqual(expected.count, 2500)

        var events: [Event] = []
        var fileIndices: [Int] = []
        try JournalPrefetcher(files: files, depth: 2).forEach { page in
            XCTAssertFalse(page.events.isEmpty)
            XCTAssertEqual(page.file, files[page.fileIndex])
            fileIndices.append(page.fileIndex)
            events += page.events
        }
        assertEventsEqual(events, expected)
        XCTAssertEqual(fileIndices, fileIndices.sorted(), "files come one after another")
        XCTAssertEqual(Set(fileIndices), [0, 1, 2])
    }

    func testFilterAppliesAndNextReturnsNilForEver() throws {
        let directory = try makeJournal(count: 1200, files: 1)
        let filter = EventFilter(sessions: ["s-3"], kinds: [.screenPush, .viewModelChange])
        let expected = try JournalReader(paths: [directory]).allEvents(matching: filter)
        XCTAssertFalse(expected.isEmpty)
        let pages = JournalPrefetcher(files: JournalReader(paths: [directory]).files(), filter: filter)
        var events: [Event] = []
        while let page = try pages.next() { events += page.events }
        assertEventsEqual(events, expected)
        XCTAssertNil(try pages.next())
        XCTAssertNil(try pages.next())
    }

    func testBatchesOfSeveralSourcesMergeBySeq() throws {
        let first = try makeJournal(count: 700, files: 1)
        let second = try makeJournal(count: 500, files: 2, suffix: "second")
        let expected = try JournalReader(paths: [first, second]).allEvents()
        var iterator = JournalReader(paths: [first, second]).events()
        var events: [Event] = []
        while let batch = try iterator.nextBatch(limit: 64) {
            XCTAssertLessThanOrEqual(batch.count, 64)
            events += batch
        }
        assertEventsEqual(events, expected)
        XCTAssertEqual(events.map(\.seq), events.map(\.seq).sorted())
    }

    func testDamagedBlockEndsTheStreamWithAnErrorNamingTheFile() throws {
        let directory = try makeJournal(count: 1000, files: 1)
        let file = try XCTUnwrap(JournalReader(paths: [directory]).files().first)
        let database = try SQLiteDatabase(path: file)
        try database.execute("UPDATE block SET crc32 = crc32 + 1 WHERE first_seq = 501")
        database.close()

        let pages = JournalPrefetcher(files: [file])
        var seqs: [UInt64] = []
        var failure: (any Error)?
        do {
            while let page = try pages.next() { seqs += page.events.map(\.seq) }
        } catch {
            failure = error
        }
        XCTAssertEqual(seqs, Array(1...500), "the pages before the damage are handed out first")
        let message = try XCTUnwrap(failure.map { "\($0)" })
        XCTAssertTrue(message.hasPrefix("\(file) is damaged: the block holding seq 501...600"), message)
        XCTAssertThrowsError(try pages.next(), "the error stays")
    }

    func testDroppingThePrefetcherEarlyStopsItsThread() throws {
        let directory = try makeJournal(count: 3000, files: 2)
        let files = JournalReader(paths: [directory]).files()
        for _ in 0..<20 {
            // Holds at most one page ahead; deinit must cancel the waiting reader and join it.
            let pages = JournalPrefetcher(files: files, depth: 1)
            XCTAssertNotNil(try pages.next())
        }
        let pages = JournalPrefetcher(files: files, depth: 1)
        _ = try pages.next()
        pages.cancel()
        var later = 0
        while try pages.next() != nil { later += 1 }
        XCTAssertLessThanOrEqual(later, 1, "at most the page already queued comes after cancel()")
    }
}
