import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

/// A journal directory of several files, attached to one connection and read through the
/// hidden `schema` argument, as docs/JOURNAL.md shows.
final class AttachedJournalTests: XCTestCase {
    func testAttachedFilesTogetherGiveWhatShowPrintsForTheDirectory() throws {
        let directory = makeTemporaryDirectory(self)
        for seed in ["1", "2"] {
            let explore = try Product.navlog.run(["explore", "tabs", "--seed", seed, "--steps", "40", "--journal", directory])
            XCTAssertEqual(explore.status, 0, explore.stderr)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".navlog") }.sorted()
        XCTAssertEqual(files.count, 2)
        let show = try Product.navlog.run(["show", directory, "-o", "json"])
        XCTAssertEqual(show.status, 0, show.stderr)
        let expected = try show.stdout.split(separator: "\n").map { line -> JSONValue in
            var members = try JSONValue(parsing: String(line)).objectValue ?? [:]
            members["cursor"] = nil
            return .object(members)
        }

        // The pattern of docs/JOURNAL.md: an empty main database, every file attached.
        let attach = files.enumerated().map { "ATTACH '\(directory)/\($1)' AS f\($0 + 1);" }.joined(separator: " ")
        let union = "SELECT * FROM navlog_events('f1') UNION ALL SELECT * FROM navlog_events('f2') ORDER BY seq"
        let result = try runTool("/usr/bin/sqlite3", ["-json", "-cmd", ".load \(SQLiteExtensionHarness.library)", "-cmd", attach, ":memory:", union])
        XCTAssertEqual(result.status, 0, result.stderr)
        let rows = try (JSONValue(parsing: result.stdout).arrayValue ?? []).map(SQLiteExtensionHarness.event(fromRow:))
        XCTAssertEqual(rows.count, expected.count)
        XCTAssertEqual(rows, expected)

        let plan = try runTool("/usr/bin/sqlite3", ["-cmd", ".load \(SQLiteExtensionHarness.library)", "-cmd", attach, ":memory:",
                                                    "EXPLAIN QUERY PLAN SELECT * FROM navlog_events('f2') WHERE session = 's-1'"])
        XCTAssertTrue(plan.stdout.contains("VIRTUAL TABLE INDEX 7:session=,schema="), plan.stdout + plan.stderr)
        let missing = try runTool("/usr/bin/sqlite3", ["-cmd", ".load \(SQLiteExtensionHarness.library)", ":memory:",
                                                       "SELECT * FROM navlog_visits('f9')"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "Error: stepping, navlog_visits: f9 is not a navlog journal: the connection has no database named 'f9'\n")
    }
}
