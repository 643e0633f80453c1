import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

/// The worked queries of docs/JOURNAL.md run as printed, and the dwell median one gives the
/// report's medians.
final class JournalDocumentationTests: XCTestCase {
    func testTheWorkedQueriesRunAndTheMedianQueryGivesTheReportsMedians() throws {
        let document = try Repository.text("docs/JOURNAL.md")
        let worked = try XCTUnwrap(document.range(of: "### Five worked queries"), "docs/JOURNAL.md lost its worked queries")
        let queries = document[worked.upperBound...].components(separatedBy: "```sql\n").dropFirst()
            .compactMap { $0.components(separatedBy: "```").first }
        XCTAssertEqual(queries.count, 5)

        let directory = makeTemporaryDirectory(self)
        let explore = try Product.navlog.run(["explore", "tabs", "--seed", "7", "--steps", "300", "--sessions", "4", "--journal", directory])
        XCTAssertEqual(explore.status, 0, explore.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".navlog") }
        let file = directory + "/" + (try XCTUnwrap(files.first))
        var outputs: [JSONValue] = []
        for query in queries {
            let result = try runTool("/usr/bin/sqlite3", ["-json", "-cmd", ".load \(SQLiteExtensionHarness.library)", file, query])
            XCTAssertEqual(result.status, 0, "\(query)\n\(result.stderr)")
            let rows = try JSONValue(parsing: result.stdout.isEmpty ? "[]" : result.stdout)
            XCTAssertFalse(rows.arrayValue?.isEmpty ?? true, "no rows from \(query)")
            outputs.append(rows)
        }
        let report = try JSONValue(parsing: try Product.navlog.run(["report", directory, "-o", "json"]).stdout)
        let expected = (report["dwell"]?.arrayValue ?? []).map {
            "\($0["screen"]?.stringValue ?? "?") \($0["median_ms"]?.doubleValue ?? -1) \($0["n"]?.intValue ?? -1)"
        }.sorted()
        let actual = (outputs[3].arrayValue ?? []).map {
            "\($0["screen_type"]?.stringValue ?? "?") \($0["median_ms"]?.doubleValue ?? -1) \($0["n"]?.intValue ?? -1)"
        }.sorted()
        XCTAssertEqual(actual, expected)
    }
}
