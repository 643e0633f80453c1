import Export
import Foundation
import Navigation
import XCTest

/// `navlog export --format clickhouse`: the schema, the rows, and the SQL of Config/clickhouse/
/// against `navlog report`.
final class ClickHouseExportTests: XCTestCase {
    private func rows(_ table: String, of journal: String) throws -> [[String: JSONValue]] {
        let text = try ExportTestSupport.export(["export", journal, "--format", "clickhouse", "--table", table])
        return try text.split(separator: "\n").map { try XCTUnwrap(try JSONValue(parsing: String($0)).objectValue) }
    }

    func testSchemaIsTheCheckedInFileAndDeclaresMergeTreesWithCodecs() throws {
        let printed = try ExportTestSupport.export(["export", "--format", "clickhouse", "--table", "schema"])
        let file = try String(contentsOf: ExportTestSupport.packageRoot.appendingPathComponent("Config/clickhouse/schema.sql"), encoding: .utf8)
        XCTAssertEqual(printed, file, "Config/clickhouse/schema.sql is the output of --table schema")
        XCTAssertEqual(printed, ClickHouseSchema.createStatements)
        for table in ["navlog_events", "navlog_visits"] {
            XCTAssertTrue(printed.contains("CREATE TABLE IF NOT EXISTS \(table)\n"), table)
        }
        XCTAssertEqual(printed.components(separatedBy: "ENGINE = MergeTree").count, 3)
        XCTAssertTrue(printed.contains("ORDER BY (app, run, session, session_seq);"))
        XCTAssertTrue(printed.contains("time         DateTime64(9, 'UTC') CODEC(Delta, ZSTD)"))
        XCTAssertTrue(printed.contains("kind         LowCardinality(String)"))
    }

    func testRowsHoldExactlyTheDeclaredColumns() throws {
        let journal = ExportTestSupport.seedJournal
        let events = try rows("events", of: journal)
        let recorded = try ExportTestSupport.events(in: journal)
        XCTAssertEqual(events.count, recorded.count)
        let eventColumns = Set(ClickHouseSchema.eventColumns.map(\.name))
        for row in events { XCTAssertEqual(Set(row.keys), eventColumns) }
        // The first row is the first event, with its app from session.start.
        XCTAssertEqual(events.first?["kind"], .string(recorded[0].kind.rawValue))
        XCTAssertEqual(events.first?["app"], recorded[0].payload["app"])
        let time = try XCTUnwrap(events.first?["time"]?.stringValue)
        XCTAssertEqual(time, Event.formatTime(recorded[0].wallNanoseconds).dropLast().replacingOccurrences(of: "T", with: " "))

        let visits = try rows("visits", of: journal)
        let visitColumns = Set(ClickHouseSchema.visitColumns.map(\.name))
        for row in visits { XCTAssertEqual(Set(row.keys), visitColumns) }
        for row in visits {
            XCTAssertEqual(row["dwell_ns"]?.intValue, (row["end_mono_ns"]?.intValue ?? 0) - (row["start_mono_ns"]?.intValue ?? 0))
        }
        let sessions = Set(recorded.map { "\($0.run)/\($0.session)" })
        XCTAssertEqual(Set(visits.filter { $0["visit"] == 1 }.map { "\($0["run"]!.stringValue!)/\($0["session"]!.stringValue!)" }), sessions)
    }

    /// Runs transitions.sql and dwell.sql, translated to SQLite, over the exported visits.
    /// The only translations: count() → count(*), and ClickHouse's
    /// quantileExactInclusive(0.5) → the mean of the middle one or two rows.
    static let sqliteQueries = """
        import json, sqlite3, sys
        rows = [json.loads(line) for line in open(sys.argv[1])]
        db = sqlite3.connect(":memory:")
        db.execute("CREATE TABLE navlog_visits (run TEXT, session TEXT, visit INTEGER, screen_type TEXT, from_screen_type TEXT, dwell_ns INTEGER)")
        db.executemany("INSERT INTO navlog_visits VALUES (?, ?, ?, ?, ?, ?)",
            [(r["run"], r["session"], r["visit"], r["screen_type"], r["from_screen_type"], r["dwell_ns"]) for r in rows])
        transitions = db.execute('''
            SELECT from_screen_type AS from_screen, screen_type AS to_screen, count(*) AS transitions,
                   round(count(*) * 1.0 / sum(count(*)) OVER (PARTITION BY from_screen_type), 4) AS share
            FROM navlog_visits WHERE visit > 1
            GROUP BY from_screen_type, screen_type
            ORDER BY transitions DESC, from_screen, to_screen''').fetchall()
        dwell = db.execute('''
            SELECT screen_type, max(n), round(avg(dwell_ns) / 1e6, 3) FROM (
                SELECT screen_type, dwell_ns,
                       row_number() OVER (PARTITION BY screen_type ORDER BY dwell_ns) AS rank,
                       count(*) OVER (PARTITION BY screen_type) AS n
                FROM navlog_visits)
            WHERE rank IN ((n + 1) / 2, (n + 2) / 2)
            GROUP BY screen_type''').fetchall()
        print(json.dumps({"transitions": transitions, "dwell": dwell}))
        """

