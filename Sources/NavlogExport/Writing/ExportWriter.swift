import Foundation
import NavlogEvents
import NavlogExport

/// Writes the events of `navlog export` in one format to stdout as they come, keeping only what
/// the format's encoder needs for the sessions still open.
struct ExportSink {
    let format: ExportCommand.Format
    let writesLogs: Bool
    let batchSize: Int
    let serviceName: String?
    let table: String
    /// Run labels by run id, for OTLP resources.
    let labels: [String: [String: String]]
    var output = BufferedOutput()

    private var traceEncoder = OTLPTraceEncoder()
    private var chromeEncoder = ChromeTraceEncoder()
    private var clickHouseEncoder: ClickHouseEncoder
    private var pendingSpans: [OTLPSpan] = []
    private var pendingLogs: [Event] = []
    private var hasWrittenChromeEvent = false

    init(format: ExportCommand.Format, writesLogs: Bool, batchSize: Int, serviceName: String?, table: String, labels: [String: [String: String]]) {
        self.format = format
        self.writesLogs = writesLogs
        self.batchSize = batchSize
        self.serviceName = serviceName
        self.table = table
        self.labels = labels
        clickHouseEncoder = ClickHouseEncoder(tables: [table == "visits" ? .visits : .events])
        if format == .chromeTrace { output.write(ChromeTraceEncoder.documentPrefix) }
    }

    /// Sessions the encoder still holds state for.
    var openSessionCount: Int {
        switch format {
        case .ndjson: return 0
        case .otlpJSON: return writesLogs ? 0 : traceEncoder.openSessionCount
        case .chromeTrace: return chromeEncoder.openSessionCount
        case .clickhouse: return clickHouseEncoder.openSessionCount
        }
    }

    mutating func consume(_ event: Event) {
        switch format {
        case .ndjson:
            output.write(event.jsonLine())
            output.write("\n")
        case .otlpJSON where writesLogs:
            pendingLogs.append(event)
            if pendingLogs.count >= batchSize { writeLogs() }
        case .otlpJSON:
            pendingSpans += traceEncoder.consume(event)
            if pendingSpans.count >= batchSize { writeSpans() }
        case .chromeTrace:
            withChromeOutput { encoder, write in encoder.consume(event, write: write) }
        case .clickhouse:
            withClickHouseOutput { encoder, write in encoder.consume(event, write: write) }
        }
    }

    /// Closes the sessions still open, writes what is left and flushes.
    mutating func finish() {
        switch format {
        case .ndjson:
            break
        case .otlpJSON where writesLogs:
            writeLogs()
        case .otlpJSON:
            pendingSpans += traceEncoder.finish()
            writeSpans()
        case .chromeTrace:
            withChromeOutput { encoder, write in encoder.finish(write: write) }
            output.write(ChromeTraceEncoder.documentSuffix)
        case .clickhouse:
            withClickHouseOutput { encoder, write in encoder.finish(write: write) }
        }
        output.flush()
    }

    // MARK: - Formats

    private mutating func writeSpans() {
        guard !pendingSpans.isEmpty else { return }
        var request: [UInt8] = []
        request.reserveCapacity(pendingSpans.count * 2048)
        OTLPTraceEncoder.writeRequest(spans: pendingSpans, scopeVersion: navlogVersion, resource: { span in
            OTLPResource(run: span.run, app: span.app, labels: labels[span.run] ?? [:], serviceName: serviceName)
        }, to: &request)
        request.append(UInt8(ascii: "\n"))
        output.write(request)
        pendingSpans.removeAll(keepingCapacity: true)
    }

    private mutating func writeLogs() {
        guard !pendingLogs.isEmpty else { return }
        var request: [UInt8] = []
        OTLPLogEncoder.writeRequest(events: pendingLogs, scopeVersion: navlogVersion, resource: { event in
            OTLPResource(run: event.run, labels: labels[event.run] ?? [:], serviceName: serviceName)
        }, to: &request)
        request.append(UInt8(ascii: "\n"))
        output.write(request)
        pendingLogs.removeAll(keepingCapacity: true)
    }

    /// Writes a Chrome trace event after the ones before it, comma-separated.
    private mutating func withChromeOutput(_ body: (inout ChromeTraceEncoder, (JSONValue) -> Void) -> Void) {
        var hasWritten = hasWrittenChromeEvent
        withTakenOut(\.chromeEncoder, leaving: ChromeTraceEncoder()) { encoder, output in
            body(&encoder) { event in
                if hasWritten { output.write(",\n") }
                output.write(event.serialized())
                hasWritten = true
            }
        }
        hasWrittenChromeEvent = hasWritten
    }

    /// Writes the rows of the table asked for, a line each.
    private mutating func withClickHouseOutput(_ body: (inout ClickHouseEncoder, (ClickHouseEncoder.Table, JSONValue) -> Void) -> Void) {
        let table = self.table
        withTakenOut(\.clickHouseEncoder, leaving: ClickHouseEncoder()) { encoder, output in
            body(&encoder) { rowTable, row in
                guard rowTable.rawValue == table else { return }
                output.write(row.serialized())
                output.write("\n")
            }
        }
    }

    /// Runs `body` with an encoder and the output, both taken out of `self` meanwhile (the
    /// encoder replaced by `placeholder`), so that an encoder can write through a closure while
    /// it changes, without copying either.
    private mutating func withTakenOut<Encoder>(
        _ field: WritableKeyPath<ExportSink, Encoder>, leaving placeholder: Encoder, _ body: (inout Encoder, inout BufferedOutput) -> Void
    ) {
        var encoder = placeholder, taken = BufferedOutput()
        swap(&encoder, &self[keyPath: field])
        swap(&taken, &output)
        defer {
            swap(&encoder, &self[keyPath: field])
            swap(&taken, &output)
        }
        body(&encoder, &taken)
    }
}
