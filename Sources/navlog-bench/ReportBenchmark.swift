import Foundation
import NavlogEvents
import NavlogJournal

/// `navlog report` over a large journal against the same aggregation done by the `sqlite3`
/// CLI over baseline A's plain rows of the same events (A), and by DuckDB over those rows
/// stored as Parquet, zstd level 19 (C; the file's size is D), each in a child process so its
/// time and peak memory are its own.
///
/// The three take turns, ``rounds`` times each, and each is timed by its fastest turn: this
/// host's speed drifts by up to 2x within minutes, and one turn each, one after the other,
/// measured the drift as much as the programs. DuckDB's time is its query alone, as
/// `scripts/bench_duckdb.py` measures it (not Python's start nor `import duckdb`).
enum ReportBenchmark {
    static let rounds = 2

    struct Result {
        var events: Int
        /// The fastest turn's time.
        var reportSeconds: Double
        var reportPeakRSSMegabytes: Double
        var sqliteSeconds: Double
        var sqlitePeakRSSMegabytes: Double
        /// Every turn's time, in order.
        var reportTurns: [Double]
        var sqliteTurns: [Double]
        var reportSessions: Int64
        var sqliteRows: Int
        /// Baseline C: DuckDB's fastest query, every turn, and its result rows.
        var duckdbSeconds: Double
        var duckdbTurns: [Double]
        var duckdbRows: Int
        var duckdbThreads: String
        /// Baseline D: the Parquet file, and the journal of the same events.
        var parquetBytes: Int64
        var journalBytes: Int64
    }

    /// The same figures the report's transitions and dwell sections give: transitions between
    /// visible screen types per session, and the median time each screen type stays visible
    /// (the lower median, picked as `position * 2 IN (total, total + 1)` so that SQLite's integer
    /// division and DuckDB's float one agree).
    static let sql = """
        WITH nav AS (
          SELECT session, session_seq, mono_ns,
                 CASE WHEN kind IN ('screen.pop', 'screen.dismiss') THEN json_extract(payload, '$.to') ELSE screen END AS visible
          FROM event
          WHERE kind IN ('screen.push', 'screen.pop', 'screen.present', 'screen.dismiss', 'window.root', 'tab.select')
        ),
        typed AS (
          SELECT session, session_seq, mono_ns, substr(visible, 1, instr(visible, '#') - 1) AS type
          FROM nav WHERE visible IS NOT NULL
        ),
        ordered AS (
          SELECT type, mono_ns,
                 LAG(type) OVER w AS previous,
                 LEAD(mono_ns) OVER w AS next_mono
          FROM typed WINDOW w AS (PARTITION BY session ORDER BY session_seq)
        ),
        transitions AS (
          SELECT previous, type, count(*) AS n FROM ordered
          WHERE previous IS NOT NULL AND previous != type GROUP BY previous, type
        ),
        dwell AS (
          SELECT type, next_mono - mono_ns AS duration,
                 ROW_NUMBER() OVER (PARTITION BY type ORDER BY next_mono - mono_ns) AS position,
                 COUNT(*) OVER (PARTITION BY type) AS total
          FROM ordered WHERE next_mono IS NOT NULL
        )
        SELECT 'transition', previous, type, n FROM transitions
        UNION ALL
        SELECT 'dwell_median_ms', type, NULL, duration / 1e6 FROM dwell WHERE position * 2 IN (total, total + 1);
        """

