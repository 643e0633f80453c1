import Foundation

/// `navlog export` in every format over one long session, each format against `ndjson` on the
/// same journal in the same run: ndjson only reads and prints each event, so a format that
/// costs much more than it keeps per-session state it should not (issue 18).
///
/// The journal is one `navlog explore tabs` session (a session's visits and spans stay open
/// longest when it is one). Each export runs in a child process under GNU time, writing to
/// /dev/null, so its time and peak RSS are its own. Formats take turns with ndjson,
/// ``rounds`` times each, and each is timed by its fastest turn, as in ``ReportBenchmark``.
enum ExportBenchmark {
    static let rounds = 2

    /// The formats timed against ndjson: a name and the arguments after the journal.
    static let formats: [(name: String, arguments: [String])] = [
        ("otlp-json", ["--format", "otlp-json"]),
        ("otlp-json --otlp-logs", ["--format", "otlp-json", "--otlp-logs"]),
        ("chrome-trace", ["--format", "chrome-trace"]),
        ("clickhouse events", ["--format", "clickhouse", "--table", "events"]),
        ("clickhouse visits", ["--format", "clickhouse", "--table", "visits"]),
    ]

    struct Figure {
        var name: String
        var seconds: Double
        var peakRSSMegabytes: Double
        var turns: [Double]
    }

    struct Result {
        var events: Int
        var steps: Int
        var ndjson: Figure
        var formats: [Figure]

        /// The formats issue 18's target covers (`export_seconds_ratio_vs_ndjson`): otlp-json,
        /// chrome-trace and both clickhouse tables. OTLP logs are timed and printed beside them,
        /// outside the target.
        static let targetFormats: Set<String> = ["otlp-json", "chrome-trace", "clickhouse events", "clickhouse visits"]

        /// The slowest time of the target's formats over ndjson's.
        var slowestRatio: Double { (formats.filter { Self.targetFormats.contains($0.name) }.map(\.seconds).max() ?? 0) / ndjson.seconds }
        /// The largest peak RSS of the formats (ndjson included).
        var peakRSSMegabytes: Double { (formats + [ndjson]).map(\.peakRSSMegabytes).max() ?? 0 }
    }

    static func run(steps: Int, root: String, navlog: String, line: (String) -> Void) throws -> Result {
        let journal = root + "/export-journal"
        let start = monotonicSeconds()
        // explore exits 1 when the walk found something (a dead end, a leak): the journal is whole.
        let explore = try ChildProcess.measure(
            navlog, ["explore", "tabs", "--seed", "18", "--sessions", "1", "--steps", String(steps), "--journal", journal],
            stdout: root + "/explore.out")
        guard explore.status == 0 || explore.status == 1 else { throw BenchmarkError("navlog explore exited \(explore.status)") }
        let count = try ChildProcess.measure(navlog, ["export", journal, "--format", "ndjson"], stdout: root + "/export.ndjson")
        guard count.status == 0 else { throw BenchmarkError("navlog export exited \(count.status)") }
        let events = try lineCount(root + "/export.ndjson")
        try? FileManager.default.removeItem(atPath: root + "/export.ndjson")
        line("export workload: navlog explore tabs, 1 session of \(steps) steps, \(events) events, in \(String(format: "%.1f", monotonicSeconds() - start)) s")

        var ndjsonTurns: [ChildProcess.Measurement] = []
        var formatTurns = [[ChildProcess.Measurement]](repeating: [], count: formats.count)
        for _ in 0..<rounds {
            for (index, format) in formats.enumerated() {
                ndjsonTurns.append(try export(navlog, journal, ["--format", "ndjson"], root: root))
                formatTurns[index].append(try export(navlog, journal, format.arguments, root: root))
            }
        }
        func figure(_ name: String, _ turns: [ChildProcess.Measurement]) -> Figure {
            Figure(name: name, seconds: turns.map(\.seconds).min() ?? 0,
                   peakRSSMegabytes: Double(turns.map(\.maxRSSKilobytes).max() ?? 0) / 1024, turns: turns.map(\.seconds))
        }
        return Result(
            events: events, steps: steps, ndjson: figure("ndjson", ndjsonTurns),
            formats: zip(formats, formatTurns).map { figure($0.name, $1) }
        )
    }

    private static func export(_ navlog: String, _ journal: String, _ arguments: [String], root: String) throws -> ChildProcess.Measurement {
        let measurement = try ChildProcess.measure(navlog, ["export", journal] + arguments, stdout: "/dev/null", timeOutput: root + "/export.time")
        guard measurement.status == 0 else { throw BenchmarkError("navlog export \(arguments.joined(separator: " ")) exited \(measurement.status)") }
        return measurement
    }

    private static func lineCount(_ path: String) throws -> Int {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw BenchmarkError("cannot read \(path)") }
        defer { try? handle.close() }
        var count = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            count += chunk.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
        return count
    }
}
