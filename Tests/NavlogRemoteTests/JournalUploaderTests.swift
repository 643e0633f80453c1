import Foundation
import NavlogEvents
import NavlogJournal
import NavlogRemote
import NavlogTestSupport
import XCTest

/// `JournalUploader` resuming after its own crash, from the state it saved.
final class JournalUploaderTests: XCTestCase {
    /// A journal of 900 events in three files of 300 (and the empty one the last rotation
    /// opened), a daemon, and a client of it.
    private func makeJournal() throws -> (source: String, files: [String], run: String, daemon: DaemonHarness, client: IngestClient) {
        let daemon = try DaemonHarness(self)
        let source = makeTemporaryDirectory(self) + "/journal"
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: source))
        let events = makeEvents(count: 900)
        for part in 0..<3 {
            events[(part * 300)..<(part * 300 + 300)].forEach(writer.record)
            try writer.rotate()
        }
        try writer.close()
        let files = JournalReader(paths: [source]).files()
        XCTAssertEqual(files.count, 4)
        let client = try IngestClient(url: "http://127.0.0.1:\(try XCTUnwrap(daemon.tcpPort))", source: "unit-test")
        return (source, files, writer.runID, daemon, client)
    }

    /// Steps `uploader` until it is idle; returns the steps.
    private func upload(_ uploader: JournalUploader) throws -> [JournalUploader.Step] {
        var steps: [JournalUploader.Step] = []
        while steps.count < 20 {
            let step = try uploader.step()
            if step == .idle { break }
            steps.append(step)
        }
        return steps
    }

    /// The events of `run` in the daemon's journal.
    private func delivered(_ daemon: DaemonHarness, run: String) throws -> [Event] {
        XCTAssertEqual(try daemon.request("POST", "/v1/journal/rotate").status, 200)
        return try JournalReader(paths: [daemon.directory + "/journal"]).allEvents().filter { $0.run == run }
    }

    /// Sends seqs 1 to 400, then saves the state as it was before the post: the uploader
    /// crashed before it saved the daemon's acknowledgement. Returns the state file.
    private func sendFirstBatchThenCrash(source: String, run: String, client: IngestClient) throws -> String {
        let statePath = makeTemporaryDirectory(self) + "/upload.state"
        let first = try JournalUploader(directory: source, client: client, statePath: statePath, batchSize: 400)
        XCTAssertEqual(try first.step(), .sent(events: 400, refusedLines: 0, isReplayed: false))
        try UploadState(after: 0, inflight: 1...400, inflightRun: run).save(path: statePath)
        return statePath
    }

    /// Starts an uploader from the state at `statePath`, as after a restart, and steps it until
    /// it is idle; returns the steps.
    private func resume(source: String, client: IngestClient, statePath: String) throws -> [JournalUploader.Step] {
        let resumed = try JournalUploader(directory: source, client: client, statePath: statePath, batchSize: 400)
        resumed.reportsGaps = true
        return try upload(resumed)
    }

    private static func isLost(_ step: JournalUploader.Step) -> Bool {
        if case .lost = step { return true }
        return false
    }

    /// A batch the daemon took, whose acknowledgement the uploader never saved (it crashed),
    /// and whose oldest file a spool's retention removed before the restart: what is left of
    /// it goes under the batch's own key, so the daemon answers from its receipt and journals
    /// none of it twice, and nothing of it is counted lost. Sent under a key of its own, it was
    /// journaled again, and its removed seqs were counted lost.
    func testABatchInFlightWhoseFirstFileWentIsResentUnderItsOwnKey() throws {
        let (source, files, run, daemon, client) = try makeJournal()
        let statePath = try sendFirstBatchThenCrash(source: source, run: run, client: client)
        try FileManager.default.removeItem(atPath: files[0])

        let steps = try resume(source: source, client: client, statePath: statePath)
        XCTAssertEqual(steps.first, .sent(events: 400, refusedLines: 0, isReplayed: true), "the daemon's receipt answers: \(steps)")
        XCTAssertFalse(steps.contains(where: Self.isLost), "\(steps)")
        let stored = try delivered(daemon, run: run)
        XCTAssertEqual(stored.count, 900, "each event once")
        XCTAssertEqual(Set(stored.map { "\($0.session)/\($0.sessionSeq)" }).count, 900)
    }

    /// The same, but the daemon never took the batch: what is left of it is journaled under
    /// its key, and the seqs of the removed file are counted lost, once.
    func testABatchInFlightTheDaemonNeverTookLosesOnlyItsRemovedEvents() throws {
        let (source, files, run, daemon, client) = try makeJournal()
        let statePath = makeTemporaryDirectory(self) + "/upload.state"
        try UploadState(after: 0, inflight: 1...400, inflightRun: run).save(path: statePath)
        XCTAssertEqual(try UploadState.load(path: statePath), UploadState(after: 0, inflight: 1...400, inflightRun: run))
        try FileManager.default.removeItem(atPath: files[0])

        let steps = try resume(source: source, client: client, statePath: statePath)
        XCTAssertEqual(steps.first, .sent(events: 100, refusedLines: 0, isReplayed: false), "\(steps)")
        XCTAssertEqual(steps.filter(Self.isLost), [.lost(seqs: 1...300)])
        XCTAssertEqual(try delivered(daemon, run: run).count, 600, "seqs 301 to 900, once each")
    }

    /// A batch the daemon took, none of whose events is left at the restart: the uploader asks
    /// the daemon under the batch's key (`GET /v1/ingest`) and counts none of it lost; only the
    /// removed seqs after it are. Before, all of them were counted lost.
    func testABatchInFlightThatIsAllGoneIsAskedAfterNotCountedLost() throws {
        let (source, files, run, daemon, client) = try makeJournal()
        let statePath = try sendFirstBatchThenCrash(source: source, run: run, client: client)
        // Seqs 1 to 600: the whole batch and the 200 events after it.
        try FileManager.default.removeItem(atPath: files[0])
        try FileManager.default.removeItem(atPath: files[1])

        let steps = try resume(source: source, client: client, statePath: statePath)
        XCTAssertEqual(steps.first, .sent(events: 400, refusedLines: 0, isReplayed: true), "the daemon's receipt answers: \(steps)")
        XCTAssertEqual(steps.filter(Self.isLost), [.lost(seqs: 401...600)])
        XCTAssertEqual(try UploadState.load(path: statePath).after, 900)
        XCTAssertEqual(try delivered(daemon, run: run).count, 700, "seqs 1 to 400 and 601 to 900, once each")
    }

    /// The same batch all gone, but the daemon never took it: the daemon says so (404), and all
    /// the removed seqs are counted lost, once.
    func testABatchInFlightThatIsAllGoneAndNeverTakenIsCountedLost() throws {
        let (source, files, run, daemon, client) = try makeJournal()
        let statePath = makeTemporaryDirectory(self) + "/upload.state"
        try UploadState(after: 0, inflight: 1...400, inflightRun: run).save(path: statePath)
        try FileManager.default.removeItem(atPath: files[0])
        try FileManager.default.removeItem(atPath: files[1])

        let steps = try resume(source: source, client: client, statePath: statePath)
        XCTAssertEqual(steps.filter(Self.isLost), [.lost(seqs: 1...600)], "\(steps)")
        XCTAssertFalse(steps.contains { if case .sent(_, _, true) = $0 { return true } else { return false } }, "\(steps)")
        XCTAssertEqual(try delivered(daemon, run: run).count, 300, "seqs 601 to 900")
    }
}
