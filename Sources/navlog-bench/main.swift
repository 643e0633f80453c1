import Foundation
import NavlogEvents
import NavlogJournal

// navlog-bench: the journal against two baselines, on the same events, in the same run.
//
//   A  plain SQLite rows (JSON payload text, prepared statement, batched transactions, WAL)
//   B  NDJSON (`Event.jsonLine()`) through gzip -6
//
//   and navlog report over a large journal against the sqlite3 CLI over baseline A's rows,
//   SQL through the NavlogSQLite extension over that journal against the same SQL over those rows,
//   and the daemon (`navlogd` in process) against a minimal libmicrohttpd handler, with the
//   same keep-alive loopback clients, and the memory of a live screen against plain objects.
//
// Usage: navlog-bench --help.
// The last line of output is one JSON object with every figure.

var eventCount = 400_000
var sinkEventCount = 200_000
var reportEventCount = 10_000_000
var exportSteps = 150_000
var baselineSessions = 300
var exploreSessions = 40
var clientCount = 8
var ingestClientCount = 8
var isOnlyIngest = false
var daemonSeconds = 3.0
var idleSessionCount = 2000
var liveScreenCount = 10_000
var keptDirectory: String?
var consoleViewers = 10
var isConsoleOnly = false
var duckdbScript = "scripts/bench_duckdb.py"
let usage = """
    usage: navlog-bench [options]
      --events N          events for the journal, baselines and sink parts (default 400000)
      --sink-events N     record() calls timed one by one (default 200000)
      --report-events N   events for the report part; 0 skips it (default 10000000)
      --export-steps N    steps of the one tabs session every export format reads; 0 skips the
                          export part (default 150000, over 500k events)
      --baseline-sessions N
                          sessions of the articles journal that baseline save is timed on (default
                          300, about 830k events), beside one tabs session of 180k steps (about
                          730k events); 0 skips the part
      --explore-sessions N
                          sessions of 2000 steps each of the four apps' explore journals that the
                          journal's size is also measured on (default 40); 0 skips the part
      --clients N         keep-alive loopback clients for the daemon part (default 8)
      --ingest-clients N  clients posting batches of 1,000 events to POST /v1/ingest in the ingest part,
                          beside the journal writer's rate on the same events (default 8); 0 skips the part
      --only-ingest       run only the ingest part (on --events events) and print its figures
      --daemon-seconds S  how long the daemon and the ceiling are each loaded, in 10 alternating turns
                          (default 3, at least 1)
      --idle-sessions N   sessions created to measure memory per idle session (default 2000)
      --live-screens N    screens pushed and kept live in one session to measure memory per live
                          screen (default 10000)
      --live-screens-child navlog|plain N
                          (used by the benchmark itself) measure one side of the live-screen part
                          in this process and print the resident bytes it added
      --duckdb-script P   the script that converts baseline A's rows to Parquet and queries them with
                          DuckDB, for the report part (default scripts/bench_duckdb.py: run from the
                          package, as scripts/bench does)
      --console-viewers N open session pages of the web console simulated in the console part
                          (default 10); 0 skips the part
      --console-only      run the console part alone (with --clients and --daemon-seconds)
      --keep DIR          work in DIR and leave the journals and rows there; DIR must be new,
                          empty or a directory an earlier --keep made
      -h, --help          this text
    The last line of output is one JSON object with every figure.

    """

/// Exits 64 with `message` and the usage.
func refuse(_ message: String) -> Never {
    FileHandle.standardError.write(Data("navlog-bench: \(message)\n\(usage)".utf8))
    exit(64)
}

/// The value after `option`, read by `parse`; refuses a missing or malformed one by name.
@MainActor func value<T>(of option: String, _ parse: (String) -> T?, _ kind: String) -> T {
    guard let text = arguments.popFirst() else { refuse("option '\(option)' needs \(kind)") }
    guard let parsed = parse(text) else { refuse("option '\(option)' needs \(kind), got '\(text)'") }
    return parsed
}

@MainActor func count(_ option: String, minimum: Int) -> Int {
    value(of: option, { Int($0).flatMap { $0 >= minimum ? $0 : nil } }, "a whole number of at least \(minimum)")
}

