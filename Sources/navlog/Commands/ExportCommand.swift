import Foundation
import NavlogCommandLine
import NavlogEvents
import NavlogExport
import NavlogJournal

/// `navlog export`: journals in the formats other engines read (NDJSON, OTLP/JSON, Chrome
/// trace, ClickHouse), as a stream.
struct ExportCommand: ParsableCommand {
    /// The options of `show` that choose events; export has the same filters.
    static let filterSpecs = EventQuery.specs.filter { ["journal", "session", "run", "kind", "since", "until", "after-cursor"].contains($0.name) }

    static let spec = CommandSpec(
        name: "export",
        abstract: "Export journals as NDJSON, OTLP/JSON, a Chrome trace or ClickHouse rows.",
        discussion: """
            Reads journal files and directories as a stream (memory stays flat in the number of \
            events; only open sessions are kept) and writes to stdout. Formats (docs/EXPORT.md):
              ndjson        the event JSON of `show --output json`, without the cursor
              otlp-json     one OTLP/JSON ExportTraceServiceRequest per line: sessions are traces, \
            coordinators and screens spans, other events span events (--otlp-logs: \
            ExportLogsServiceRequest lines, one log record per event)
              chrome-trace  Trace Event Format JSON for Perfetto, chrome://tracing, speedscope
              clickhouse    JSONEachRow rows of the table chosen by --table; --table schema \
            prints the CREATE TABLE statements (also in Config/clickhouse/)
            Progress (events read, out of those the files hold when no filter leaves some out; \
            sessions open) goes to stderr when it is a terminal.
            """,
        arguments: [EventQuery.argument],
        options: filterSpecs + [
            .value("format", "FORMAT", help: "ndjson, otlp-json, chrome-trace or clickhouse.", default: "ndjson"),
            .flag("otlp-logs", help: "With otlp-json: write ExportLogsServiceRequest lines instead of traces."),
            .value("batch-size", "N", help: "With otlp-json: spans or log records per request line.", in: 1...1_000_000, default: "512"),
            .value("service-name", "NAME", help: "With otlp-json: the service.name of every resource (default: the app, else navlog)."),
            .value("table", "TABLE", help: "With clickhouse: events, visits or schema.", default: "events"),
        ]
    )

    let format: ExportFormat
    let writesLogs: Bool
    let batchSize: Int
    let serviceName: String?
    let table: String
    /// Nil for `--table schema`, which reads no journal.
    let query: EventQuery?

    init(_ arguments: ParsedArguments) throws {
        format = ExportFormat(rawValue: try arguments.choice("format", ExportFormat.allCases.map(\.rawValue), default: "ndjson"))!
        writesLogs = arguments.flag("otlp-logs")
        batchSize = try arguments.integer("batch-size") ?? 512
        serviceName = arguments.value("service-name")
        table = try arguments.choice("table", ["events", "visits", "schema"], default: "events")
        if format != .otlpJSON {
            for name in ["otlp-logs", "batch-size", "service-name"] where arguments.flag(name) || arguments.value(name) != nil {
                throw UsageError("option '--\(name)' applies only to --format otlp-json")
            }
        }
        if format != .clickhouse, arguments.value("table") != nil {
            throw UsageError("option '--table' applies only to --format clickhouse")
        }
        query = format == .clickhouse && table == "schema" ? nil : try EventQuery(arguments)
    }

    func run() async throws -> Int32 {
        guard let query else {
            Output.standardOutput(ClickHouseSchema.createStatements)
            return ExitCode.success
        }
        let reader = JournalReader(paths: query.paths)
        var labels: [String: [String: String]] = [:]
        if format == .otlpJSON {
            do {
                for run in try reader.runs() { labels[run.id] = run.labels }
            } catch {
                throw EventQuery.failure(error)
            }
        }
        var options = ExportWriter.Options()
        options.writesLogs = writesLogs
        options.batchSize = batchSize
        options.serviceName = serviceName
        options.table = table == "visits" ? .visits : .events
        options.labels = labels
        options.scopeVersion = navlogVersion
        var writer = ExportWriter(format: format, options: options) { Output.standardOutput($0) }
        var progress = ProgressLine()
        let total = progress.isShown && query.filter.keepsEveryEvent ? reader.storedEventCount() : nil
        var iterator = reader.events(matching: query.filter)
        var count = 0
        do {
            while let event = try iterator.next() {
                writer.consume(event)
                count += 1
                progress.update { "exporting: \(ProgressLine.events(count, of: total)) read, \(writer.openSessionCount) sessions open" }
            }
        } catch {
            progress.clear()
            writer.flush()
            throw EventQuery.failure(error)
        }
        writer.finish()
        progress.clear()
        return GapWarnings.report(iterator.gaps, command: "navlog export")
    }
}
