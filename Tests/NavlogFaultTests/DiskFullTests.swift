import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

/// A full disk: the writer reports it, counts the events as dropped, records that, and resumes;
/// on a volume smaller than a large disk's checkpoint interval it keeps its write-ahead log
/// within the free space, so it writes on after every free.
final class DiskFullTests: XCTestCase {
    /// Opens `writer`'s current file and starts a read in it, as `navlog tail -f` or the OTLP
    /// push may have: until the returned file is closed, the write-ahead log cannot be reset,
    /// so the writer cannot make room by checkpointing, and a full volume stays full.
    private func holdReading(_ writer: JournalWriter) throws -> JournalFile {
        let reader = try JournalFile.openForReading(path: writer.metrics.currentFile)
        try reader.database.execute("BEGIN")
        XCTAssertNotNil(try reader.database.scalar("SELECT count(*) FROM block"))
        return reader
    }

    func testWriterSurvivesAFullDiskAndRecordsTheLoss() throws {
        let volume = try SmallVolume(self, size: "4m")
        let directory = volume.path + "/journal"
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, flushInterval: .seconds(600)))
        let events = makeEvents(count: 3000)
        events.prefix(100).forEach(writer.record)
        XCTAssertEqual(try writer.flush(), 100)

        let reader = try holdReading(writer)
        try volume.fill()
        events[100..<2100].forEach(writer.record)
        XCTAssertThrowsError(try writer.flush()) { error in
            XCTAssertTrue("\(error)".hasPrefix("writing \(directory)/navlog-0000000000000001-"), "\(error)")
            XCTAssertTrue("\(error)".contains("seq 101...2100 were dropped"), "\(error)")
        }
        let failed = writer.metrics
        XCTAssertEqual(failed.eventsDropped, 2000)
        XCTAssertNotNil(failed.lastError)

        // Space returns; the next commit carries the loss as a journal.dropped record.
        reader.close()
        try volume.free()
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
        let (volume, writer, events, reader) = try fullVolumeAfterAHundredEvents()

        let floor = writer.lastRecordedSeq
        XCTAssertEqual(floor, 100)
        // A full batch wakes the writer by itself; wait until it has failed, with no flush asked.
        events[100..<600].forEach(writer.record)
        let deadline = Date().addingTimeInterval(20)
        while writer.metrics.eventsDropped < 500, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        XCTAssertEqual(writer.metrics.eventsDropped, 500)

        // Space comes back before the flush is asked for: the batch it waits for (the loss
        // record) commits, yet 101...600 are gone.
        reader.close()
        try volume.free()
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

    /// A flush that names its own seqs (as a `flush_per_request` ingest does) fails only when
    /// those were lost. Failing it for another request's lost events, in an earlier failed
    /// write or in the very batch it waited for, had the daemon release an Idempotency-Key
    /// whose events were journaled, so a retry journaled them twice.
    func testAFlushCoveringItsOwnSeqsFailsOnlyWhenThoseWereLost() async throws {
        // The first request's events commit before the disk fills.
        let (volume, writer, events, reader) = try fullVolumeAfterAHundredEvents()
        let directory = volume.path + "/journal"
        let first: ClosedRange<UInt64> = 1...100

        // A second request's full batch fails with no flush asked.
        events[100..<600].forEach(writer.record)
        let second: ClosedRange<UInt64> = 101...600
        let deadline = Date().addingTimeInterval(20)
        while writer.metrics.eventsDropped < 500, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        XCTAssertEqual(writer.metrics.eventsDropped, 500)

        // A third request's events are pending when the first request's flush is asked for:
        // they fail in the batch that flush waits for.
        events[600..<700].forEach(writer.record)
        let third: ClosedRange<UInt64> = 601...700
        let committed = try await writer.flush(covering: first)
        XCTAssertEqual(committed, 100, "the first request's events stay committed, whatever happened to the others")
        XCTAssertEqual(writer.metrics.eventsDropped, 600, "the batch it waited for did fail")
        for (seqs, lost) in [(second, "seq 101...600"), (third, "seq 601...")] {
            do {
                try await writer.flush(covering: seqs)
                XCTFail("a flush covering its own lost events \(seqs) succeeded")
            } catch {
                XCTAssertTrue("\(error)".contains(lost), "\(error)")
            }
        }
        // A floor below the others' events still hears of them: that caller cannot tell its own.
        do {
            try await writer.flush(after: 0)
            XCTFail("a flush after floor 0 succeeded though events after it were lost")
        } catch {}

        reader.close()
        try volume.free()
        try writer.close()
        let stored = try JournalReader(paths: [directory]).allEvents()
        XCTAssertEqual(Array(stored.map(\.seq).prefix(100)), Array(first))
        XCTAssertFalse(stored.contains { second.contains($0.seq) || third.contains($0.seq) })
    }

    /// 4 MiB and one commit per flush of five events, as `flush_per_request` commits: filled
    /// and freed twice, the writer commits again right after each free, its write-ahead log
    /// stays within a quarter of the space left (it filled the volume within 250 commits
    /// when it was checkpointed every 16 MB), and journal.dropped records account for what
    /// was lost while full.
    func testSmallVolumeFilledAndFreedTwiceCommitsAgainAfterEachFree() throws {
        let volume = try SmallVolume(self, size: "4m")
        let directory = volume.path + "/journal"
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, flushInterval: .seconds(600)))
        let events = makeEvents(count: 500)
        var recorded = 0
        func commitFive() -> Bool {
            for _ in 0..<5 {
                writer.record(events[recorded % events.count])
                recorded += 1
            }
            return (try? writer.flush()) != nil
        }
        for _ in 0..<100 { XCTAssertTrue(commitFive()) }
        var figures: [String] = []
        for cycle in 1...2 {
            try volume.fill()
            var commitsWhileFull = 0
            while commitFive() {
                commitsWhileFull += 1
                guard commitsWhileFull < 20_000 else { return XCTFail("cycle \(cycle): the volume never got full") }
            }
            let freed = try volume.free()
            var largestLog: Int64 = 0
            for commit in 1...2000 {
                guard commitFive() else {
                    return XCTFail("cycle \(cycle): commit \(commit) after the free failed: \(writer.metrics.lastError ?? "")")
                }
                largestLog = max(largestLog, JournalDirectory.fileSize(writer.metrics.currentFile + "-wal"))
            }
            XCTAssertLessThanOrEqual(largestLog, (4 << 20) / 4 + (64 << 10), "cycle \(cycle): the log outgrew its share of the volume")
            figures.append("cycle \(cycle): \(commitsWhileFull) commits into the filled volume before one failed, \(freed >> 10) KiB freed, "
                           + "2000 commits after the free, largest WAL \(largestLog >> 10) KiB")
        }
        try writer.close()

        let stored = try JournalReader(paths: [directory]).allEvents()
        let records = stored.filter { $0.kind == .journalDropped }
        XCTAssertEqual(records.map { $0.payload["count"] }, [5, 5], "one record for the five events of each failed commit")
        XCTAssertEqual(stored.count - records.count, recorded - 10)
        let report = JournalVerifier.verify(paths: [directory])
        XCTAssertTrue(report.isHealthy, "\(report.issues)")
        FileHandle.standardError.write(Data("fault: journal on a 4 MiB volume: \(figures.joined(separator: "; ")); verify passed\n".utf8))
    }

    /// Closing commits what is still queued: when it cannot (the volume is full and a reader
    /// keeps the log from giving its space back), `close` throws, naming the file and the lost seqs.
    func testClosingOnAFullVolumeThrowsNamingTheLostEvents() throws {
        let volume = try SmallVolume(self, size: "4m")
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: volume.path + "/journal", flushInterval: .seconds(600)))
        let events = makeEvents(count: 110)
        events.prefix(100).forEach(writer.record)
        XCTAssertEqual(try writer.flush(), 100)
        let file = writer.metrics.currentFile
        let reader = try holdReading(writer)
        defer { reader.close() }
        try volume.fill()
        events.suffix(10).forEach(writer.record)
        XCTAssertThrowsError(try writer.close()) { error in
            XCTAssertTrue("\(error)".hasPrefix("writing \(file) failed; events seq 101...110 were dropped: "), "\(error)")
        }
    }

    /// The blocking flush, which an async context would not pick by itself.
    /// A writer on a 4 MiB volume (batches of 500, no timed flush) that committed 100 events,
    /// then found the volume full, with a read held open so that it stays full.
    private func fullVolumeAfterAHundredEvents() throws -> (SmallVolume, JournalWriter, [Event], JournalFile) {
        let volume = try SmallVolume(self, size: "4m")
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: volume.path + "/journal", flushInterval: .seconds(600),
                                                                           batchSize: 500))
        let events = makeEvents(count: 2000)
        events.prefix(100).forEach(writer.record)
        XCTAssertEqual(try blockingFlush(writer), 100)
        let reader = try holdReading(writer)
        try volume.fill()
        return (volume, writer, events, reader)
    }

    private func blockingFlush(_ writer: JournalWriter) throws -> UInt64 {
        try writer.flush()
    }
}
