import Foundation
import NavlogEvents
import NavlogJournal
import NavlogRemote
import NavlogTestSupport
import Synchronization
import XCTest

/// Remote recording through crashes: apps record through `RemoteEventSink` while the daemon
/// they send to is killed with `kill -9` and restarted; every event lands exactly once.
final class IngestFaultTests: XCTestCase {
    private func report(_ text: String) {
        FileHandle.standardError.write(Data("fault: \(text)\n".utf8))
    }

    func testTwentyClientsThroughFiveKillNinesDeliverEveryEventExactlyOnce() throws {
        let clients = 20
        let perClient = 20_000
        let kills = 5
        let chunk = perClient / (kills + 1)
        let journal = try makeSharedDirectory(self, "ingest")
        let home = try makeSharedDirectory(self, "ingest-home")
        var port = 0
        func startDaemon() throws -> DaemonHarness {
            try DaemonHarness(self, overrides: [
                "journal": ["directory": .string(journal), "flush_interval_ms": 20, "durability": "flush_per_request"],
                "listen": ["unix_socket": .string(home + "/navlogd.sock"), "tcp": ["host": "127.0.0.1", "port": .int(Int64(port))]],
                "ingest": ["events_per_second": 10_000_000, "max_open_sessions": 100_000],
            ], directory: home)
        }
        var daemon = try startDaemon()
        port = try XCTUnwrap(daemon.tcpPort)
        let sinks = try (0..<clients).map { index in
            try RemoteEventSink(configuration: RemoteSinkConfiguration(
                url: "http://127.0.0.1:\(port)", source: "client-\(index)", spoolDirectory: home + "/spool-\(index)",
                flushInterval: .milliseconds(20), retryInitial: .milliseconds(20), retryMaximum: .milliseconds(300)))
        }
        let events = makeEvents(count: perClient, sessions: 10)
        let slowestRecord = Atomic<UInt64>(0)
        /// Records events `range` of every client, each client on its own thread, as apps would.
        func record(_ range: Range<Int>) {
            DispatchQueue.concurrentPerform(iterations: clients) { client in
                var slowest: UInt64 = 0
                for event in events[range] {
                    let start = DispatchTime.now().uptimeNanoseconds
                    sinks[client].record(event)
                    slowest = max(slowest, DispatchTime.now().uptimeNanoseconds - start)
                }
                slowestRecord.max(slowest, ordering: .relaxed)
            }
        }
        let started = Date()
        record(0..<chunk)
        for kill in 1...kills {
            // Kill while the clients are sending: once some of what is pending has arrived.
            let target = sinks.map(\.statistics.eventsSent).reduce(0, +) + UInt64(clients * chunk / 4)
            while sinks.map(\.statistics.eventsSent).reduce(0, +) < target {
                _ = sinks[0].flush(timeout: .milliseconds(20))
            }
            XCTAssertEqual(daemon.terminate(signal: SIGKILL), SIGKILL)
            // The apps go on recording with the daemon gone: record() never waits for it.
            record((kill * chunk)..<(kill == kills ? perClient : (kill + 1) * chunk))
            daemon = try startDaemon()
        }
        for (index, sink) in sinks.enumerated() {
            XCTAssertTrue(sink.flush(timeout: .seconds(120)), "client \(index): \(sink.statistics)")
        }
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(daemon.terminate(), 0)

        let verified = try verifyJournal(journal)
        XCTAssertEqual(verified.status, 0, verified.output)
        var seen: [String: Set<String>] = [:]
        var duplicates = 0
        let runs = Dictionary(uniqueKeysWithValues: sinks.enumerated().map { ($1.spool.runID, $0) })
        for event in try JournalReader(paths: [journal]).allEvents() where runs[event.run] != nil {
            if !seen[event.run, default: []].insert("\(event.session)#\(event.sessionSeq)").inserted { duplicates += 1 }
        }
        let expected = Set(events.map { "\($0.session)#\($0.sessionSeq)" })
        XCTAssertEqual(duplicates, 0)
        for (run, client) in runs {
            XCTAssertEqual(seen[run]?.count, perClient, "client \(client)")
            XCTAssertEqual(seen[run], expected, "client \(client)")
            XCTAssertEqual(sinks[client].statistics.droppedBySpool, 0, "client \(client)")
        }
        let replayed = sinks.map(\.statistics.batchesReplayed).reduce(0, +)
        let failed = sinks.map(\.statistics.failedAttempts).reduce(0, +)
        for sink in sinks { sink.close(timeout: .milliseconds(100)) }
        report(String(format: "remote ingest: %d clients x %d events through %d kill -9s in %.1f s: 0 lost, %d duplicates, "
                      + "%d batches answered from their keys, %d failed attempts retried, slowest record() %.1f ms",
                      clients, perClient, kills, seconds, duplicates, Int(replayed), Int(failed), Double(slowestRecord.load(ordering: .relaxed)) / 1e6))
    }
}
