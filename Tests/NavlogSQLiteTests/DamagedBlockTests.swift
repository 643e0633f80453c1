import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

/// What the extension decompresses: a selective query inflates only the blocks it needs, and a
/// damaged block is an SQL error naming it, never a crash.
final class DamagedBlockTests: XCTestCase {
    /// Zeroes the data of the first block that holds no event of `session`, in a copy of the
    /// journal; returns the copy and the block's id.
    private func damageBlock(without session: String, of harness: SQLiteExtensionHarness) throws -> (file: String, block: Int) {
        let copy = URL(fileURLWithPath: harness.directory).appendingPathComponent("damaged.sqlite").standardizedFileURL.path
        try FileManager.default.copyItem(atPath: harness.file, toPath: copy)
        let find = """
            SELECT id FROM block WHERE id NOT IN
              (SELECT e.block FROM event e JOIN session s ON s.id = e.session WHERE s.name = '\(session)') ORDER BY id LIMIT 1;
            """
        let found = try runTool("/usr/bin/sqlite3", [copy, find])
        let block = try XCTUnwrap(Int(found.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), found.stderr)
        let damage = try runTool("/usr/bin/sqlite3", [copy, "UPDATE block SET data = zeroblob(length(data)) WHERE id = \(block)"])
        XCTAssertEqual(damage.status, 0, damage.stderr)
        return (copy, block)
    }

    func testADamagedBlockIsAnErrorNamingIt() throws {
        let harness = try SQLiteExtensionHarness(self)
        let (file, block) = try damageBlock(without: "s-3", of: harness)
        let cli = try harness.runCLI("SELECT count(*) FROM navlog_events", on: file)
        XCTAssertEqual(cli.status, 1, cli.stdout)
        XCTAssertEqual(cli.stdout, "")
        XCTAssertTrue(cli.stderr.hasPrefix("Error: stepping, navlog_events: \(file) is damaged: the block holding seq "), cli.stderr)
        XCTAssertTrue(cli.stderr.contains("is unreadable (block \(block): "), cli.stderr)
        let python = try harness.runPython("SELECT * FROM navlog_events", on: file)
        XCTAssertEqual(python.status, 1, python.stdout)
        XCTAssertTrue(python.stderr.contains("navlog_events: \(file) is damaged"), python.stderr)
        XCTAssertTrue(python.stderr.contains("(block \(block): "), python.stderr)
    }

    func testAOneSessionQueryInflatesOnlyThatSessionsBlocks() throws {
        let harness = try SQLiteExtensionHarness(self)
        let (file, _) = try damageBlock(without: "s-3", of: harness)
        // The damaged block holds no event of s-3: a query for s-3 alone never inflates it.
        let expected = harness.shown.filter { $0["session"]?.stringValue == "s-3" }.count
        let oneSession = try harness.runCLI("SELECT count(*) FROM navlog_events WHERE session = 's-3'", on: file, mode: "-list")
        XCTAssertEqual(oneSession.status, 0, oneSession.stderr)
        XCTAssertEqual(oneSession.stdout, "\(expected)\n")
        // The same filter hidden from the planner scans every block and meets the damage.
        let scan = try harness.runCLI("SELECT count(*) FROM navlog_events WHERE session || '' = 's-3'", on: file, mode: "-list")
        XCTAssertEqual(scan.status, 1, scan.stdout)
        let plan = try harness.runCLI("EXPLAIN QUERY PLAN SELECT * FROM navlog_events WHERE session = 's-3' AND seq >= 5", on: file, mode: "-list")
        XCTAssertTrue(plan.stdout.contains("SCAN navlog_events VIRTUAL TABLE INDEX 7:session=,seq>="), plan.stdout)
    }

    func testADatabaseThatIsNotAJournalIsAnError() throws {
        let harness = try SQLiteExtensionHarness(self)
        let result = try harness.runCLI("SELECT * FROM navlog_events", on: ":memory:")
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "Error: stepping, navlog_events: :memory: is not a navlog journal: an SQLite database without journal tables\n")
    }
}
