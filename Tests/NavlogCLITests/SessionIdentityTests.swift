import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

/// `--session RUN/SESSION`, `--run RUN|latest` and the run in show's text, over a journal
/// directory holding two runs of master-detail that both recorded session `s-1`.
final class SessionIdentityTests: XCTestCase {
    private var journal: String!
    /// The two runs, in the order they ran.
    private var runs: [String] = []

    override func setUpWithError() throws {
        journal = URL(fileURLWithPath: makeTemporaryDirectory(self)).appendingPathComponent("journal").path
        runs = []
        for _ in 0..<2 {
            let result = try Product.navlog.run(["run", "--script", "Config/scenarios/master-detail.scenario", "--journal", journal])
            XCTAssertEqual(result.status, 0, result.stderr)
            runs.append(try XCTUnwrap(Self.runID(in: result.stdout), result.stdout))
        }
        XCTAssertNotEqual(runs[0], runs[1])
    }

    /// The id in `(run r-…)` of a recording command's summary.
    static func runID(in output: String) -> String? {
        guard let start = output.range(of: "(run ") else { return nil }
        return output[start.upperBound...].split(separator: ")").first.map(String.init)
    }

    /// Counts the events of `run`'s `session` (all its sessions when nil) with sqlite3 over the
    /// journal files' event index, independently of navlog's reader.
    private func sqliteCount(run: String, session: String? = nil) throws -> Int {
        let files = try FileManager.default.contentsOfDirectory(atPath: journal).filter { $0.hasSuffix(".navlog") }
        XCTAssertFalse(files.isEmpty)
        var total = 0
        for file in files {
            var sql = "SELECT coalesce(sum(event_count), 0) FROM event_view WHERE run = '\(run)'"
            if let session { sql += " AND session = '\(session)'" }
            let result = try runTool("/usr/bin/sqlite3", ["-readonly", journal + "/" + file, sql])
            XCTAssertEqual(result.status, 0, result.stderr)
            total += try XCTUnwrap(Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), result.stdout)
        }
        return total
    }

    func testAnAmbiguousSessionIsRefusedListingItsRuns() throws {
        let expected = "option '--session': session 's-1' is in 2 runs: \(runs[0]), \(runs[1]); give RUN/s-1 or --run RUN"
        for command in [["show"], ["tail"], ["report"], ["export", "--format", "ndjson"]] {
            let result = try Product.navlog.run(command + [journal, "--session", "s-1"])
            XCTAssertEqual(result.status, 64, "\(command): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(command)")
            XCTAssertEqual(result.stderr.split(separator: "\n").first.map(String.init), "navlog \(command[0]): \(expected)")
        }
    }

    func testRunSlashSessionSelectsExactlyThatRunsSession() throws {
        for run in runs {
            let expected = try sqliteCount(run: run, session: "s-1")
            XCTAssertGreaterThan(expected, 10)
            let shown = try Product.navlog.run(["show", journal, "-o", "json", "--session", "\(run)/s-1"])
            XCTAssertEqual(shown.status, 0, shown.stderr)
            let events = try [Event](jsonLines: shown.stdout)
            XCTAssertEqual(events.count, expected)
            XCTAssertEqual(Set(events.map(\.run)), [run])

            let exported = try Product.navlog.run(["export", journal, "--format", "ndjson", "--session", "\(run)/s-1"])
            XCTAssertEqual(exported.status, 0, exported.stderr)
            XCTAssertEqual(try [Event](jsonLines: exported.stdout).map(\.seq), events.map(\.seq))

            let report = try Product.navlog.run(["report", journal, "-o", "json", "--session", "\(run)/s-1"])
            XCTAssertEqual(report.status, 0, report.stderr)
            let json = try JSONValue(parsing: report.stdout)
            XCTAssertEqual(json["sessions"]?["runs"], .array([.string(run)]))
            XCTAssertEqual(json["sessions"]?["count"], .int(1))
            XCTAssertEqual(json["events"], .int(Int64(expected)))
        }
        let missing = try Product.navlog.run(["show", journal, "--session", "\(runs[0])/s-9"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.stderr.hasPrefix("navlog show: option '--session': run '\(runs[0])' has no session 's-9' (known sessions: s-1)"), missing.stderr)
    }

    func testRunLatestAndRunNarrowTheSessions() throws {
        let latest = try Product.navlog.run(["show", journal, "-o", "json", "--run", "latest"])
        XCTAssertEqual(latest.status, 0, latest.stderr)
        let events = try [Event](jsonLines: latest.stdout)
        XCTAssertEqual(Set(events.map(\.run)), [runs[1]])
        XCTAssertEqual(events.count, try sqliteCount(run: runs[1]))

        // Within one run, the short form is no longer ambiguous.
        let first = try Product.navlog.run(["show", journal, "-o", "json", "--run", runs[0], "--session", "s-1"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(try [Event](jsonLines: first.stdout).count, try sqliteCount(run: runs[0], session: "s-1"))

        let both = try Product.navlog.run(["tail", journal, "-o", "json", "-n", "1000", "--run", runs[0], "--run", "latest"])
        XCTAssertEqual(both.status, 0, both.stderr)
        XCTAssertEqual(try [Event](jsonLines: both.stdout).count, try sqliteCount(run: runs[0]) + sqliteCount(run: runs[1]))

        let report = try Product.navlog.run(["report", journal, "-o", "json", "--run", "latest"])
        XCTAssertEqual(report.status, 0, report.stderr)
        XCTAssertEqual(try JSONValue(parsing: report.stdout)["sessions"]?["runs"], .array([.string(runs[1])]))
    }

    func testAnUnknownRunIsRefusedListingTheKnownOnes() throws {
        for command in ["show", "tail", "report", "export"] {
            let result = try Product.navlog.run([command, journal, "--run", "r-nosuch"])
            XCTAssertEqual(result.status, 64, "\(command): \(result.stderr)")
            XCTAssertEqual(result.stdout, "")
            XCTAssertEqual(
                result.stderr.split(separator: "\n").first.map(String.init),
                "navlog \(command): option '--run': unknown run 'r-nosuch' (known runs, newest first: \(runs[1]), \(runs[0]))")
        }
        let mistyped = try Product.navlog.run(["show", journal, "--session", "r-nosuch/s-1"])
        XCTAssertEqual(mistyped.status, 64)
        XCTAssertTrue(mistyped.stderr.hasPrefix("navlog show: option '--session': unknown run 'r-nosuch' in 'r-nosuch/s-1'"), mistyped.stderr)
    }

    func testShowTextPrintsTheRunOfEverySession() throws {
        let text = try Product.navlog.run(["show", journal, "--no-time"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }
        for run in runs {
            let prefix = "\(run)/s-1".padding(toLength: 24, withPad: " ", startingAt: 0)
            XCTAssertEqual(lines.filter { $0.hasPrefix(prefix) }.count, try sqliteCount(run: run, session: "s-1"))
        }
        XCTAssertEqual(lines.count, try sqliteCount(run: runs[0]) + sqliteCount(run: runs[1]))
        // The RUN/SESSION column is 24 wide, then the session seq right-aligned in 5.
        let first = "\(runs[0])/s-1".padding(toLength: 24, withPad: " ", startingAt: 0) + "      1  session.start  "
        XCTAssertTrue(lines.first?.hasPrefix(first) ?? false, text.stdout)
    }

    func testAReportOverTwoRunsNamesItsDeadEndsWithTheirRun() throws {
        let explored = URL(fileURLWithPath: journal).deletingLastPathComponent().appendingPathComponent("explored").path
        var exploreRuns: [String] = []
        for seed in ["3", "4"] {
            let result = try Product.navlog.run(["explore", "articles", "--seed", seed, "--steps", "60", "--sessions", "3", "--journal", explored])
            XCTAssertTrue([0, 1].contains(result.status), result.stderr)
            exploreRuns.append(try XCTUnwrap(Self.runID(in: result.stdout), result.stdout))
        }
        let both = try JSONValue(parsing: try Product.navlog.run(["report", explored, "-o", "json"]).stdout)
        let examples = (both["dead_ends"]?.arrayValue ?? []).flatMap { $0["examples"]?.arrayValue ?? [] }.compactMap(\.stringValue)
        XCTAssertFalse(examples.isEmpty)
        for example in examples {
            let parts = example.split(separator: "/").map(String.init)
            XCTAssertEqual(parts.count, 2, example)
            XCTAssertTrue(exploreRuns.contains(parts[0]), example)
        }
        let text = try Product.navlog.run(["report", explored, "--width", "200"]).stdout
        XCTAssertTrue(text.contains(examples[0]), text)

        let one = try JSONValue(parsing: try Product.navlog.run(["report", explored, "-o", "json", "--run", "latest"]).stdout)
        let single = (one["dead_ends"]?.arrayValue ?? []).flatMap { $0["examples"]?.arrayValue ?? [] }.compactMap(\.stringValue)
        XCTAssertFalse(single.isEmpty)
        XCTAssertTrue(single.allSatisfy { !$0.contains("/") && $0.hasPrefix("s-") }, "\(single)")
    }

    func testEveryReadingCommandHelpsWithRunAndSession() throws {
        let lines = """
              --session ID              Only this session: RUN/SESSION, or SESSION when only one run read has it. (repeatable)
              --run RUN                 Only this run, such as r-mx6bnfsd-29k4bg; 'latest' for the run whose first event is newest. (repeatable)

            """
        for command in ["show", "tail", "report", "export"] {
            let help = try Product.navlog.run([command, "--help"])
            XCTAssertEqual(help.status, 0)
            XCTAssertTrue(help.stdout.contains(lines), "\(command):\n\(help.stdout)")
        }
    }
}