var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--events": eventCount = count(argument, minimum: 1)
    case "--sink-events": sinkEventCount = count(argument, minimum: 1)
    case "--report-events": reportEventCount = count(argument, minimum: 0)
    case "--export-steps": exportSteps = count(argument, minimum: 0)
    case "--baseline-sessions": baselineSessions = count(argument, minimum: 0)
    case "--explore-sessions": exploreSessions = count(argument, minimum: 0)
    case "--clients": clientCount = count(argument, minimum: 1)
    case "--ingest-clients": ingestClientCount = count(argument, minimum: 0)
    case "--only-ingest": isOnlyIngest = true
    case "--daemon-seconds": daemonSeconds = value(of: argument, { Double($0).flatMap { $0 >= 1 ? $0 : nil } }, "a number of seconds of at least 1")
    case "--idle-sessions": idleSessionCount = count(argument, minimum: 1)
    case "--live-screens": liveScreenCount = count(argument, minimum: 100)
    case "--live-screens-child":
        let side = value(of: argument, { LiveScreenBenchmark.Side(rawValue: $0) }, "navlog or plain")
        print(try LiveScreenBenchmark.measureInChild(side, screens: count(argument, minimum: 1)))
        exit(0)
    case "--duckdb-script": duckdbScript = value(of: argument, { FileManager.default.fileExists(atPath: $0) ? $0 : nil }, "the path of scripts/bench_duckdb.py")
    case "--console-viewers": consoleViewers = count(argument, minimum: 0)
    case "--console-only": isConsoleOnly = true
    case "--keep": keptDirectory = value(of: argument, { $0.isEmpty ? nil : $0 }, "a directory")
    case "-h", "--help":
        print(usage, terminator: "")
        exit(0)
    default:
        refuse("unknown option '\(argument)'")
    }
}

func line(_ text: String) { print(text) }

/// Stops with status 2: something the run needs is not installed.
func missing(_ message: String) -> Never {
    FileHandle.standardError.write(Data("navlog-bench: \(message)\n".utf8))
    exit(2)
}

// The report and explore parts need DuckDB (baseline C) from scripts/bench_duckdb.py: say so
// now, with the command that installs it, rather than minutes later through an error of the script.
if (reportEventCount > 0 || exploreSessions > 0) && !isConsoleOnly && !isOnlyIngest {
    var status: Int32 = 0
    var pid = pid_t()
    let words: [String] = ["python3", "-c", "import duckdb"]
    let argv = words.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    // Python's own traceback would only repeat the message below.
    var quiet = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&quiet)
    defer { posix_spawn_file_actions_destroy(&quiet) }
    posix_spawn_file_actions_addopen(&quiet, 2, "/dev/null", O_WRONLY, 0)
    if posix_spawnp(&pid, "python3", &quiet, nil, argv, environ) != 0 {
        missing("python3 is not on PATH; the report part's DuckDB baseline needs it (scripts/setup installs it)")
    }
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    if status != 0 {
        missing("the duckdb Python package is missing (the report and explore parts compare against it): "
            + "run scripts/bench, which installs it, or python3 -m pip install duckdb; --report-events 0 --explore-sessions 0 skip those parts")
    }
}

let root = keptDirectory ?? NSTemporaryDirectory() + "navlog-bench-\(getpid())"
// The run starts from an empty root. A kept directory is emptied only when an earlier
// --keep made it (it holds the marker), so a mistyped path never loses anyone's files.
let marker = root + "/.navlog-bench"
if let entries = try? FileManager.default.contentsOfDirectory(atPath: root), !entries.isEmpty,
   keptDirectory != nil, !FileManager.default.fileExists(atPath: marker) {
    refuse("'\(root)' is not empty and was not made by --keep; give a new or empty directory")
}
try? FileManager.default.removeItem(atPath: root)
try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
_ = FileManager.default.createFile(atPath: marker, contents: nil)
defer { if keptDirectory == nil { try? FileManager.default.removeItem(atPath: root) } }

if isConsoleOnly {
    let figures = try await ConsoleBenchmark.report(directory: root, clients: clientCount, seconds: daemonSeconds, viewers: max(consoleViewers, 1), line: line)
    line(JSONValue.object(figures).serialized())
    if keptDirectory == nil { try? FileManager.default.removeItem(atPath: root) }
    exit(0)
}

