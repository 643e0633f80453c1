import Foundation
import NavlogDaemon
import NavlogEvents
import NavlogTestSupport
import NavlogTesting
import Synchronization
import XCTest

@testable import NavlogJournal

/// The fault suite: `navlogd` under load through kill -9, a full disk, its journal directory
/// removed or read-only, a wall clock that jumps back, a storm of SIGHUPs, and 10,000 sessions.
/// In each case the daemon keeps serving or stops with a clear message, and `navlog verify`
/// passes on what is left. `scripts/faults` runs this class; figures go to stderr as `fault:`.
final class DaemonFaultTests: XCTestCase {
    private func report(_ text: String) {
        FileHandle.standardError.write(Data("fault: \(text)\n".utf8))
    }

    private func runID(_ daemon: DaemonHarness) throws -> String {
        try XCTUnwrap(try json(daemon.request("GET", "/v1/health").body)["run"]?.stringValue)
    }

    // MARK: - kill -9

    func testKillNineUnderLoadRepeatedlyKeepsEveryAcknowledgedAndFlushedAction() throws {
        let journal = try makeSharedDirectory(self, "kill")
        let rounds = 12
        let started = Date()
        var totalAcknowledged = 0
        for round in 1...rounds {
            // Odd rounds answer only after the commit (flush_per_request): every acknowledged
            // action must be there. Even rounds flush on the interval: a kill may cost the last
            // interval, but what is there has no holes.
            let isDurable = round % 2 == 1
            let daemon = try DaemonHarness(self, overrides: ["journal": [
                "directory": .string(journal), "flush_interval_ms": 20,
                "durability": .string(isDurable ? "flush_per_request" : "flush_interval"),
            ]])
            let run = try runID(daemon)
            let clients = LoadClients(socketPath: daemon.socketPath, count: 3)
            XCTAssertTrue(clients.waitForAcknowledgements(30 + round * 3), "round \(round): no load:\n\(daemon.log)")
            XCTAssertEqual(daemon.terminate(signal: SIGKILL), SIGKILL)
            clients.stop()

            let verified = try verifyJournal(journal)
            XCTAssertEqual(verified.status, 0, "round \(round): \(verified.output)")
            let events = try journalEvents(journal)
            let journaled = journaledActions(events, run: run)
            let acknowledged = clients.acknowledged()
            totalAcknowledged += acknowledged.values.reduce(0, +)
            if isDurable {
                assertAcknowledgedArePresent(acknowledged, journaled, "round \(round) (flush_per_request)")
            }
            // No holes: within each session of this run, the events present number 1...n.
            var numbers: [String: [Int64]] = [:]
            for event in events where event["run"]?.stringValue == run {
                numbers[event["session"]?.stringValue ?? "", default: []].append(event["session_seq"]?.intValue ?? 0)
            }
            for (session, seqs) in numbers where session.hasPrefix("s-") {
                XCTAssertEqual(seqs.sorted(), Array(1...Int64(seqs.count)), "round \(round) session \(session) has holes")
            }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: journal).filter { $0.hasSuffix(".navlog") }
        XCTAssertGreaterThanOrEqual(files.filter { $0.contains(".unclean.") }.count, rounds - 1, "each killed run's file is set aside")
        report("kill -9: \(rounds) rounds, \(totalAcknowledged) actions acknowledged, \(files.count) files, "
               + "verify passed every round, \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    }

    // MARK: - Disk full

    /// A daemon that answers after the commit (`flush_per_request`), journaling onto a fresh
    /// tmpfs of `size`; skips the test without root.
    private func startDurableDaemon(onVolumeOf size: String) throws -> (volume: SmallVolume, journal: String, daemon: DaemonHarness) {
        let volume = try SmallVolume(self, size: size)
        let journal = volume.path + "/journal"
        let daemon = try DaemonHarness(self, overrides: ["journal": [
            "directory": .string(journal), "flush_interval_ms": 20, "durability": "flush_per_request",
        ]])
        return (volume, journal, daemon)
    }

    func testDiskFullUnderLoadRefusesWhatItCannotCommitAndRecovers() throws {
        let (volume, journal, daemon) = try startDurableDaemon(onVolumeOf: "3m")
        // Leave about 400 KiB free.
        let filler = volume.path + "/filler"
        XCTAssertTrue(FileManager.default.createFile(atPath: filler, contents: nil))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: filler))
        let chunk = Data(count: 64 << 10)
        while volume.freeBytes > 400 << 10 { try handle.write(contentsOf: chunk) }
        try handle.close()

        let clients = LoadClients(socketPath: daemon.socketPath, count: 3)
        // Until the disk is full: requests whose events cannot be committed are refused (503).
        XCTAssertTrue(clients.waitForRefusal(status: 503), "the disk never filled:\n\(daemon.log)")
        let health = try daemon.request("GET", "/v1/health")
        XCTAssertEqual(health.status, 200, "still serving: \(health.body)")
        XCTAssertTrue(health.body.contains("No space left") || health.body.contains("full"), health.body)

        // Space comes back: the daemon commits again, with a record of what it dropped.
        try FileManager.default.removeItem(atPath: filler)
        clients.mark()
        XCTAssertTrue(clients.waitForAcknowledgements(60, afterMark: true), "no recovery:\n\(daemon.log)\n\(clients.refused.suffix(3))")
        clients.stop()
        XCTAssertEqual(daemon.terminate(), 0, daemon.log)
        let verified = try verifyJournal(journal)
        XCTAssertEqual(verified.status, 0, verified.output)
        let events = try journalEvents(journal)
        assertAcknowledgedArePresent(clients.acknowledged(), journaledActions(events), "disk full")
        XCTAssertTrue(events.contains { $0["kind"]?.stringValue == "journal.dropped" }, "drops are recorded")
        report("disk full: \(clients.acknowledged().values.reduce(0, +)) acknowledged, "
               + "\(clients.refusalCount(status: 503)) refused with 503 while full, recovered, verify passed")
    }