    /// Evaluates funnel.sql step by step in Python (SQLite has no arrayFold): the same fold over
    /// each session's visits, then the same countIf expressions per step.
    static let funnelEvaluation = """
        import json, sys
        steps = sys.argv[2].split(",")
        paths = {}
        for line in open(sys.argv[1]):
            row = json.loads(line)
            paths.setdefault((row["run"], row["session"]), []).append((row["visit"], row["screen_type"]))
        reached = []
        for visits in paths.values():
            count = 0
            for _, screen in sorted(visits):
                if count < len(steps) and screen == steps[count]: count += 1
            reached.append(count)
        def count_if(k): return sum(1 for r in reached if r >= k)
        result = []
        for step in range(1, len(steps) + 1):
            sessions = count_if(step)
            conversion = 0 if count_if(1) == 0 else round(sessions / count_if(1), 4)
            if step == 1: step_conversion = 1 if sessions > 0 else 0
            else: step_conversion = 0 if count_if(step - 1) == 0 else round(sessions / count_if(step - 1), 4)
            drop_off = 0 if step == len(steps) else sessions - count_if(step + 1)
            result.append([steps[step - 1], sessions, conversion, step_conversion, drop_off])
        print(json.dumps(result))
        """

    func testTheFunnelSQLGivesTheFunnelOfTheReport() throws {
        let journal = ExportTestSupport.seedJournal
        let visits = try ExportTestSupport.export(["export", journal, "--format", "clickhouse", "--table", "visits"])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("visits-\(UUID().uuidString).jsonl")
        try visits.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        for steps in ["Dashboard,Settings,Profile", "Master,Detail,Share"] {
            let result = try ExportTestSupport.python(ClickHouseExportTests.funnelEvaluation, [file.path, steps])
            XCTAssertEqual(result.status, 0, result.stderr)
            let actual = try JSONValue(parsing: result.stdout).arrayValue?.map { $0.serialized() }
            let report = try JSONValue(parsing: try ExportTestSupport.export(["report", journal, "--output", "json", "--funnel", steps]))
            let expected = report["funnels"]?.arrayValue?.first?["steps"]?.arrayValue?.map { step -> String in
                let fields: [JSONValue] = [step["screen"]!, step["sessions"]!, step["conversion"]!, step["step_conversion"]!, step["drop_off"]!]
                return JSONValue.array(fields).serialized()
            }
            XCTAssertEqual(actual, expected, steps)
            XCTAssertGreaterThan(report["funnels"]?.arrayValue?.first?["steps"]?.arrayValue?.first?["sessions"]?.intValue ?? 0, 0, steps)
        }
    }

    func testTheSQLGivesTheTransitionsSharesAndDwellMediansOfTheReport() throws {
        let journal = ExportTestSupport.seedJournal
        let visits = try ExportTestSupport.export(["export", journal, "--format", "clickhouse", "--table", "visits"])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("visits-\(UUID().uuidString).jsonl")
        try visits.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ExportTestSupport.python(ClickHouseExportTests.sqliteQueries, [file.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let sql = try JSONValue(parsing: result.stdout)
        let report = try JSONValue(parsing: try ExportTestSupport.export(["report", journal, "--output", "json"]))

        let expectedTransitions = (report["transitions"]?.arrayValue ?? []).map { item in
            "\(item["from"]!.stringValue!)>\(item["to"]!.stringValue!) \(item["count"]!.intValue!) \(item["share"]!.doubleValue!)"
        }
        let actualTransitions = (sql["transitions"]?.arrayValue ?? []).map { row in
            "\(row.arrayValue![0].stringValue!)>\(row.arrayValue![1].stringValue!) \(row.arrayValue![2].intValue!) \(row.arrayValue![3].doubleValue!)"
        }
        XCTAssertFalse(expectedTransitions.isEmpty)
        XCTAssertEqual(actualTransitions, expectedTransitions)

        var medians: [String: (n: Int64, median: Double)] = [:]
        for row in sql["dwell"]?.arrayValue ?? [] {
            let columns = row.arrayValue!
            medians[columns[0].stringValue!] = (columns[1].intValue!, columns[2].doubleValue!)
        }
        let dwell = report["dwell"]?.arrayValue ?? []
        XCTAssertEqual(Set(medians.keys), Set(dwell.compactMap { $0["screen"]?.stringValue }))
        for item in dwell {
            let screen = item["screen"]!.stringValue!
            XCTAssertEqual(medians[screen]?.n, item["n"]?.intValue, screen)
            XCTAssertEqual(medians[screen]?.median ?? -1, item["median_ms"]?.doubleValue ?? 0, accuracy: 0.0011, screen)
        }
    }
}
