import Foundation
import NavlogEvents
import NavlogJournal
import NavlogRemote
import NavlogTestSupport
import XCTest

/// `RemoteEventSink`: what an app records reaches the daemon once, and waits in the spool
/// while the daemon is away.
final class RemoteEventSinkTests: XCTestCase {
    private func makeSink(port: Int, spool: String, spoolBytes: Int64 = 64 << 20) throws -> RemoteEventSink {
        let sink = try RemoteEventSink(configuration: RemoteSinkConfiguration(
            url: "http://127.0.0.1:\(port)", source: "unit-test", spoolDirectory: spool, spoolBytes: spoolBytes,
            flushInterval: .milliseconds(20), retryInitial: .milliseconds(20), retryMaximum: .milliseconds(200)))
        addTeardownBlock { sink.close(timeout: .milliseconds(100)) }
        return sink
    }

    /// The events of run `run` in the daemon's journal, once committed.
    private func delivered(_ daemon: DaemonHarness, run: String) throws -> [Event] {
        XCTAssertEqual(try daemon.request("POST", "/v1/journal/rotate").status, 200)
        return try JournalReader(paths: [daemon.directory + "/journal"]).allEvents().filter { $0.run == run }
    }

    func testRecordedEventsReachTheDaemonOnceAndFlushWaitsForThem() throws {
        let daemon = try DaemonHarness(self)
        let sink = try makeSink(port: try XCTUnwrap(daemon.tcpPort), spool: makeTemporaryDirectory(self) + "/spool")
        let events = makeEvents(count: 5000)
        for event in events { sink.record(event) }
        XCTAssertTrue(sink.flush(timeout: .seconds(60)), "\(sink.statistics)")
        let stored = try delivered(daemon, run: sink.spool.runID)
        // In the daemon, in order, each field the app's: only seq and run are the journals'.
        assertEventsEqual(stored.map { var event = $0; event.seq = 0; return event },
                          events.map { var event = $0; event.run = sink.spool.runID; return event })
        XCTAssertEqual(sink.statistics.eventsSent, 5000)
        let run = try XCTUnwrap(JournalReader(paths: [daemon.directory + "/journal"]).runs().first { $0.id == sink.spool.runID })
        XCTAssertEqual(run.labels, ["source": "unit-test"])
    }

    func testWhileTheDaemonIsAwayEventsWaitInTheSpoolEvenAcrossARestartOfTheApp() throws {
        let first = try DaemonHarness(self)
        let port = try XCTUnwrap(first.tcpPort)
        XCTAssertEqual(first.terminate(), 0)
        let spool = makeTemporaryDirectory(self) + "/spool"
        let sink = try makeSink(port: port, spool: spool)
        let events = makeEvents(count: 3000)
        // Recording does not wait for the network: all of it returns with nobody listening.
        for event in events.prefix(2000) { sink.record(event) }
        XCTAssertFalse(sink.flush(timeout: .milliseconds(300)))
        XCTAssertGreaterThan(sink.statistics.failedAttempts, 0)
        let firstRun = sink.spool.runID
        sink.close(timeout: .milliseconds(100))
        // The app starts again and records the rest; the spool still holds the first part.
        let again = try makeSink(port: port, spool: spool)
        for event in events.suffix(1000) { again.record(event) }
        let daemon = try DaemonHarness(self, overrides: ["listen": ["unix_socket": .string(first.directory + "/navlogd.sock"),
                                                                    "tcp": ["host": "127.0.0.1", "port": .int(Int64(port))]]],
                                       directory: first.directory)
        XCTAssertTrue(again.flush(timeout: .seconds(60)), "\(again.statistics)")
        let before = try delivered(daemon, run: firstRun)
        let after = try delivered(daemon, run: again.spool.runID)
        XCTAssertEqual(before.map { "\($0.session)#\($0.sessionSeq)" }, events.prefix(2000).map { "\($0.session)#\($0.sessionSeq)" })
        XCTAssertEqual(after.map { "\($0.session)#\($0.sessionSeq)" }, events.suffix(1000).map { "\($0.session)#\($0.sessionSeq)" })
    }