    /// A volume smaller than the WAL would grow between two checkpoints of a large disk: after
    /// each free the daemon writes on (the WAL is checkpointed and truncated within the free
    /// space), and the drops of each full spell are recorded.
    func testSmallVolumeFilledAndFreedTwiceRecoversEachTimeAndClosesCleanly() throws {
        let (volume, journal, daemon) = try startDurableDaemon(onVolumeOf: "4m")
        let run = try runID(daemon)
        let clients = LoadClients(socketPath: daemon.socketPath, count: 2)
        XCTAssertTrue(clients.waitForAcknowledgements(100), "no load:\n\(daemon.log)")
        var figures: [String] = []
        for cycle in 1...2 {
            let refusedBefore = clients.refusalCount(status: 503)
            try volume.fill()
            XCTAssertTrue(clients.waitForRefusal(status: 503, beyond: refusedBefore), "cycle \(cycle): never full:\n\(daemon.log)")
            let freed = try volume.free()
            clients.mark()
            XCTAssertTrue(clients.waitForAcknowledgements(2000, afterMark: true),
                          "cycle \(cycle): \(clients.acknowledged(afterMark: true).values.reduce(0, +)) acknowledged after the free:\n"
                          + "\(daemon.log.suffix(2000))\n\(clients.refused.suffix(3))")
            XCTAssertEqual(clients.refusalCount(status: 503, afterMark: true), 0, "cycle \(cycle): refused after the free")
            let wal = largestWALBytes(journal)
            let free = volume.freeBytes
            XCTAssertLessThanOrEqual(wal, (wal + free) / 4 + (256 << 10), "cycle \(cycle): the WAL outgrew its share of the free space")
            figures.append("cycle \(cycle): \(freed >> 10) KiB freed, \(clients.refusalCount(status: 503) - refusedBefore) refused while full, "
                           + "2000 acknowledged after the free without a refusal, WAL \(wal >> 10) KiB with \(free >> 10) KiB free")
        }
        clients.stop()
        XCTAssertEqual(daemon.terminate(), 0, daemon.log)

        let verified = try verifyJournal(journal)
        XCTAssertEqual(verified.status, 0, verified.output)
        let events = try journalEvents(journal)
        assertAcknowledgedArePresent(clients.acknowledged(), journaledActions(events, run: run), "small volume")
        let drops = events.filter { $0["kind"]?.stringValue == "journal.dropped" }
        XCTAssertGreaterThanOrEqual(drops.count, 2, "a journal.dropped record for each full spell")
        let ends = events.filter { $0["kind"]?.stringValue == "session.end" && $0["run"]?.stringValue == run }
        XCTAssertEqual(ends.count, 2, "session.end of both clients' sessions")
        report("small volume (4 MiB, flush_per_request, 2 clients): " + figures.joined(separator: "; ")
               + "; \(drops.count) journal.dropped records (\(drops.compactMap { $0["payload"]?["count"]?.intValue }.reduce(0, +)) events),"
               + " verify passed, SIGTERM exit 0 with session.end recorded")
    }

