import Foundation
import NavlogTestSupport
import XCTest

/// Progress on stderr: drawn when stderr is a terminal (the binary runs under script(1), which
/// gives it a pseudo-terminal), with or without `NO_COLOR`; never when stderr is a pipe or a
/// file, nor with `TERM=dumb`. `NAVLOG_PROGRESS_INTERVAL_MS=0` draws at every check, so a short
/// run shows it.
final class ProgressTests: XCTestCase {
    private var journal: String!

    override func setUpWithError() throws {
        let directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
        journal = directory.appendingPathComponent("journal").path
        let explore = try Product.navlog.run(["explore", "tabs", "--steps", "400", "--sessions", "2", "--journal", journal])
        XCTAssertLessThanOrEqual(explore.status, 1, explore.stderr)
    }

    /// What the terminal showed while `navlog arguments` ran with stdout to /dev/null.
    private func terminalOutput(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let shown = try runOnTerminal([Product.navlog.path] + arguments, environment: environment.merging(["NAVLOG_PROGRESS_INTERVAL_MS": "0"]) { $1 },
                                      discardsStandardOutput: true)
        // explore exits 1 when its walk finds a dead end or a leak.
        XCTAssertLessThanOrEqual(shown.status, 1, shown.output)
        return shown.output
    }

    func testExportShowsProgressOnATerminalEvenWithNoColor() throws {
        let shown = try terminalOutput(["export", journal, "--format", "otlp-json"], environment: ["NO_COLOR": "1"])
        XCTAssertTrue(shown.contains("exporting: "), shown)
        XCTAssertTrue(shown.contains(" events ("), "every event is exported, so the total is known: \(shown)")
        XCTAssertTrue(shown.contains("%) read, "), shown)
        XCTAssertTrue(shown.hasSuffix("\r\u{1B}[K"), "the line is erased at the end: \(shown.debugDescription)")
    }

    func testReportShowsProgressOnATerminal() throws {
        let shown = try terminalOutput(["report", journal, "--output", "json"])
        // The events the files hold, as `navlog verify` counts them.
        let verified = try Product.navlog.run(["verify", journal])
        let events = try XCTUnwrap(verified.stdout.split(separator: "\n").last { $0.contains(" readable event(s)") }
            .flatMap { $0.split(separator: " ").dropFirst(2).first }.flatMap { Int($0) }, verified.stdout)
        XCTAssertTrue(shown.contains("\(events) of \(events) events (100%) read"), "the last page brings the count to the total: \(shown)")
        // A session filter reads fewer events than the files hold: no total is claimed.
        let filtered = try terminalOutput(["report", journal, "--output", "json", "--session", "s-1"])
        XCTAssertTrue(filtered.contains(" events read"), filtered)
        XCTAssertFalse(filtered.contains(" of "), filtered)
    }

    func testExploreShowsSessionsWalkedOnATerminal() throws {
        let other = URL(fileURLWithPath: makeTemporaryDirectory(self)).appendingPathComponent("journal").path
        let shown = try terminalOutput(["explore", "tabs", "--steps", "20", "--sessions", "3", "--journal", other])
        XCTAssertTrue(shown.contains("sessions walked"), shown)
    }

    func testNoProgressWithADumbTerminal() throws {
        let shown = try terminalOutput(["export", journal, "--format", "otlp-json"], environment: ["TERM": "dumb"])
        XCTAssertFalse(shown.contains("exporting"), shown)
    }

    func testNoProgressWhenStderrIsNotATerminal() throws {
        let journal: String = journal
        for arguments in [["export", journal, "--format", "otlp-json"], ["report", journal, "--output", "json"]] {
            let result = try Product.navlog.run(arguments, environment: ["NAVLOG_PROGRESS_INTERVAL_MS": "0"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stderr, "", "\(arguments[0]) wrote to a stderr that is not a terminal")
        }
    }
}