var workload = Workload()
let events = workload.makeEvents(count: eventCount)
let kinds = Set(events.map(\.kind)).count
let sessions = Set(events.map(\.session)).count
let averageJSON = events.prefix(20_000).reduce(0) { $0 + $1.jsonLine().utf8.count } / min(20_000, events.count)
line("workload: \(events.count) events, \(sessions) sessions, \(kinds) kinds, average NDJSON line \(averageJSON) bytes")

// MARK: - Ingest (POST /v1/ingest), alone with --only-ingest

var ingest: IngestBenchmark.Result?
if ingestClientCount > 0 {
    ingest = try await IngestBenchmark.run(directory: root, events: events, clients: ingestClientCount, sinkEvents: sinkEventCount)
}
if isOnlyIngest {
    guard let ingest else { refuse("--only-ingest needs --ingest-clients of at least 1") }
    for text in ingest.lines { line(text) }
    line(JSONValue.object(ingest.json).serialized())
    exit(0)
}

// MARK: - Baselines

let rows = Baselines.sqliteRows(events, directory: root, batch: 4096)
let ndjson = Baselines.ndjsonGzip(events)

// MARK: - Journal ingest

let journalDirectory = root + "/journal"
let writer = try JournalWriter(configuration: JournalConfiguration(directory: journalDirectory, labels: ["bench": "ingest"]))
let ingestStart = monotonicSeconds()
for event in events { writer.record(event) }
try writer.close()
let ingestSeconds = monotonicSeconds() - ingestStart
let metrics = writer.metrics
let journalFiles = JournalReader(paths: [journalDirectory]).files()
let journalBytes = journalFiles.reduce(Int64(0)) { $0 + fileBytes($1) + fileBytes($1 + "-wal") }
let journal = Measurement(name: "navlog journal", bytes: journalBytes, seconds: ingestSeconds, events: events.count)

// MARK: - Read back (a check that the figures describe a working journal)

let readStart = monotonicSeconds()
let readBack = try JournalReader(paths: [journalDirectory]).allEvents()
let readSeconds = monotonicSeconds() - readStart
let sample = stride(from: 0, to: events.count, by: max(1, events.count / 1000))
let isRoundTrip = readBack.count == events.count && sample.allSatisfy { index in
    var expected = events[index]
    expected.seq = UInt64(index + 1)
    expected.run = writer.runID
    return readBack[index] == expected
}

// MARK: - Sink call cost

let sinkWriter = try JournalWriter(configuration: JournalConfiguration(
    directory: root + "/sink", queueCapacity: sinkEventCount + 1))
var durations = [UInt64](repeating: 0, count: sinkEventCount)
var clockReading = timespec()
for index in 0..<sinkEventCount {
    let event = events[index % events.count]
    clock_gettime(CLOCK_MONOTONIC, &clockReading)
    let before = UInt64(clockReading.tv_sec) * 1_000_000_000 + UInt64(clockReading.tv_nsec)
    sinkWriter.record(event)
    clock_gettime(CLOCK_MONOTONIC, &clockReading)
    durations[index] = UInt64(clockReading.tv_sec) * 1_000_000_000 + UInt64(clockReading.tv_nsec) - before
}
try sinkWriter.close()
durations.sort()
let sinkMedian = durations[durations.count / 2]
let sinkP99 = durations[durations.count * 99 / 100]

// MARK: - Compression approaches

let approaches = Baselines.comparePayloadCompression(Array(events.prefix(100_000)), blockSize: 2048)

// MARK: - Daemon

let daemon = try await DaemonBenchmark.run(directory: root, clients: clientCount, seconds: daemonSeconds, idleSessions: idleSessionCount)

// MARK: - Web console

let consoleFigures = consoleViewers > 0
    ? try await ConsoleBenchmark.report(directory: root, clients: clientCount, seconds: daemonSeconds, viewers: consoleViewers, line: line) : [:]

// MARK: - Live screens

let liveScreens = try LiveScreenBenchmark.run(screens: liveScreenCount, directory: root)

// MARK: - Report

