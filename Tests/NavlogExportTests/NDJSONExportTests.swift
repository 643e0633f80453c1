import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

/// `navlog export --format ndjson` and the command line of `navlog export`.
final class NDJSONExportTests: XCTestCase {
    /// The lines of `show --output json` with their `cursor` removed.
    private func showLines(_ arguments: [String]) throws -> [String] {
        let text = try ExportTestSupport.export(["show"] + arguments + ["--output", "json"])
        return try text.split(separator: "\n").map { line in
            guard case .object(var members) = try JSONValue(parsing: String(line)) else { return "" }
            XCTAssertNotNil(members.removeValue(forKey: "cursor"))
            return JSONValue.object(members).serialized()
        }
    }

    func testNDJSONIsTheEventJSONOfShowWithoutTheCursor() throws {
        let journal = ExportTestSupport.seedJournal
        let exported = try ExportTestSupport.export(["export", journal]).split(separator: "\n").map(String.init)
        XCTAssertEqual(exported, try showLines([journal]))
        XCTAssertEqual(exported.count, try ExportTestSupport.events(in: journal).count)
    }

    func testExportHasTheFiltersOfShow() throws {
        let journal = ExportTestSupport.seedJournal
        // Both explore runs have an s-2: --run picks the last one's, as show would.
        let filters = ["--run", "latest", "--session", "s-2", "--kind", "screen.*", "--kind", "action"]
        let exported = try ExportTestSupport.export(["export", "--journal", journal, "--format", "ndjson"] + filters)
        let lines = exported.split(separator: "\n").map(String.init)
        XCTAssertFalse(lines.isEmpty)
        XCTAssertEqual(lines, try showLines(["--journal", journal] + filters))
    }

    func testProgressStaysOffStderrWhenItIsNotATerminal() throws {
        let result = try Product.navlog.run(["export", ExportTestSupport.seedJournal, "--format", "chrome-trace"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "")
    }

    func testOptionsOfAnotherFormatAreUsageErrors() throws {
        let journal = ExportTestSupport.seedJournal
        let table = try Product.navlog.run(["export", journal, "--table", "visits"])
        XCTAssertEqual(table.status, 64)
        XCTAssertEqual(table.stderr, "navlog export: option '--table' applies only to --format clickhouse\nSee 'navlog export --help'.\n")
        let logs = try Product.navlog.run(["export", journal, "--format", "chrome-trace", "--otlp-logs"])
        XCTAssertEqual(logs.status, 64)
        let format = try Product.navlog.run(["export", journal, "--format", "parquet"])
        XCTAssertEqual(format.status, 64)
        let missing = try Product.navlog.run(["export", "/nonexistent/journal"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "navlog export: journal '/nonexistent/journal' does not exist\n")
    }
}