    static func run(events count: Int, root: String, navlog: String, duckdbScript: String, line: (String) -> Void) throws -> Result {
        let journalDirectory = root + "/report-journal"
        let rowsPath = root + "/report-rows.sqlite"
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: journalDirectory, labels: ["bench": "report"]))
        let rows = RowWriter(path: rowsPath, batch: 4096)
        var workload = Workload()
        var written = 0
        let generationStart = monotonicSeconds()
        while written < count {
            let chunk = workload.makeChunk(count: min(100_000, count - written))
            for event in chunk { writer.record(event) }
            rows.insert(chunk)
            written += chunk.count
        }
        let tail = workload.finishAll()
        for event in tail { writer.record(event) }
        rows.insert(tail)
        written += tail.count
        try writer.close()
        rows.close()
        line("report workload: \(written) events written to a journal and to baseline A rows in \(String(format: "%.1f", monotonicSeconds() - generationStart)) s")
        let parquetPath = root + "/report-rows.parquet"
        let python = try ChildProcess.find("python3")
        let conversion = try ChildProcess.measure(python, [duckdbScript, "convert", rowsPath, parquetPath], stdout: root + "/duckdb-convert.json")
        guard conversion.status == 0 else { throw BenchmarkError("\(duckdbScript) convert exited \(conversion.status) (its error is above)") }
        let converted = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: root + "/duckdb-convert.json")))
        guard converted["rows"]?.intValue == Int64(written) else {
            throw BenchmarkError("the Parquet file holds \(converted["rows"]?.serialized() ?? "no") rows, not \(written)")
        }
        // The conversion is deterministic, so scripts/bench_duckdb.py keeps its result by the rows' SHA-256.
        let how = converted["cached"]?.boolValue == true ? "from the cache of an earlier identical conversion" : "through DuckDB"
        line("baseline C/D: baseline A's rows as Parquet (zstd 19) \(how) in \(String(format: "%.1f", conversion.seconds)) s")

        let reportOutput = root + "/report.json"
        let sqlPath = root + "/report.sql"
        try sql.write(toFile: sqlPath, atomically: true, encoding: .utf8)
        let sqliteOutput = root + "/sqlite.out"
        let sqlite3 = try ChildProcess.find("sqlite3")
        var reports: [ChildProcess.Measurement] = []
        var sqlites: [ChildProcess.Measurement] = []
        var duckdbs: [JSONValue] = []
        let duckdbOutput = root + "/duckdb.out"
        for _ in 0..<rounds {
            let report = try ChildProcess.measure(navlog, ["report", journalDirectory, "--output", "json"], stdout: reportOutput)
            guard report.status == 0 else { throw BenchmarkError("navlog report exited \(report.status); see \(reportOutput)") }
            reports.append(report)
            let sqlite = try ChildProcess.measure(sqlite3, [rowsPath, ".read \(sqlPath)"], stdout: sqliteOutput)
            guard sqlite.status == 0 else { throw BenchmarkError("sqlite3 exited \(sqlite.status)") }
            sqlites.append(sqlite)
            let duckdb = try ChildProcess.measure(python, [duckdbScript, "query", parquetPath, sqlPath, duckdbOutput], stdout: root + "/duckdb-query.json")
            guard duckdb.status == 0 else { throw BenchmarkError("\(duckdbScript) query exited \(duckdb.status) (its error is above)") }
            duckdbs.append(try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: root + "/duckdb-query.json"))))
        }
        let reportJSON = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: reportOutput)))
        guard reportJSON["events"]?.intValue == Int64(written) else {
            throw BenchmarkError("navlog report counted \(reportJSON["events"]?.serialized() ?? "nothing"), not \(written) events")
        }
        let sqliteRows = try String(contentsOfFile: sqliteOutput, encoding: .utf8).split(separator: "\n").count
        let duckdbTurns = duckdbs.compactMap { $0["seconds"]?.doubleValue }
        let duckdbRows = Int(duckdbs.last?["rows"]?.intValue ?? -1)
        // The same SQL over the same rows: the same figures, or one of the two did not run it.
        guard duckdbRows == sqliteRows else { throw BenchmarkError("DuckDB returned \(duckdbRows) rows and sqlite3 \(sqliteRows) for the same SQL") }
        let journalBytes = try directoryBytes(journalDirectory)
        return Result(
            events: written, reportSeconds: reports.map(\.seconds).min() ?? 0,
            reportPeakRSSMegabytes: Double(reports.map(\.maxRSSKilobytes).max() ?? 0) / 1024,
            sqliteSeconds: sqlites.map(\.seconds).min() ?? 0,
            sqlitePeakRSSMegabytes: Double(sqlites.map(\.maxRSSKilobytes).max() ?? 0) / 1024,
            reportTurns: reports.map(\.seconds), sqliteTurns: sqlites.map(\.seconds),
            reportSessions: reportJSON["sessions"]?["count"]?.intValue ?? 0, sqliteRows: sqliteRows,
            duckdbSeconds: duckdbTurns.min() ?? 0, duckdbTurns: duckdbTurns, duckdbRows: duckdbRows,
            duckdbThreads: duckdbs.last?["threads"].map { $0.stringValue ?? $0.serialized() } ?? "?",
            parquetBytes: converted["bytes"]?.intValue ?? 0, journalBytes: journalBytes
        )
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs a program to completion and reads its wall time and peak memory.
///
/// Peak memory comes from GNU time (`%M`), which forks from its own small process: `wait4` in
/// this process would report this process's peak, since a spawned child starts from its
/// parent's high-water mark.
enum ChildProcess {
    struct Measurement {
        var status: Int32
        var seconds: Double
        var maxRSSKilobytes: Int
    }

    /// Runs `path`, its stdout to `output`; GNU time writes to `timeOutput` (default: `output`
    /// with `.time` added, which /dev/null cannot take).
    static func measure(_ path: String, _ arguments: [String], stdout output: String, timeOutput: String? = nil) throws -> Measurement {
        let timeOutput = timeOutput ?? output + ".time"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let time = try find("time")
        let argv = ([time, "-f", "%M", "-o", timeOutput, path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let start = monotonicSeconds()
        let spawned = posix_spawn(&pid, time, &actions, nil, argv, environ)
        guard spawned == 0 else { throw BenchmarkError("cannot start \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let seconds = monotonicSeconds() - start
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let report = (try? String(contentsOfFile: timeOutput, encoding: .utf8)) ?? ""
        guard let kilobytes = report.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
            throw BenchmarkError("GNU time gave no peak memory for \(path): \(report)")
        }
        return Measurement(status: exitStatus, seconds: seconds, maxRSSKilobytes: kilobytes)
    }

    /// The full path of `program` on `PATH`.
    static func find(_ program: String) throws -> String {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw BenchmarkError("\(program) is not on PATH; scripts/setup installs it")
    }
}
