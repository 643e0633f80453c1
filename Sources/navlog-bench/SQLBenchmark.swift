import Foundation

/// SQL over the report part's journal through the `NavlogSQLite` extension in the `sqlite3`
/// CLI, against the same SQL over baseline A's plain rows of the same events (issue 21).
///
/// Each query is timed by `sqlite3`'s own `.timer` (the statement alone: not the process's
/// start, nor loading the extension and the Swift runtime), fastest of ``rounds`` alternating
/// turns; both sides must print the same rows, or the figure is refused.
enum SQLBenchmark {
    static let rounds = 3

    struct Result {
        /// `SELECT kind, count(*) … GROUP BY kind`: through the extension, over the rows.
        var scanSeconds: Double
        var rowsScanSeconds: Double
        /// One session's events counted: through the extension, over the rows (no index).
        var oneSessionSeconds: Double
        var rowsOneSessionSeconds: Double
        var session: String
        var sessionEvents: Int
        var files: Int
    }

    static func run(journalDirectory: String, rowsPath: String, library: String, root: String) throws -> Result {
        let files = try FileManager.default.contentsOfDirectory(atPath: journalDirectory).filter { $0.hasSuffix(".navlog") }.sorted()
        guard !files.isEmpty else { throw BenchmarkError("\(journalDirectory) holds no journal file") }
        let sqlite3 = try ChildProcess.find("sqlite3")
        let setup = [".load \(library)"] + files.enumerated().map { "ATTACH '\(journalDirectory)/\($1)' AS f\($0 + 1);" }
        /// The same query over every file, summed per group.
        func overFiles(_ select: (String) -> String) -> String {
            files.indices.map { select("navlog_events('f\($0 + 1)')") }.joined(separator: " UNION ALL ")
        }
        let session = try query(sqlite3, rowsPath, [], "SELECT session FROM event WHERE seq = (SELECT max(seq) / 2 FROM event);", root).rows
        guard let name = session.first, !name.isEmpty else { throw BenchmarkError("baseline A's rows name no session") }
        let quoted = "'" + name.replacingOccurrences(of: "'", with: "''") + "'"
        let scan = "SELECT kind, sum(n) FROM (\(overFiles { "SELECT kind, count(*) AS n FROM \($0) GROUP BY kind" })) GROUP BY kind ORDER BY kind;"
        let rowsScan = "SELECT kind, count(*) FROM event GROUP BY kind ORDER BY kind;"
        let one = "SELECT sum(n) FROM (\(overFiles { "SELECT count(*) AS n FROM \($0) WHERE session = \(quoted)" }));"
        let rowsOne = "SELECT count(*) FROM event WHERE session = \(quoted);"
        var times = (scan: [Double](), rowsScan: [Double](), one: [Double](), rowsOne: [Double]())
        var sessionEvents = 0
        for _ in 0..<rounds {
            let extensionScan = try query(sqlite3, ":memory:", setup, scan, root)
            let plainScan = try query(sqlite3, rowsPath, [], rowsScan, root)
            guard extensionScan.rows == plainScan.rows else {
                throw BenchmarkError("kinds through the extension \(extensionScan.rows) differ from baseline A's \(plainScan.rows)")
            }
            let extensionOne = try query(sqlite3, ":memory:", setup, one, root)
            let plainOne = try query(sqlite3, rowsPath, [], rowsOne, root)
            guard extensionOne.rows == plainOne.rows, let count = Int(plainOne.rows.first ?? "") else {
                throw BenchmarkError("session \(name): \(extensionOne.rows) events through the extension, \(plainOne.rows) in baseline A")
            }
            sessionEvents = count
            times.scan.append(extensionScan.seconds)
            times.rowsScan.append(plainScan.seconds)
            times.one.append(extensionOne.seconds)
            times.rowsOne.append(plainOne.seconds)
        }
        return Result(scanSeconds: times.scan.min() ?? 0, rowsScanSeconds: times.rowsScan.min() ?? 0,
                      oneSessionSeconds: times.one.min() ?? 0, rowsOneSessionSeconds: times.rowsOne.min() ?? 0,
                      session: name, sessionEvents: sessionEvents, files: files.count)
    }

    /// Runs `sql` in `sqlite3` on `database` after the dot commands and statements of `setup`,
    /// and returns its rows and the time `.timer` gives the last statement.
    private static func query(_ sqlite3: String, _ database: String, _ setup: [String], _ sql: String, _ root: String) throws -> (rows: [String], seconds: Double) {
        let script = root + "/sql-bench.sql"
        try (setup + [".timer on", sql]).joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
        let output = root + "/sql-bench.out"
        let run = try ChildProcess.measure(sqlite3, ["-bail", database, ".read \(script)"], stdout: output)
        guard run.status == 0 else { throw BenchmarkError("sqlite3 exited \(run.status) on \(sql) (its error is above)") }
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map(String.init)
        guard let timer = lines.last(where: { $0.hasPrefix("Run Time: real ") }),
              let seconds = Double(timer.dropFirst("Run Time: real ".count).prefix { $0 != " " }) else {
            throw BenchmarkError("sqlite3 printed no .timer line for \(sql)")
        }
        return (lines.filter { !$0.hasPrefix("Run Time: ") }, seconds)
    }
}
