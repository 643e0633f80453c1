import Foundation
import NavlogEvents
import NavlogJournal
import NavlogTestSupport
import XCTest

/// `navlog push`: a journal recorded elsewhere, uploaded into a daemon, reads the same there.
final class PushCommandTests: XCTestCase {
    /// Records explored sessions of two apps (articles loads content, so the load figures are
    /// not empty) into a journal of its own.
    private func recordJournal() throws -> String {
        let journal = makeTemporaryDirectory(self) + "/recorded"
        for (app, seed) in [("articles", "3"), ("tabs", "11")] {
            let explored = try Product.navlog.run(["explore", app, "--sessions", "6", "--steps", "120", "--seed", seed, "--journal", journal])
            XCTAssertLessThanOrEqual(explored.status, 1, explored.stderr)
        }
        return journal
    }

    func testAPushedJournalReportsTheSameTransitionsDwellAndLoad() throws {
        let journal = try recordJournal()
        let daemon = try DaemonHarness(self)
        let pushed = try Product.navlog.run(["push", journal, "--to", "http://127.0.0.1:\(try XCTUnwrap(daemon.tcpPort))", "--batch", "300",
                                             "-o", "json"])
        XCTAssertEqual(pushed.status, 0, pushed.stderr)
        let original = try JournalReader(paths: [journal]).allEvents()
        let summary = try JSONValue(parsing: pushed.stdout)
        XCTAssertEqual(summary["accepted"]?.intValue, Int64(original.count))
        XCTAssertEqual(summary["requests"]?.intValue, Int64((original.count + 299) / 300))
        XCTAssertEqual(summary["cursor"]?.stringValue, "nl1-" + String(original.last!.seq, radix: 36))
        XCTAssertEqual(daemon.terminate(), 0)

        let report = { (path: String) throws -> JSONValue in
            let result = try Product.navlog.run(["report", path, "-o", "json"])
            XCTAssertEqual(result.status, 0, result.stderr)
            return try JSONValue(parsing: result.stdout)
        }
        let before = try report(journal)
        let after = try report(daemon.directory + "/journal")
        for figure in ["transitions", "dwell", "load", "sessions", "screens"] {
            XCTAssertNotNil(before[figure], figure)
            XCTAssertEqual(after[figure], before[figure], figure)
        }
        XCTAssertNotEqual(before["load"]?.serialized(), "[]")
        let verified = try Product.navlog.run(["verify", daemon.directory + "/journal"])
        XCTAssertEqual(verified.status, 0, verified.stdout)
    }

    func testASecondPushSendsNothingAndAFreshOneIsAnsweredFromTheKeys() throws {
        let journal = try recordJournal()
        let count = try JournalReader(paths: [journal]).allEvents().count
        let daemon = try DaemonHarness(self)
        let url = "http://127.0.0.1:\(try XCTUnwrap(daemon.tcpPort))"
        let state = makeTemporaryDirectory(self) + "/push-state.json"
        let first = try Product.navlog.run(["push", journal, "--to", url, "--state", state, "--batch", "500", "-o", "json"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try JSONValue(parsing: first.stdout)["accepted"]?.intValue, Int64(count))
        let again = try Product.navlog.run(["push", journal, "--to", url, "--state", state, "--batch", "500", "-o", "json"])
        XCTAssertEqual(try JSONValue(parsing: again.stdout)["requests"], 0)
        // A push that lost its state (or was interrupted before saving it) sends the same
        // batches under the same keys: the daemon answers them from its receipts.
        let lost = try Product.navlog.run(["push", journal, "--to", url, "--state", state + ".new", "--batch", "500", "-o", "json"])
        let replayed = try JSONValue(parsing: lost.stdout)
        XCTAssertEqual(replayed["accepted"], 0)
        XCTAssertEqual(replayed["already_there"]?.intValue, Int64(count))
        // An interruption between the post and saving its answer: the batch in flight is resent.
        try "{\"after\": 0, \"inflight\": [1, 500]}\n".write(toFile: state, atomically: true, encoding: .utf8)
        let resumed = try Product.navlog.run(["push", journal, "--to", url, "--state", state, "--batch", "500", "-o", "json"])
        XCTAssertEqual(try JSONValue(parsing: resumed.stdout)["accepted"], 0)
        let stored = try daemon.committedEvents()
        XCTAssertEqual(stored.count, count)
        XCTAssertEqual(Set(stored.map(EventIdentity.init)).count, count)
    }

    func testAnUnreachableDaemonStopsThePushWithTheCursorToResumeFrom() throws {
        let journal = try recordJournal()
        let result = try Product.navlog.run(["push", journal, "--to", "http://127.0.0.1:9", "--retries", "0"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("navlog push: cannot push to http://127.0.0.1:9: no answer:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("resume with the same command, from cursor nl1-0"), result.stderr)
        let usage = try Product.navlog.run(["push", journal])
        XCTAssertEqual(usage.status, 64)
        XCTAssertEqual(usage.stderr, """
            navlog push: option '--to' is required: the daemon's URL, such as http://127.0.0.1:7878
            See 'navlog push --help'.

            """)
        let missing = try Product.navlog.run(["push", journal + "-nope", "--to", "http://127.0.0.1:9"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "navlog push: no journal directory '\(journal)-nope'\n")
    }

    func testHelp() throws {
        let help = try Product.navlog.run(["push", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertEqual(help.stdout, """
            OVERVIEW: Upload a journal's events to a running navlogd.

            Sends the journal's events in seq order, in gzipped batches, to the daemon's POST /v1/ingest; they keep their runs, sessions and times, and their runs get the label source. Each batch's Idempotency-Key comes from its first run and seq range, and the state file records the last acknowledged seq (and the batch in flight) before and after each request, so an interrupted push resumes where it stopped and a second push sends nothing twice. Prints the cursor reached. Exit 1 when the daemon refused lines, 2 when it cannot be reached or refuses a batch.

            USAGE: navlog push [options] JOURNAL

            ARGUMENTS:
              JOURNAL                   The journal directory to upload.

            OPTIONS:
              --to URL                  The daemon, such as http://127.0.0.1:7878 (required).
              --source NAME             The client's name: the source label of the pushed runs. (default: navlog-push)
              --token TOKEN             The bearer token, when the daemon requires one (or set NAVLOG_TOKEN).
              --state FILE              Where the push keeps its cursor (default: JOURNAL/.navlog-push-HOST_PORT.json).
              --after CURSOR            Start after this cursor (nl1-…) instead of the state's.
              --batch N                 Events per request. (from 1 to 100,000) (default: 1000)
              --retries N               Failed requests in a row before giving up. (from 0 to 1,000) (default: 8)
              -o, --output FORMAT       text or json. (default: text)
              -h, --help                Show help information.

            """)
    }
}
