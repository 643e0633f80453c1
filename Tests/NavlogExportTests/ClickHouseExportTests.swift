import Foundation
import NavlogEvents
import NavlogExport
import NavlogTestSupport
import XCTest

/// `navlog export --format clickhouse`: the schema, the rows, and the SQL of Config/clickhouse/
/// against `navlog report`.
final class ClickHouseExportTests: XCTestCase {
    /// Exports the visits of `journal` into a JSONEachRow file, removed when the test ends.
    private func visitsFile(of journal: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("visits-\(UUID().uuidString).jsonl")
        try ExportTestSupport.export(["export", journal, "--format", "clickhouse", "--table", "visits"]).write(to: file, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: file) }
        return file
    }

    private func rows(_ table: String, of journal: String) throws -> [[String: JSONValue]] {
        let text = try ExportTestSupport.export(["export", journal, "--format", "clickhouse", "--table", table])
        return try text.split(separator: "\n").map { try XCTUnwrap(try JSONValue(parsing: String($0)).objectValue) }
    }

    func testSchemaIsTheCheckedInFileAndDeclaresMergeTreesWithCodecs() throws {
        let printed = try ExportTestSupport.export(["export", "--format", "clickhouse", "--table", "schema"])
        let file = try String(contentsOf: Repository.root.appendingPathComponent("Config/clickhouse/schema.sql"), encoding: .utf8)
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
        // Each session's last visit, and only that one, is cut off by its end.
        let lastVisits = Dictionary(grouping: visits) { "\($0["run"]!.stringValue!)/\($0["session"]!.stringValue!)" }.mapValues { $0.count }
        for row in visits {
            let isLast = row["visit"]?.intValue == Int64(lastVisits["\(row["run"]!.stringValue!)/\(row["session"]!.stringValue!)"]!)
            XCTAssertEqual(row["censored"], isLast ? 1 : 0, row.description)
        }
        // A load time goes with a finished load, and only with one.
        for row in visits {
            let outcome = try XCTUnwrap(row["load_outcome"]?.stringValue)
            XCTAssertTrue(["", "loaded", "empty", "failed", "abandoned", "censored"].contains(outcome), outcome)
            XCTAssertEqual(row["load_ms"] != .null, ["loaded", "empty", "failed"].contains(outcome), row.description)
        }
        XCTAssertEqual(Set(visits.compactMap { $0["load_outcome"]?.stringValue }), ["", "loaded", "empty", "failed", "abandoned"])
    }

    func testAnEncoderOfOneTableWritesThatTableAsBothDo() throws {
        let events = try LoadFixture.events()
        func rows(_ tables: Set<ClickHouseEncoder.Table>) -> [ClickHouseEncoder.Table: [String]] {
            var encoder = ClickHouseEncoder(tables: tables)
            var rows: [ClickHouseEncoder.Table: [String]] = [:]
            for event in events { encoder.consume(event) { table, row in rows[table, default: []].append(row.serialized()) } }
            encoder.finish { table, row in rows[table, default: []].append(row.serialized()) }
            return rows
        }
        let both = rows([.events, .visits])
        XCTAssertEqual(both[.events]?.count, events.count)
        XCTAssertEqual(both[.visits]?.count, 8)
        XCTAssertEqual(rows([.events]), [.events: both[.events]!], "no visits tracked nor written")
        XCTAssertEqual(rows([.visits]), [.visits: both[.visits]!], "no event rows made")
    }

    func testVisitRowsTimeEachFirstVisitsLoadAndMarkTheCensoredLastVisit() throws {
        let events = try LoadFixture.events()
        // Slow's report comes after it left the window: dropped.
        XCTAssertEqual(events.filter { $0.kind == .screenReady }.map { "\($0.screen ?? "") \($0.payload["outcome"]?.stringValue ?? "")" },
                       ["Home#1 loaded", "Feed#1 loaded", "Broken#1 failed"])
        var encoder = ClickHouseEncoder()
        var rows: [JSONValue] = []
        for event in events { rows += encoder.consume(event).visits }
        rows += encoder.finish().visits
        let visits = rows.map { row in
            ["screen", "load_outcome", "load_ms", "censored", "dwell_ns"].map { row[$0]?.serialized() ?? "-" }.joined(separator: " ")
        }
        XCTAssertEqual(visits, [
            #""Home#1" "loaded" 0 0 100000000"#,
            #""Feed#1" "loaded" 300 0 500000000"#,
            #""Home#1" "" null 0 400000000"#,
            #""Slow#1" "abandoned" null 0 200000000"#,
            #""Home#1" "" null 0 300000000"#,
            #""Broken#1" "failed" 50 0 300000000"#,
            #""Home#1" "" null 0 200000000"#,
            #""Pending#1" "censored" null 1 500000000"#,
        ])
    }

    /// Runs transitions.sql and dwell.sql, translated to SQLite, over the exported visits.
    /// The only translations: count() → count(*), countIf(c) → sum(c), ClickHouse's
    /// quantileExactInclusiveIf(0.5)(x, c) → the mean of the middle one or two rows where c, and
    /// floor(x) of a positive x → CAST(x AS INTEGER).
    static let sqliteQueries = """
        import json, sqlite3, sys
        rows = [json.loads(line) for line in open(sys.argv[1])]
        db = sqlite3.connect(":memory:")
        db.execute("CREATE TABLE navlog_visits (run TEXT, session TEXT, visit INTEGER, screen_type TEXT, from_screen_type TEXT, dwell_ns INTEGER, censored INTEGER)")
        db.executemany("INSERT INTO navlog_visits VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(r["run"], r["session"], r["visit"], r["screen_type"], r["from_screen_type"], r["dwell_ns"], r["censored"]) for r in rows])
        transitions = db.execute('''
            SELECT from_screen_type AS from_screen, screen_type AS to_screen, count(*) AS transitions,
                   round(count(*) * 1.0 / sum(count(*)) OVER (PARTITION BY from_screen_type), 4) AS share
            FROM navlog_visits WHERE visit > 1
            GROUP BY from_screen_type, screen_type
            ORDER BY transitions DESC, from_screen, to_screen''').fetchall()
        counts = db.execute('''
            SELECT screen_type, sum(censored = 0) AS n, sum(censored = 1) AS censored_visits
            FROM navlog_visits
            GROUP BY screen_type
            ORDER BY n DESC, censored_visits DESC, screen_type''').fetchall()
        medians = dict(db.execute('''
            SELECT screen_type, CAST((avg(dwell_ns) + 500) / 1000 AS INTEGER) / 1000.0 FROM (
                SELECT screen_type, dwell_ns,
                       row_number() OVER (PARTITION BY screen_type ORDER BY dwell_ns) AS rank,
                       count(*) OVER (PARTITION BY screen_type) AS n
                FROM navlog_visits WHERE censored = 0)
            WHERE rank IN ((n + 1) / 2, (n + 2) / 2)
            GROUP BY screen_type''').fetchall())
        dwell = [[screen, n, medians.get(screen), censored] for screen, n, censored in counts]
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
        let file = try visitsFile(of: journal)
        for steps in ["Dashboard,Settings,Profile", "Master,Detail,Share"] {
            let result = try python(ClickHouseExportTests.funnelEvaluation, [file.path, steps])
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
        let file = try visitsFile(of: journal)
        let result = try python(ClickHouseExportTests.sqliteQueries, [file.path])
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

        // Same screens in the same order, same n and censored visits, same medians (null where
        // every visit of a type was cut off).
        let sqlDwell = sql["dwell"]?.arrayValue?.compactMap(\.arrayValue) ?? []
        let dwell = report["dwell"]?.arrayValue ?? []
        XCTAssertEqual(sqlDwell.map { $0[0].stringValue ?? "" }, dwell.map { $0["screen"]?.stringValue ?? "" })
        for (row, item) in zip(sqlDwell, dwell) {
            let screen = item["screen"]!.stringValue!
            XCTAssertEqual(row[1].intValue, item["n"]?.intValue, screen)
            XCTAssertEqual(row[3].intValue, item["censored"]?.intValue, screen)
            if let median = item["median_ms"]?.doubleValue {
                XCTAssertEqual(row[2].doubleValue ?? -1, median, "\(screen): halves of a microsecond round up on both sides")
            } else {
                XCTAssertEqual(row[2], .null, screen)
            }
        }
        XCTAssertGreaterThan(dwell.reduce(0) { $0 + ($1["censored"]?.intValue ?? 0) }, 0, "the seed sessions end on a visit")
    }

    /// Evaluates load.sql step by step in Python, one expression a column: the rows where
    /// load_outcome != '', grouped by screen type, quantileExactInclusive(0.5) as the mean of
    /// the middle one or two times and p90 at rank ceil(0.9 n), both on whole nanoseconds and
    /// rounded to the microsecond halves up, countIf and the two shares with round(x, 4),
    /// ordered by n + abandoned descending, then screen.
    static let loadEvaluation = """
        import json, math, sys
        groups = {}
        for line in open(sys.argv[1]):
            row = json.loads(line)
            if row["load_outcome"] != "":
                groups.setdefault(row["screen_type"], []).append(row)
        result = []
        for screen, rows in groups.items():
            times = sorted(r["load_ms"] for r in rows if r["load_ms"] is not None)
            n = len(times)
            nanoseconds = [round(time * 1e6) for time in times]
            microsecond = lambda ns: math.floor((ns + 500) / 1000) / 1000
            median = None if n == 0 else microsecond((nanoseconds[(n - 1) // 2] + nanoseconds[n // 2]) / 2)
            p90 = None if n == 0 else microsecond(nanoseconds[math.ceil(0.9 * n) - 1])
            count = lambda outcome: sum(1 for r in rows if r["load_outcome"] == outcome)
            abandoned, failed = count("abandoned"), count("failed")
            result.append({
                "screen": screen, "n": n, "median_ms": median, "p90_ms": p90,
                "loaded": count("loaded"), "empty": count("empty"), "failed": failed,
                "abandoned": abandoned, "censored": count("censored"),
                "abandoned_share": 0 if n + abandoned == 0 else round(abandoned / (n + abandoned), 4),
                "failed_share": 0 if n == 0 else round(failed / n, 4),
            })
        result.sort(key=lambda r: (-(r["n"] + r["abandoned"]), r["screen"]))
        print(json.dumps(result))
        """

    func testTheLoadSQLGivesTheLoadSectionOfTheReport() throws {
        let journal = ExportTestSupport.seedJournal
        let file = try visitsFile(of: journal)
        let result = try python(ClickHouseExportTests.loadEvaluation, [file.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let sql = try XCTUnwrap(try JSONValue(parsing: result.stdout).arrayValue)
        let report = try XCTUnwrap(try JSONValue(parsing: try ExportTestSupport.export(["report", journal, "--output", "json"]))["load"]?.arrayValue)

        XCTAssertEqual(sql.map { $0["screen"]?.stringValue ?? "" }, report.map { $0["screen"]?.stringValue ?? "" })
        for (row, item) in zip(sql, report) {
            let screen = item["screen"]!.stringValue!
            for key in ["n", "loaded", "empty", "failed", "abandoned", "censored"] {
                XCTAssertEqual(row[key]?.intValue, item[key]?.intValue, "\(screen) \(key)")
            }
            for key in ["median_ms", "p90_ms"] {
                if let expected = item[key]?.doubleValue {
                    XCTAssertEqual(row[key]?.doubleValue ?? -1, expected, "\(screen) \(key)")
                } else {
                    XCTAssertEqual(row[key], .null, "\(screen) \(key)")
                }
            }
            // Half-way ties round to even in ClickHouse and Python, away from zero in the report.
            for key in ["abandoned_share", "failed_share"] {
                XCTAssertEqual(row[key]?.doubleValue ?? -1, item[key]?.doubleValue ?? 0, accuracy: 0.00011, "\(screen) \(key)")
            }
        }
        // The seed journal has loads of these kinds, so each of their columns was compared.
        for key in ["loaded", "empty", "failed", "abandoned"] {
            XCTAssertGreaterThan(report.reduce(0) { $0 + ($1[key]?.intValue ?? 0) }, 0, key)
        }
        let articles = try XCTUnwrap(report.first { $0["screen"] == "Articles" })
        XCTAssertGreaterThanOrEqual(articles["median_ms"]?.doubleValue ?? 0, 300, "the articles feed takes 300 ms or more to load")
    }
}

final class SettledVisitTests: XCTestCase {
    /// The visits a tracker drops as settled are never changed by a later event: dropped ones
    /// followed by the rest at the end are the visits of a tracker that dropped none.
    func testDroppedVisitsAreTheOnesNoLaterEventChanges() throws {
        for events in [try LoadFixture.events(), Self.takenBackSession(steps: 40)] {
            var whole = ScreenVisitTracker(), trimmed = ScreenVisitTracker()
            var dropped: [ScreenVisit] = []
            for event in events {
                whole.consume(event)
                trimmed.consume(event)
                dropped += trimmed.dropSettledVisits()
                XCTAssertEqual(trimmed.droppedVisitCount, dropped.count)
                XCTAssertLessThanOrEqual(trimmed.visits.count, 2)
            }
            XCTAssertFalse(dropped.isEmpty)
            XCTAssertEqual(dropped + trimmed.finish(), whole.finish())
        }
    }

    /// A stack under Home where each step is either one tap that pushes a screen and pops it
    /// again (one intent: the visit is taken back and Home's reopened) or a push and a pop on
    /// taps of their own.
    static func takenBackSession(steps: Int) -> [Event] {
        var events: [Event] = []
        func add(_ kind: EventKind, _ subject: String, screen: String? = nil, cause: UInt64? = nil, payload: JSONValue = .object([:])) -> UInt64 {
            let seq = UInt64(events.count + 1)
            events.append(Event(
                wallNanoseconds: Int64(seq) * 100_000_000, monotonicNanoseconds: seq * 100_000_000, session: "s-1", sessionSeq: seq,
                kind: kind, subject: subject, screen: screen, cause: cause, payload: payload))
            return seq
        }
        let start = add(.sessionStart, "Session#1", payload: ["app": "taken-back"])
        _ = add(.screenPush, "Stack#1", screen: "Home#1", cause: start, payload: ["stack": "Stack#1"])
        _ = add(.windowRoot, "Window#1", screen: "Home#1", cause: start, payload: ["root": "Stack#1"])
        for step in 1...steps {
            let screen = "Detail#\(step)"
            let tap = add(.action, "Home#1", screen: "Home#1")
            let push = add(.screenPush, "Stack#1", screen: screen, cause: tap, payload: ["stack": "Stack#1"])
            let popCause = step.isMultiple(of: 2) ? push : add(.action, screen, screen: screen)
            _ = add(.screenPop, "Stack#1", screen: screen, cause: popCause, payload: ["stack": "Stack#1"])
        }
        _ = add(.sessionEnd, "Session#1")
        return events
    }
}
