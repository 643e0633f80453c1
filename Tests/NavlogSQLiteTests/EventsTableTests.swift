import Foundation
import NavlogEvents
import NavlogJournal
import NavlogTestSupport
import XCTest

/// `navlog_events` loaded into stock `sqlite3` and Python's `sqlite3`, checked against what
/// `navlog show -o json` prints of the same journal.
final class EventsTableTests: XCTestCase {
    func testTheCLIReturnsWhatShowPrints() throws {
        let harness = try SQLiteExtensionHarness(self)
        assertRowsEqual(try harness.eventsThroughCLI("SELECT * FROM navlog_events"), harness.shown, "whole journal")
        let kinds = try harness.runCLI("SELECT kind, count(*) FROM navlog_events GROUP BY kind ORDER BY kind", mode: "-list")
        XCTAssertEqual(kinds.status, 0, kinds.stderr)
        var expected: [String: Int] = [:]
        for event in harness.shown { expected[event["kind"]?.stringValue ?? "", default: 0] += 1 }
        XCTAssertEqual(kinds.stdout, expected.sorted { $0.key < $1.key }.map { "\($0.key)|\($0.value)\n" }.joined())
    }

    func testPythonReturnsWhatShowPrintsForFilteredQueries() throws {
        let harness = try SQLiteExtensionHarness(self)
        let start: Int64 = 1_800_000_000_000_000_000
        let cases: [(sql: String, parameters: [JSONValue], expected: (Event) -> Bool)] = [
            ("", [], { _ in true }),
            ("WHERE session = ?", ["s-2"], { $0.session == "s-2" }),
            ("WHERE kind = 'screen.push'", [], { $0.kind == .screenPush }),
            ("WHERE kind = 'no.such.kind'", [], { _ in false }),
            ("WHERE session = 's-1' AND kind = ?", ["action"], { $0.session == "s-1" && $0.kind.rawValue == "action" }),
            ("WHERE session = 's-1' AND session = 's-2'", [], { _ in false }),
            ("WHERE session = ? COLLATE NOCASE", ["S-3"], { $0.session == "s-3" }),
            ("WHERE seq >= 100 AND seq < 250", [], { $0.seq >= 100 && $0.seq < 250 }),
            ("WHERE seq > ? AND seq <= ?", [.int(100), .int(101)], { $0.seq == 101 }),
            ("WHERE seq = 77", [], { $0.seq == 77 }),
            ("WHERE rowid BETWEEN 470 AND 1000", [], { $0.seq >= 470 }),
            ("WHERE seq < 1", [], { _ in false }),
            ("WHERE seq = 2.5", [], { _ in false }),
            ("WHERE seq > 400.5", [], { $0.seq > 400 }),
            ("WHERE time_ns >= ? AND time_ns < ?", [.int(start + 1_000_000_000), .int(start + 2_050_000_000)],
             { $0.wallNanoseconds >= start + 1_000_000_000 && $0.wallNanoseconds < start + 2_050_000_000 }),
            ("WHERE session = 's-0' AND time_ns > ? AND seq BETWEEN 10 AND 90", [.int(start + 30_000_000)],
             { $0.session == "s-0" && $0.wallNanoseconds > start + 30_000_000 && (10...90).contains($0.seq) }),
        ]
        for (sql, parameters, expected) in cases {
            let query = "SELECT * FROM navlog_events \(sql)"
            assertRowsEqual(try harness.eventsThroughPython(query, parameters), try harness.shown(where: expected), query)
        }
        let descending = try harness.eventsThroughPython("SELECT * FROM navlog_events ORDER BY seq DESC LIMIT 3")
        assertRowsEqual(descending, harness.shown.suffix(3).reversed(), "ORDER BY seq DESC")
    }