    /// Closing needs room for `session.end`: on a full volume whose WAL a reader keeps from
    /// being truncated, the close fails, and the daemon says so and exits 2.
    func testJournalThatCannotBeClosedMakesTheDaemonExitNonZero() throws {
        let (volume, journal, daemon) = try startDurableDaemon(onVolumeOf: "4m")
        let clients = LoadClients(socketPath: daemon.socketPath, count: 2)
        XCTAssertTrue(clients.waitForAcknowledgements(50), "no load:\n\(daemon.log)")
        clients.stop()
        // A reader in the middle of a read (as `navlog tail -f` or the OTLP push may be) keeps
        // the WAL from being reset, so the close has to grow it.
        let file = try XCTUnwrap(JournalDirectory.listFiles(in: journal).last)
        let reader = try JournalFile.openForReading(path: file)
        try reader.database.execute("BEGIN")
        XCTAssertNotNil(try reader.database.scalar("SELECT count(*) FROM block"))
        try volume.fill()

        let status = daemon.terminate()
        try reader.database.execute("COMMIT")
        reader.close()
        XCTAssertEqual(status, 2, daemon.log)
        let last = try XCTUnwrap(daemon.waitForLog(containing: "navlogd: closing journal "), daemon.log)
        XCTAssertTrue(last.hasPrefix("navlogd: closing journal \(journal) failed: "), last)
        XCTAssertTrue(last.contains(file), last)
        report("journal close failed: exit 2, \(last)")
    }

    /// A journal close that cannot finish is given up on at `limits.close_timeout_s`: another
    /// connection holds the file's write lock, so the last commit would wait for SQLite's busy
    /// timeout (5 s); the daemon logs that the `close_journal` stage overran, exits 2 within the
    /// bound, and the next start sets the unfinished file aside and serves.
    func testJournalCloseThatOverrunsItsBoundIsGivenUpOnAndTheDaemonExitsNonZero() throws {
        let journal = try makeSharedDirectory(self, "close-overrun") + "/journal"
        let overrides: [String: JSONValue] = ["journal": ["directory": .string(journal), "flush_interval_ms": 20], "limits": ["close_timeout_s": 1]]
        let daemon = try DaemonHarness(self, overrides: overrides)
        try daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs"}"#)
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions/s-1/actions", body: #"{"type": "select_tab", "tab": "Settings"}"#).status, 200)
        let file = try XCTUnwrap(JournalDirectory.listFiles(in: journal).last)
        let blocker = try SQLiteDatabase(path: file)
        try blocker.execute("BEGIN IMMEDIATE")

        let signalled = Date()
        let status = daemon.terminate()
        let stoppedAfter = Date().timeIntervalSince(signalled)
        try blocker.execute("ROLLBACK")
        blocker.close()
        XCTAssertEqual(status, 2, daemon.log)
        let busyTimeout = Double(SQLiteDatabase.busyTimeoutMilliseconds) / 1000
        XCTAssertLessThan(stoppedAfter, busyTimeout - 1, "the daemon waited on the lock instead of giving up at the 1 s bound:\n\(daemon.log)")
        XCTAssertTrue(daemon.log.contains("msg=\"shutdown stage overran its bound; escalating\" stage=close_journal bound_ms=1000 "
                                          + "bound_key=limits.close_timeout_s"), daemon.log)
        XCTAssertTrue(daemon.log.contains("msg=\"shutdown stage finished\" stage=end_sessions"), daemon.log)
        let last = try XCTUnwrap(daemon.waitForLog(containing: "navlogd: closing journal "), daemon.log)
        XCTAssertEqual(last, "navlogd: closing journal \(journal) failed: the close_journal stage of shutdown did not finish within 1000 ms "
                       + "(limits.close_timeout_s) and was given up on; what was still queued may be lost, and the next start sets the unfinished file aside")

        let restarted = try DaemonHarness(self, overrides: overrides, directory: daemon.directory)
        XCTAssertNotNil(restarted.waitForLog(containing: "journal file was not closed cleanly; set aside"), restarted.log)
        XCTAssertEqual(restarted.terminate(), 0, restarted.log)
        report("journal close overran (write lock held elsewhere, close_timeout_s 1): exit 2 after \(String(format: "%.1f", stoppedAfter)) s, "
               + "not after the \(Int(busyTimeout)) s busy timeout; the next start set the file aside")
    }

