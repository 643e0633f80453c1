import Foundation
import NavlogEvents

/// The journal's size on recorded journals of the four seed apps, not only on the generated
/// workload: each app explored by `navlog explore`, its events exported as NDJSON, then the
/// journal's bytes against that NDJSON through gzip -6 (baseline B) and against the same events
/// as baseline A's rows in Parquet, zstd level 19 (baseline D, through
/// `scripts/bench_duckdb.py ndjson`).
enum ExploreSizeBenchmark {
    static let apps = ["master-detail", "articles", "tabs", "content-list"]

    struct Figure {
        var app: String
        var events: Int
        var journalBytes: Int64
        var ndjsonGzipBytes: Int64
        var parquetBytes: Int64

        var ratioVsNDJSONGzip: Double { Double(journalBytes) / Double(ndjsonGzipBytes) }
        var ratioVsParquet: Double { Double(journalBytes) / Double(parquetBytes) }
    }

    static func run(sessions: Int, steps: Int, root: String, navlog: String, duckdbScript: String) throws -> [Figure] {
        let python = try ChildProcess.find("python3")
        return try apps.map { app in
            let journal = root + "/explore-\(app)"
            // explore exits 1 when the walk found something (a dead end, a leak): the journal is whole.
            let explore = try ChildProcess.measure(
                navlog, ["explore", app, "--seed", "7", "--sessions", String(sessions), "--steps", String(steps), "--journal", journal],
                stdout: root + "/explore-\(app).out")
            guard explore.status == 0 || explore.status == 1 else { throw BenchmarkError("navlog explore \(app) exited \(explore.status)") }
            let ndjsonPath = root + "/explore-\(app).ndjson"
            let export = try ChildProcess.measure(navlog, ["export", journal, "--format", "ndjson"], stdout: ndjsonPath)
            guard export.status == 0 else { throw BenchmarkError("navlog export of \(journal) exited \(export.status)") }
            let parquetPath = root + "/explore-\(app).parquet"
            let conversion = try ChildProcess.measure(python, [duckdbScript, "ndjson", ndjsonPath, parquetPath], stdout: root + "/explore-\(app).json")
            guard conversion.status == 0 else { throw BenchmarkError("\(duckdbScript) ndjson exited \(conversion.status) (its error is above)") }
            let converted = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: root + "/explore-\(app).json")))
            let gzip = Compressor(level: 6, windowBits: 31)
            let ndjson = try Data(contentsOf: URL(fileURLWithPath: ndjsonPath))
            ndjson.withUnsafeBytes { gzip.feed($0, finish: true) }
            let events = ndjson.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            guard converted["rows"]?.intValue == Int64(events) else {
                throw BenchmarkError("the Parquet file of \(app) holds \(converted["rows"]?.serialized() ?? "no") rows, not \(events)")
            }
            try? FileManager.default.removeItem(atPath: ndjsonPath)
            return Figure(app: app, events: events, journalBytes: try directoryBytes(journal), ndjsonGzipBytes: Int64(gzip.producedBytes),
                          parquetBytes: converted["bytes"]?.intValue ?? 0)
        }
    }
}
