import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

/// `navlog_visits` gives the transitions and dwell medians `navlog report -o json` gives.
final class VisitsTableTests: XCTestCase {
    /// The median of durations in milliseconds as docs/REPORT.md defines it, worked out exactly:
    /// each value back to its whole nanoseconds, the middle one (or the mean of the two middle
    /// ones), rounded to the microsecond with halves up. Python's `round(x, 3)` of the float
    /// rounds the binary fraction instead, and put 37,500 ns at 0.037 where the rule says 0.038.
    private static let medianFunction = """
        import math
        from fractions import Fraction
        def median_ms(values):
            nanoseconds = sorted(round(value * 1_000_000) for value in values)
            middle = len(nanoseconds) // 2
            exact = Fraction(nanoseconds[middle]) if len(nanoseconds) % 2 else Fraction(nanoseconds[middle - 1] + nanoseconds[middle], 2)
            return math.floor(exact / 1000 + Fraction(1, 2)) / 1000

        """

    /// Through Python's `sqlite3` with the extension: transitions as `[from, to, count]`, and
    /// per screen type the median of uncensored `dwell_ms` (``medianFunction``), how many there
    /// are, and how many are censored.
    private static let program = medianFunction + """
        import json, sqlite3, sys
        database, library = sys.argv[1:3]
        connection = sqlite3.connect(database)
        connection.enable_load_extension(True)
        connection.load_extension(library)
        transitions = connection.execute(
            "SELECT screen_type, next, count(*) FROM navlog_visits WHERE next IS NOT NULL GROUP BY 1, 2").fetchall()
        dwell = {}
        for screen_type, dwell_ms, censored in connection.execute("SELECT screen_type, dwell_ms, censored FROM navlog_visits"):
            entry = dwell.setdefault(screen_type, {"values": [], "censored": 0})
            if censored:
                entry["censored"] += 1
            else:
                entry["values"].append(dwell_ms)
        print(json.dumps({
            "transitions": sorted([list(row) for row in transitions]),
            "dwell": {key: [median_ms(entry["values"]) if entry["values"] else None,
                            len(entry["values"]), entry["censored"]] for key, entry in dwell.items()},
        }))
        """

    func testTransitionsAndDwellMediansEqualTheReports() throws {
        let directory = makeTemporaryDirectory(self)
        let explore = try Product.navlog.run(["explore", "tabs", "--seed", "7", "--steps", "300", "--sessions", "4", "--journal", directory])
        XCTAssertEqual(explore.status, 0, explore.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".navlog") }
        let file = directory + "/" + (try XCTUnwrap(files.first))
        let report = try Product.navlog.run(["report", directory, "-o", "json"])
        XCTAssertEqual(report.status, 0, report.stderr)
        let figures = try JSONValue(parsing: report.stdout)

        let python = try runTool("/usr/bin/python3", ["-c", Self.program, file, SQLiteExtensionHarness.library])
        XCTAssertEqual(python.status, 0, python.stderr)
        let sql = try JSONValue(parsing: python.stdout)

        let expectedTransitions = (figures["transitions"]?.arrayValue ?? []).map { entry in
            "\(entry["from"]?.stringValue ?? "?") -> \(entry["to"]?.stringValue ?? "?"): \(entry["count"]?.intValue ?? -1)"
        }.sorted()
        let actualTransitions = (sql["transitions"]?.arrayValue ?? []).map { row in
            let values = row.arrayValue ?? []
            return "\(values[0].stringValue ?? "?") -> \(values[1].stringValue ?? "?"): \(values[2].intValue ?? -1)"
        }.sorted()
        XCTAssertGreaterThan(expectedTransitions.count, 5)
        XCTAssertEqual(actualTransitions, expectedTransitions)

        let expectedDwell = (figures["dwell"]?.arrayValue ?? []).map { entry in
            "\(entry["screen"]?.stringValue ?? "?"): median \(entry["median_ms"]?.doubleValue ?? -1) ms of \(entry["n"]?.intValue ?? -1), censored \(entry["censored"]?.intValue ?? -1)"
        }.sorted()
        let actualDwell = (sql["dwell"]?.objectValue ?? [:]).compactMap { type, values -> String? in
            let values = values.arrayValue ?? []
            guard let median = values[0].doubleValue else { return nil }
            return "\(type): median \(median) ms of \(values[1].intValue ?? -1), censored \(values[2].intValue ?? -1)"
        }.sorted()
        XCTAssertGreaterThan(expectedDwell.count, 3)
        XCTAssertEqual(actualDwell, expectedDwell)
    }

    /// Per screen type: how the first visits' loads ended, and the median `load_ms` of those
    /// that were ready, against the report's load section.
    private static let loadProgram = medianFunction + """
        import json, sqlite3, sys
        database, library = sys.argv[1:3]
        connection = sqlite3.connect(database)
        connection.enable_load_extension(True)
        connection.load_extension(library)
        loads = {}
        for screen_type, load_ms, outcome in connection.execute(
                "SELECT screen_type, load_ms, load_outcome FROM navlog_visits WHERE load_outcome IS NOT NULL"):
            entry = loads.setdefault(screen_type, {"values": [], "outcomes": {}})
            entry["outcomes"][outcome] = entry["outcomes"].get(outcome, 0) + 1
            if load_ms is not None:
                entry["values"].append(load_ms)
        print(json.dumps({key: {"median_ms": median_ms(entry["values"]) if entry["values"] else None,
                                "n": len(entry["values"]), **entry["outcomes"]} for key, entry in loads.items()}))
        """

    func testLoadTimesEqualTheReportsLoadSection() throws {
        let directory = makeTemporaryDirectory(self)
        let explore = try Product.navlog.run(["explore", "articles", "--seed", "5", "--steps", "100", "--sessions", "12",
                                              "--journal", directory])
        XCTAssertLessThanOrEqual(explore.status, 1, explore.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".navlog") }
        let file = directory + "/" + (try XCTUnwrap(files.first))
        let report = try JSONValue(parsing: try Product.navlog.run(["report", directory, "-o", "json"]).stdout)
        let python = try runTool("/usr/bin/python3", ["-c", Self.loadProgram, file, SQLiteExtensionHarness.library])
        XCTAssertEqual(python.status, 0, python.stderr)
        let sql = try JSONValue(parsing: python.stdout)
        let keys = ["loaded", "empty", "failed", "abandoned", "censored", "n"]
        let expected = (report["load"]?.arrayValue ?? []).map { entry in
            "\(entry["screen"]?.stringValue ?? "?"): " + keys.map { "\($0) \(entry[$0]?.intValue ?? 0)" }.joined(separator: ", ")
                + ", median \(entry["median_ms"]?.doubleValue.map { String($0) } ?? "none")"
        }.sorted()
        let actual = (sql.objectValue ?? [:]).map { screen, entry in
            "\(screen): " + keys.map { "\($0) \(entry[$0]?.intValue ?? 0)" }.joined(separator: ", ")
                + ", median \(entry["median_ms"]?.doubleValue.map { String($0) } ?? "none")"
        }.sorted()
        XCTAssertGreaterThan(expected.count, 1)
        // The feed loads for latency_ms (300 ms by default): real load times, not only instant ones.
        XCTAssertTrue(expected.contains { $0.hasPrefix("Articles: loaded 12,") && $0.contains("median 300.") }, "\(expected)")
        XCTAssertEqual(actual, expected)
    }
}