    /// A daemon's journal holds ingested runs beside its own, with the same session names: a
    /// session filter (looked up by the ids of that name) returns the session of every run.
    func testASessionFilterFindsTheSessionOfEveryRunInAFile() throws {
        let directory = makeTemporaryDirectory(self)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, blockSize: 40))
        let own = makeEvents(count: 300, sessions: 3)
        for event in own { writer.record(event) }
        let foreign = makeEvents(count: 200, sessions: 2).map { event -> Event in
            var event = event
            event.run = "r-ingested"
            return event
        }
        XCTAssertNotNil(try writer.recordForeign(foreign))
        try writer.close()
        let file = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: directory).first { $0.hasSuffix(".navlog") })
        let name = try XCTUnwrap(foreign.first?.session)
        let sql = "SELECT run, count(*) FROM navlog_events WHERE session = '\(name)' GROUP BY run ORDER BY run"
        let result = try runTool("/usr/bin/sqlite3", ["-list", "-cmd", ".load \(SQLiteExtensionHarness.library)", directory + "/" + file, sql])
        XCTAssertEqual(result.status, 0, result.stderr)
        var expected: [String: Int] = [:]
        for event in own + foreign where event.session == name { expected[event.run.isEmpty ? writer.runID : event.run, default: 0] += 1 }
        XCTAssertEqual(expected.count, 2, "the name is in both runs")
        XCTAssertEqual(result.stdout, expected.sorted { $0.key < $1.key }.map { "\($0.key)|\($0.value)\n" }.joined())
    }

    func testShowsSessionFilterMatchesTheTable() throws {
        let harness = try SQLiteExtensionHarness(self)
        let show = try Product.navlog.run(["show", harness.directory, "--session", "s-1", "--kind", "viewmodel.change", "-o", "json"])
        XCTAssertEqual(show.status, 0, show.stderr)
        let expected = try show.stdout.split(separator: "\n").map { line -> JSONValue in
            var members = try JSONValue(parsing: String(line)).objectValue ?? [:]
            members["cursor"] = nil
            return .object(members)
        }
        XCTAssertFalse(expected.isEmpty)
        let rows = try harness.eventsThroughCLI("SELECT * FROM navlog_events WHERE session = 's-1' AND kind = 'viewmodel.change'")
        assertRowsEqual(rows, expected, "one session, one kind")
    }

    /// A statement that reads few columns decodes only those fields (`colUsed`): each
    /// projection must still equal what `navlog show` prints.
    func testProjectionsReadTheColumnsTheyName() throws {
        let harness = try SQLiteExtensionHarness(self)
        let cases: [(columns: [String], filter: String, isIncluded: (Event) -> Bool)] = [
            (["seq", "kind", "session"], "WHERE session = 's-1'", { $0.session == "s-1" }),
            (["seq", "subject_type", "screen"], "WHERE kind = 'action'", { $0.kind.rawValue == "action" }),
            (["seq", "parent"], "WHERE seq < 40", { $0.seq < 40 }),
            (["seq", "payload"], "WHERE seq BETWEEN 200 AND 260", { (200...260).contains($0.seq) }),
            // The envelope alone: read from the front of each block, without building events.
            (["seq", "time", "mono_ns", "run", "session", "session_seq", "kind", "cause"], "", { _ in true }),
            (["kind", "session"], "WHERE seq BETWEEN 100 AND 300", { (100...300).contains($0.seq) }),
            (["seq", "run", "time"], "WHERE kind = 'action' AND session = 's-2'", { $0.kind.rawValue == "action" && $0.session == "s-2" }),
        ]
        for (columns, filter, isIncluded) in cases {
            let sql = "SELECT \(columns.joined(separator: ", ")) FROM navlog_events \(filter)"
            let result = try harness.runCLI(sql)
            XCTAssertEqual(result.status, 0, result.stderr)
            let rows = try (JSONValue(parsing: result.stdout).arrayValue ?? []).map { row -> JSONValue in
                var members = (row.objectValue ?? [:]).filter { $0.value != .null }
                if let payload = members["payload"]?.stringValue { members["payload"] = try JSONValue(parsing: payload) }
                return .object(members)
            }
            let expected = try harness.shown(where: isIncluded).map { event -> JSONValue in
                .object((event.objectValue ?? [:]).filter { columns.contains($0.key) })
            }
            assertRowsEqual(rows, expected, sql)
        }
    }

    /// SQLite unloads an extension when the connection that loaded it closes, but the Swift
    /// runtime keeps pointers into the library: it must stay mapped, and load again in the same
    /// process (ExtensionFuzzTests crashed on the second load before it did).
    func testOneProcessLoadsTheExtensionIntoConnectionAfterConnection() throws {
        let harness = try SQLiteExtensionHarness(self)
        let program = """
            import sqlite3, sys
            for _ in range(3):
                connection = sqlite3.connect(sys.argv[1])
                connection.enable_load_extension(True)
                connection.load_extension(sys.argv[2])
                print(connection.execute("SELECT count(*) FROM navlog_events").fetchone()[0])
                try:
                    connection.execute("SELECT * FROM navlog_visits('nope')").fetchall()
                except sqlite3.Error as error:
                    print(error)
                connection.close()
                # SQLite has dlclose'd the library; it must stay mapped all the same.
                print(any("libNavlogSQLite" in line for line in open("/proc/self/maps")))
            """
        let result = try runTool("/usr/bin/python3", ["-c", program, harness.file, SQLiteExtensionHarness.library])
        XCTAssertEqual(result.status, 0, result.stderr)
        let error = "navlog_visits: nope is not a navlog journal: the connection has no database named 'nope'"
        XCTAssertEqual(result.stdout, String(repeating: "\(harness.shown.count)\n\(error)\nTrue\n", count: 3))
    }

    // MARK: - Helpers

    private func assertRowsEqual(_ actual: [JSONValue], _ expected: [JSONValue], _ query: String,
                                 file: StaticString = #filePath, line: UInt = #line) {
        guard actual != expected else { return }
        var lines = ["\(query): rows differ (Expected: -, Actual: +); expected \(expected.count), actual \(actual.count)"]
        for index in 0..<max(actual.count, expected.count) where lines.count < 7 {
            let left: JSONValue? = index < expected.count ? expected[index] : nil
            let right: JSONValue? = index < actual.count ? actual[index] : nil
            if left != right {
                lines.append("- [\(index)] \(left?.serialized() ?? "(none)")")
                lines.append("+ [\(index)] \(right?.serialized() ?? "(none)")")
            }
        }
        XCTFail(lines.joined(separator: "\n"), file: file, line: line)
    }
}