    func testAFullSpoolDropsItsOldestFilesAndSaysHowManyEvents() throws {
        let first = try DaemonHarness(self)
        let port = try XCTUnwrap(first.tcpPort)
        XCTAssertEqual(first.terminate(), 0)
        let spool = makeTemporaryDirectory(self) + "/spool"
        let sink = try makeSink(port: port, spool: spool, spoolBytes: 1 << 20)
        // About 4 MB of spool for a bound of 1 MiB (and files of 256 KiB): the oldest go.
        let total = 150_000
        for (index, event) in makeEvents(count: total, sessions: 50).enumerated() {
            sink.record(event)
            if index % 20_000 == 19_999 { XCTAssertNoThrow(try sink.spool.flush()) }
        }
        XCTAssertNoThrow(try sink.spool.rotate())
        let daemon = try DaemonHarness(self, overrides: ["listen": ["unix_socket": .string(first.directory + "/navlogd.sock"),
                                                                    "tcp": ["host": "127.0.0.1", "port": .int(Int64(port))]]],
                                       directory: first.directory)
        XCTAssertTrue(sink.flush(timeout: .seconds(120)), "\(sink.statistics)")
        let stored = try delivered(daemon, run: sink.spool.runID)
        let records = stored.filter { $0.kind == .journalDropped && $0.session == RemoteEventSink.bookkeepingSession }
        let lost = records.compactMap { $0.payload["count"]?.intValue }.reduce(0, +)
        let bookkeeping: Set = [RemoteEventSink.bookkeepingSession, JournalWriter.bookkeepingSession]
        let received = stored.filter { !bookkeeping.contains($0.session) }
        // A spool whose queue is full drops rather than blocks the recording thread (a loaded
        // host's writer thread can fall behind 150,000 quick records); those are counted too.
        let queueDrops = Int(sink.spool.metrics.eventsDropped)
        XCTAssertGreaterThan(lost, 0, "\(sink.statistics)")
        XCTAssertEqual(received.count + Int(lost) + queueDrops, total, "\(sink.statistics), \(queueDrops) dropped from the queue")
        XCTAssertEqual(UInt64(lost), sink.statistics.eventsLostFromSpool)
        // What arrived is from the newest part, in the order it was recorded.
        let events = makeEvents(count: total, sessions: 50).map { "\($0.session)#\($0.sessionSeq)" }
        let position = Dictionary(uniqueKeysWithValues: events.enumerated().map { ($1, $0) })
        let positions = received.compactMap { position["\($0.session)#\($0.sessionSeq)"] }
        XCTAssertEqual(positions.count, received.count, "every event received was recorded")
        XCTAssertEqual(positions, positions.sorted(), "in the order recorded")
        // The oldest files went, not the newest. (Not every one of the oldest events is gone:
        // the batch in flight while the daemon was away is retried from memory, and a file the
        // uploader had open is still read to its end after it is removed.)
        XCTAssertGreaterThan(positions.last ?? 0, total - 20_000, "the newest arrived")
        XCTAssertLessThan(positions.count, total - Int(lost) / 2, "what was lost is not what arrived")
    }

    /// A spool whose retention removes files while the daemon takes batches, and whose queue
    /// overflows: every event is delivered, counted lost by the sink (files removed unsent) or
    /// dropped by the spool's writer (seqs its own `journal.dropped` records account for), and
    /// exactly one of the three, however the removals fall between the uploader's reads.
    func testFilesRemovedWhileTheDaemonTakesBatchesAreCountedOnce() throws {
        let daemon = try DaemonHarness(self)
        let port = try XCTUnwrap(daemon.tcpPort)
        let spool = makeTemporaryDirectory(self) + "/spool"
        let sink = try makeSink(port: port, spool: spool, spoolBytes: 1 << 20)
        let total = 150_000
        for event in makeEvents(count: total, sessions: 50) { sink.record(event) }
        XCTAssertNoThrow(try sink.spool.rotate())
        XCTAssertTrue(sink.flush(timeout: .seconds(120)), "\(sink.statistics)")
        let stored = try delivered(daemon, run: sink.spool.runID)
        let lost = stored.filter { $0.kind == .journalDropped && $0.session == RemoteEventSink.bookkeepingSession }
            .compactMap { $0.payload["count"]?.intValue }.reduce(0, +)
        let bookkeeping: Set = [RemoteEventSink.bookkeepingSession, JournalWriter.bookkeepingSession]
        let received = stored.filter { !bookkeeping.contains($0.session) }
        let keys = received.map { "\($0.session)#\($0.sessionSeq)" }
        XCTAssertEqual(Set(keys).count, keys.count, "no event arrived twice")
        XCTAssertEqual(received.count + Int(lost) + Int(sink.spool.metrics.eventsDropped), total, "\(sink.statistics)")
        XCTAssertEqual(UInt64(lost), sink.statistics.eventsLostFromSpool)
    }
}