func format(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
for measurement in [rows, ndjson, journal] {
    line("\(measurement.name.padding(toLength: 18, withPad: " ", startingAt: 0)) \(measurement.bytes) bytes, "
        + "\(format(measurement.bytesPerEvent)) bytes/event, \(format(measurement.eventsPerSecond, 0)) events/s")
}
let sizeRatio = journal.bytesPerEvent / ndjson.bytesPerEvent
let ingestRatio = journal.eventsPerSecond / rows.eventsPerSecond
line("journal files: \(journalFiles.count); block compression ratio \(format(metrics.compressionRatio, 2))x; read back \(readBack.count) events in \(format(readSeconds, 2)) s; round trip \(isRoundTrip ? "ok" : "MISMATCH")")
line("size: journal / ndjson-gzip = \(format(sizeRatio, 3)) (target <= 0.30, issue 18: \(sizeRatio <= 0.30 ? "met" : "MISSED by \(format((sizeRatio / 0.30 - 1) * 100))%"))")
line("ingest: journal / sqlite-rows = \(format(ingestRatio, 3)) (target >= 1.0: \(ingestRatio >= 1 ? "met" : "MISSED by \(format((1 - ingestRatio) * 100))%"))")
line("sink call: median \(sinkMedian) ns, p99 \(sinkP99) ns (target median <= 1000 ns: \(sinkMedian <= 1000 ? "met" : "MISSED"))")
line("payload compression (JSON payload text, first 100k events): blocks of 2048 grouped by subject \(format(approaches.block)) bytes/event; per-event deflate primed with the previous payload of the subject \(format(approaches.dictionary)) bytes/event -> \(approaches.block <= approaches.dictionary ? "blocks win" : "dictionary wins")")
let daemonRatio = daemon.actionsPerSecond / daemon.ceilingPerSecond
line("daemon: \(format(daemon.actionsPerSecond, 0)) actions/s, p50 \(format(daemon.p50Milliseconds, 3)) ms, p99 \(format(daemon.p99Milliseconds, 3)) ms "
    + "(\(clientCount) keep-alive clients on loopback, journaling every event; \(DaemonBenchmark.rounds) turns of "
    + "\(format(daemonSeconds / Double(DaemonBenchmark.rounds), 1)) s, alternating with the ceiling)")
line("ceiling: minimal libmicrohttpd handler \(format(daemon.ceilingPerSecond, 0)) requests/s, p99 \(format(daemon.ceilingP99Milliseconds, 3)) ms; "
    + "daemon / ceiling = \(format(daemonRatio, 3)) (target >= 0.5: \(daemonRatio >= 0.5 ? "met" : "MISSED"))")
line("cpu per request (whole process: clients, server, journal): daemon \(format(daemon.cpuMicrosecondsPerAction)) µs, "
    + "ceiling \(format(daemon.ceilingCPUMicrosecondsPerRequest)) µs; without the clients' threads: "
    + "daemon \(format(daemon.serverCPUMicrosecondsPerAction)) µs, ceiling \(format(daemon.ceilingServerCPUMicrosecondsPerRequest)) µs")
line("memory per idle session: \(format(daemon.memoryPerSessionKB)) KiB (resident, over \(idleSessionCount) master-detail sessions)")
let liveScreenRatio = liveScreens.navlogKiBPerThousand / max(liveScreens.plainKiBPerThousand, 1)
line("memory per live screen: \(format(liveScreens.navlogKiBPerThousand, 0)) KiB per 1,000 screens pushed and kept live in one articles session "
    + "(resident, over \(liveScreens.screens), median of \(LiveScreenBenchmark.rounds) fresh processes); plain objects with the same view models \(format(liveScreens.plainKiBPerThousand, 0)) KiB; "
    + "navlog / plain = \(format(liveScreenRatio, 2))")

// MARK: - Report over a large journal

var summaryExtras: [String: JSONValue] = [:]
if let ingest {
    for text in ingest.lines { line(text) }
    summaryExtras.merge(ingest.json) { $1 }
}
let navlog = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("navlog").path
if reportEventCount > 0 {
    let result = try ReportBenchmark.run(events: reportEventCount, root: root, navlog: navlog, duckdbScript: duckdbScript, line: line)
    let millions = Double(result.events) / 1e6
    let turns = { (seconds: [Double]) in seconds.map { format($0, 1) }.joined(separator: " / ") }
    line("report over \(format(millions, 1))M events: navlog report \(format(result.reportSeconds, 1)) s, peak RSS \(format(result.reportPeakRSSMegabytes)) MB, \(result.reportSessions) sessions; "
        + "sqlite3 CLI on baseline A rows \(format(result.sqliteSeconds, 1)) s, peak RSS \(format(result.sqlitePeakRSSMegabytes)) MB, \(result.sqliteRows) result rows "
        + "(fastest of \(ReportBenchmark.rounds) alternating turns each: report \(turns(result.reportTurns)) s, sqlite3 \(turns(result.sqliteTurns)) s)")
    let speed = result.sqliteSeconds / result.reportSeconds
    line("report speed: sqlite3 / navlog report = \(format(speed, 2)) (target > 1: \(speed > 1 ? "met" : "MISSED"))")
    summaryExtras = [
        "report_events": .int(Int64(result.events)),
        "report_seconds_10m": .double(result.reportSeconds * 10 / millions),
        "sqlite3_seconds_10m": .double(result.sqliteSeconds * 10 / millions),
        "report_peak_rss_mb": .double(result.reportPeakRSSMegabytes),
        "sqlite3_peak_rss_mb": .double(result.sqlitePeakRSSMegabytes),
        "report_speed_ratio_vs_sqlite3": .double(speed),
    ]
    let duckdbSpeed = result.duckdbSeconds / result.reportSeconds
    let parquetPerEvent = Double(result.parquetBytes) / Double(result.events)
    let parquetSize = Double(result.journalBytes) / Double(result.parquetBytes)
    line("report vs baseline C: DuckDB (\(result.duckdbThreads) threads) over Parquet \(format(result.duckdbSeconds, 2)) s, \(result.duckdbRows) result rows as sqlite3's "
        + "(fastest of \(ReportBenchmark.rounds), the query alone: \(turns(result.duckdbTurns)) s); DuckDB / navlog report = \(format(duckdbSpeed, 2)) (target >= 0.5: \(duckdbSpeed >= 0.5 ? "met" : "MISSED"))")
    line("journal vs baseline D: \(format(Double(result.journalBytes) / Double(result.events), 2)) B/event against Parquet zstd-19's \(format(parquetPerEvent, 2)) B/event, "
        + "journal / parquet = \(format(parquetSize, 2)) (target <= 1: \(parquetSize <= 1 ? "met" : "MISSED"))")
    let library = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("libNavlogSQLite.so").path
    let sql = try SQLBenchmark.run(journalDirectory: root + "/report-journal", rowsPath: root + "/report-rows.sqlite",
                                   library: String(library.dropLast(".so".count)), root: root)
    let scanRatio = sql.scanSeconds / sql.rowsScanSeconds
    line("sql over the journal (NavlogSQLite in sqlite3, \(sql.files) file(s) attached; the statement alone, fastest of \(SQLBenchmark.rounds) alternating turns): "
        + "kinds counted in \(format(sql.scanSeconds, 2)) s against \(format(sql.rowsScanSeconds, 2)) s over baseline A's rows, extension / rows = \(format(scanRatio, 2)) "
        + "(target <= 1.5: \(scanRatio <= 1.5 ? "met" : "MISSED")); session \(sql.session)'s \(sql.sessionEvents) events in \(format(sql.oneSessionSeconds * 1000, 1)) ms "
        + "(target <= 50: \(sql.oneSessionSeconds * 1000 <= 50 ? "met" : "MISSED")), \(format(sql.rowsOneSessionSeconds * 1000, 1)) ms over the rows")
    summaryExtras["sql_scan_ratio_vs_rows"] = .double(scanRatio)
    summaryExtras["sql_one_session_ms"] = .double(sql.oneSessionSeconds * 1000)
    summaryExtras["duckdb_seconds_10m"] = .double(result.duckdbSeconds * 10 / millions)
    summaryExtras["report_speed_ratio_vs_duckdb"] = .double(duckdbSpeed)
    summaryExtras["parquet_zstd_bytes_per_event"] = .double(parquetPerEvent)
    summaryExtras["size_ratio_vs_parquet"] = .double(parquetSize)
}

// MARK: - Journal size on the four apps' explore journals

if exploreSessions > 0 {
    let figures = try ExploreSizeBenchmark.run(sessions: exploreSessions, steps: 2000, root: root, navlog: navlog, duckdbScript: duckdbScript)
    line("journal size on explore journals (\(exploreSessions) sessions of 2000 steps per app), against ndjson gzip -6 (B) and Parquet zstd-19 (D) of the same events:")
    for figure in figures {
        let perEvent = { (bytes: Int64) in format(Double(bytes) / Double(figure.events), 2) }
        line("  \(figure.app.padding(toLength: 14, withPad: " ", startingAt: 0)) \(figure.events) events: journal \(perEvent(figure.journalBytes)) B/event, "
            + "ndjson gzip \(perEvent(figure.ndjsonGzipBytes)), parquet \(perEvent(figure.parquetBytes)); "
            + "journal / ndjson-gzip = \(format(figure.ratioVsNDJSONGzip, 3)), journal / parquet = \(format(figure.ratioVsParquet, 2))")
    }
    let worstGzip = figures.map(\.ratioVsNDJSONGzip).max() ?? 0
    let worstParquet = figures.map(\.ratioVsParquet).max() ?? 0
    line("explore journals: largest journal / ndjson-gzip = \(format(worstGzip, 3)) (target <= 0.30: \(worstGzip <= 0.30 ? "met" : "MISSED")); "
        + "largest journal / parquet = \(format(worstParquet, 2)) (target <= 1: \(worstParquet <= 1 ? "met" : "MISSED"))")
    summaryExtras["explore_size_ratio_vs_ndjson_gzip"] = .double(worstGzip)
    summaryExtras["explore_size_ratio_vs_parquet"] = .double(worstParquet)
}

// MARK: - Export over one long session

if exportSteps > 0 {
    let result = try ExportBenchmark.run(steps: exportSteps, root: root, navlog: navlog, line: line)
    let turns = { (seconds: [Double]) in seconds.map { format($0, 2) }.joined(separator: " / ") }
    let ndjsonLine = "\(result.ndjson.name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(format(result.ndjson.seconds, 2)) s, "
        + "peak RSS \(format(result.ndjson.peakRSSMegabytes)) MB (turns \(turns(result.ndjson.turns)) s)"
    line("export over \(format(Double(result.events) / 1e6, 2))M events of one session, each format's fastest of \(ExportBenchmark.rounds) turns, ndjson's of its turn before each:")
    line("  " + ndjsonLine)
    for figure in result.formats {
        line("  \(figure.name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(format(figure.seconds, 2)) s, "
            + "\(format(figure.seconds / result.ndjson.seconds, 2))x ndjson's \(format(result.ndjson.seconds, 2)) s, "
            + "peak RSS \(format(figure.peakRSSMegabytes)) MB (turns \(turns(figure.turns)) s)")
    }
    let ratio = result.slowestRatio
    line("export speed: slowest of otlp-json, chrome-trace and clickhouse events and visits / ndjson = \(format(ratio, 2)) (target <= 3: \(ratio <= 3 ? "met" : "MISSED"))")
    if let logs = result.formats.first(where: { $0.name == "otlp-json --otlp-logs" }) {
        line("export speed, outside the target: otlp-json --otlp-logs / ndjson = \(format(logs.seconds / result.ndjson.seconds, 2))")
        summaryExtras["export_otlp_logs_seconds_ratio_vs_ndjson"] = .double(logs.seconds / result.ndjson.seconds)
    }
    line("export memory: largest peak RSS \(format(result.peakRSSMegabytes)) MB (target <= 100: \(result.peakRSSMegabytes <= 100 ? "met" : "MISSED"))")
    summaryExtras["export_events"] = .int(Int64(result.events))
    summaryExtras["export_ndjson_seconds"] = .double(result.ndjson.seconds)
    summaryExtras["export_seconds_ratio_vs_ndjson"] = .double(ratio)
    summaryExtras["export_peak_rss_mb"] = .double(result.peakRSSMegabytes)
}

// MARK: - Baseline save on large journals

if baselineSessions > 0 {
    let figures = try BaselineSaveBenchmark.run(steps: 180_000, articlesSessions: baselineSessions, root: root, navlog: navlog, line: line)
    line("baseline save, fastest of \(BaselineSaveBenchmark.rounds) turns beside navlog report -o json's on the same journal, file beside the journal:")
    for figure in figures {
        line("  \(figure.journal), \(format(Double(figure.events) / 1e3, 0))k events: \(format(figure.saveSeconds, 2)) s, "
            + "\(format(figure.saveSeconds / figure.reportSeconds, 2))x report's \(format(figure.reportSeconds, 2)) s, peak RSS \(format(figure.savePeakRSSMegabytes)) MB; "
            + "\(format(Double(figure.baselineBytes) / 1e6, 1)) MB, \(format(figure.sizeRatio, 2))x the journal's \(format(Double(figure.journalBytes) / 1e6, 1)) MB")
    }
    let slowest = figures.map(\.saveSeconds).max() ?? 0
    let largest = figures.map(\.sizeRatio).max() ?? 0
    line("baseline save: slowest \(format(slowest, 2)) s (target < 5: \(slowest < 5 ? "met" : "MISSED")); "
        + "largest baseline / journal = \(format(largest, 2)) (target <= 1: \(largest <= 1 ? "met" : "MISSED"))")
    summaryExtras["baseline_save_seconds"] = .double(slowest)
    summaryExtras["baseline_save_events"] = .int(Int64(figures.map(\.events).max() ?? 0))
    summaryExtras["baseline_save_seconds_ratio_vs_report"] = .double(figures.map { $0.saveSeconds / $0.reportSeconds }.max() ?? 0)
    summaryExtras["baseline_size_ratio_vs_journal"] = .double(largest)
}

let summary: JSONValue = [
    "events": .int(Int64(events.count)),
    "journal_bytes_per_event": .double(journal.bytesPerEvent),
    "ndjson_gzip_bytes_per_event": .double(ndjson.bytesPerEvent),
    "sqlite_rows_bytes_per_event": .double(rows.bytesPerEvent),
    "journal_events_per_second": .double(journal.eventsPerSecond.rounded()),
    "sqlite_rows_events_per_second": .double(rows.eventsPerSecond.rounded()),
    "ndjson_gzip_events_per_second": .double(ndjson.eventsPerSecond.rounded()),
    "sink_ns_per_event_median": .int(Int64(sinkMedian)),
    "sink_ns_per_event_p99": .int(Int64(sinkP99)),
    "size_ratio_vs_ndjson_gzip": .double(sizeRatio),
    "ingest_ratio_vs_sqlite_rows": .double(ingestRatio),
    "block_payload_bytes_per_event": .double(approaches.block),
    "dictionary_payload_bytes_per_event": .double(approaches.dictionary),
    "compression_ratio": .double(metrics.compressionRatio),
    "round_trip_ok": .bool(isRoundTrip),
    "daemon_actions_per_second": .double(daemon.actionsPerSecond.rounded()),
    "http_ceiling_requests_per_second": .double(daemon.ceilingPerSecond.rounded()),
    "daemon_p50_ms": .double(daemon.p50Milliseconds),
    "daemon_p99_ms": .double(daemon.p99Milliseconds),
    "daemon_ratio_vs_ceiling": .double(daemonRatio),
    "daemon_cpu_us_per_action": .double(daemon.cpuMicrosecondsPerAction),
    "http_ceiling_cpu_us_per_request": .double(daemon.ceilingCPUMicrosecondsPerRequest),
    "daemon_server_cpu_us_per_action": .double(daemon.serverCPUMicrosecondsPerAction),
    "http_ceiling_server_cpu_us_per_request": .double(daemon.ceilingServerCPUMicrosecondsPerRequest),
    "memory_per_session_kb": .double(daemon.memoryPerSessionKB),
    "memory_per_1000_live_screens_kb": .double(liveScreens.navlogKiBPerThousand),
    "plain_memory_per_1000_live_screens_kb": .double(liveScreens.plainKiBPerThousand),
    "live_screen_memory_ratio_vs_plain": .double(liveScreenRatio),
]
line(JSONValue.object(summary.objectValue!.merging(summaryExtras) { $1 }.merging(consoleFigures) { $1 }).serialized())