    // MARK: - The journal directory removed or read-only

    func testJournalDirectoryRemovedWhileRunningIsRecreatedAndKeepsWhatIsAcknowledgedAfter() throws {
        let journal = try makeSharedDirectory(self, "removed") + "/journal"
        let daemon = try DaemonHarness(self, overrides: ["journal": [
            "directory": .string(journal), "flush_interval_ms": 20, "durability": "flush_per_request",
        ]])
        let clients = LoadClients(socketPath: daemon.socketPath, count: 3)
        XCTAssertTrue(clients.waitForAcknowledgements(60))
        let key = try String(contentsOfFile: journal + "/.navlog.privacy-key", encoding: .utf8)
        try FileManager.default.removeItem(atPath: journal)
        clients.mark()
        XCTAssertTrue(clients.waitForAcknowledgements(60, afterMark: true), "stopped serving:\n\(daemon.log)")
        XCTAssertEqual(try daemon.request("GET", "/v1/health").status, 200)
        // What went with the directory is back: the same privacy key (pseudonyms stay stable
        // across restarts) and the lock, held, so no second writer can take the directory.
        XCTAssertEqual(try String(contentsOfFile: journal + "/.navlog.privacy-key", encoding: .utf8), key)
        let lock = open(journal + "/.navlog.lock", O_RDWR)
        XCTAssertGreaterThanOrEqual(lock, 0, "no lock file in the recreated directory")
        XCTAssertNotEqual(flock(lock, LOCK_EX | LOCK_NB), 0, "the recreated directory is not locked")
        close(lock)
        clients.stop()
        XCTAssertEqual(daemon.terminate(), 0, daemon.log)
        let verified = try verifyJournal(journal)
        XCTAssertEqual(verified.status, 0, verified.output)
        assertAcknowledgedArePresent(clients.acknowledged(afterMark: true), journaledActions(try journalEvents(journal)), "after removal")
        report("directory removed: recreated, \(clients.acknowledged(afterMark: true).values.reduce(0, +)) actions acknowledged after the removal all present")
    }

    func testReadOnlyJournalDirectoryStopsTheDaemonWithAClearMessage() throws {
        let mountPoint = try makeSharedDirectory(self, "readonly")
        guard mount("tmpfs", mountPoint, "tmpfs", UInt(MS_RDONLY), "size=1m") == 0 else {
            throw XCTSkip("mounting a tmpfs needs root: \(String(cString: strerror(errno)))")
        }
        addTeardownBlock { umount2(mountPoint, Int32(MNT_DETACH)) }
        let directory = try makeSharedDirectory(self, "readonly-config")
        let configuration = directory + "/navlogd.json"
        try #"{"journal": {"directory": "\#(mountPoint)/journal"}, "listen": {"unix_socket": "\#(directory)/s.sock", "tcp": null}}"#
            .write(toFile: configuration, atomically: true, encoding: .utf8)
        let result = try runTool(productPath("navlogd"), ["--config", configuration])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("navlogd: ") && result.stderr.contains(mountPoint + "/journal")
                      && result.stderr.contains("Read-only file system"), result.stderr)
        report("read-only journal directory: exit 2, \(result.stderr.trimmingCharacters(in: .newlines))")
    }

    // MARK: - The wall clock jumps back

    func testWallClockJumpingBackKeepsSeqOrderAndTheJournalReadable() throws {
        let journal = try makeSharedDirectory(self, "clock") + "/journal"
        let journalSettings: JSONValue = ["directory": .string(journal), "flush_interval_ms": 20, "durability": "flush_per_request"]
        let daemon = try DaemonHarness(self, overrides: ["journal": journalSettings])
        let clients = LoadClients(socketPath: daemon.socketPath, count: 3)
        XCTAssertTrue(clients.waitForAcknowledgements(40))
        // The wall clock goes back a day while the daemon runs (SIGHUP applies the offset).
        try daemon.writeConfiguration(["journal": journalSettings, "testing": ["wall_clock_offset_s": -86_400]])
        kill(daemon.process.processIdentifier, SIGHUP)
        XCTAssertNotNil(daemon.waitForLog(containing: "wall clock offset changed"), daemon.log)
        clients.mark()
        XCTAssertTrue(clients.waitForAcknowledgements(40, afterMark: true))
        clients.stop()
        XCTAssertEqual(daemon.terminate(), 0, daemon.log)

        let verified = try verifyJournal(journal)
        XCTAssertEqual(verified.status, 0, verified.output)
        let events = try journalEvents(journal)
        assertAcknowledgedArePresent(clients.acknowledged(), journaledActions(events), "clock jump")
        let seqs = events.compactMap { $0["seq"]?.intValue }
        XCTAssertEqual(seqs, seqs.sorted(), "show keeps seq order")
        XCTAssertEqual(Set(seqs).count, seqs.count)
        let times = events.compactMap { $0["time"]?.stringValue }
        let backwards = zip(times, times.dropFirst()).filter { $0.0 > $0.1 }.count
        XCTAssertGreaterThan(backwards, 0, "the jump shows in the recorded wall times")
        let report = try runTool(productPath("navlog"), ["report", journal])
        XCTAssertEqual(report.status, 0, report.stderr)
        self.report("wall clock back 1 day mid-run: \(events.count) events, seq order kept, \(backwards) backward step(s) in wall time, report and verify pass")
    }

    // MARK: - SIGHUP storm

    func testSIGHUPStormUnderLoadKeepsServingAndLosesNothing() throws {
        let journal = try makeSharedDirectory(self, "hup") + "/journal"
        let daemon = try DaemonHarness(self, overrides: ["journal": [
            "directory": .string(journal), "flush_interval_ms": 20, "durability": "flush_per_request",
        ]])
        let clients = LoadClients(socketPath: daemon.socketPath, count: 3)
        XCTAssertTrue(clients.waitForAcknowledgements(30))
        for index in 0..<60 {
            kill(daemon.process.processIdentifier, SIGHUP)
            clients.waitForAcknowledgements(30 + index * 3)
        }
        XCTAssertEqual(try daemon.request("GET", "/v1/health").status, 200)
        clients.stop()
        XCTAssertEqual(daemon.terminate(), 0, daemon.log)
        let verified = try verifyJournal(journal)
        XCTAssertEqual(verified.status, 0, verified.output)
        assertAcknowledgedArePresent(clients.acknowledged(), journaledActions(try journalEvents(journal)), "SIGHUP storm")
        let files = try FileManager.default.contentsOfDirectory(atPath: journal).filter { $0.hasSuffix(".navlog") }.count
        let reloads = daemon.log.components(separatedBy: "msg=\"configuration reloaded\"").count - 1
        XCTAssertGreaterThan(reloads, 1)
        XCTAssertTrue(clients.refused.isEmpty, "\(clients.refused.prefix(3))")
        report("SIGHUP storm: 60 signals, \(reloads) reloads, \(files) files, \(clients.acknowledged().values.reduce(0, +)) acknowledged, none lost")
    }

    // MARK: - 10,000 sessions

    func testTenThousandSessionsCreatedAndEnded() throws {
        let journal = try makeSharedDirectory(self, "sessions") + "/journal"
        let daemon = try DaemonHarness(self, overrides: ["journal": ["directory": .string(journal), "flush_interval_ms": 50]])
        let started = Date()
        let perClient = 5000
        let failures = Mutex<[String]>([])
        let socketPath = daemon.socketPath
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            do {
                let connection = try DaemonClient(unixSocket: socketPath, timeoutSeconds: 20)
                for _ in 0..<perClient {
                    let created = try connection.send("POST", "/v1/sessions", body: Array(#"{"app": "tabs"}"#.utf8))
                    guard created.status == 201, let id = try JSONValue(parsing: Data(created.body))["id"]?.stringValue else {
                        throw HTTPTestError("create: \(created.status)")
                    }
                    let ended = try connection.send("DELETE", "/v1/sessions/\(id)")
                    guard ended.status == 200 else { throw HTTPTestError("end: \(ended.status)") }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(try json(daemon.request("GET", "/v1/sessions").body)["sessions"], .array([]))
        let rss = (try? String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/status", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("VmRSS") }.map(String.init) ?? "?"
        XCTAssertEqual(daemon.terminate(), 0, daemon.log)
        XCTAssertEqual(try verifyJournal(journal).status, 0)
        for kind in ["session.start", "session.end"] {
            let shown = try runTool(productPath("navlog"), ["show", "--kind", kind, "--output", "json", journal])
            XCTAssertEqual(shown.stdout.split(separator: "\n").count, 2 * perClient, kind)
        }
        report("10,000 sessions: created and ended in \(String(format: "%.1f", elapsed)) s, daemon \(rss.replacingOccurrences(of: "\t", with: " ")) after")
    }
}
