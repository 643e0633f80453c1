import NavlogEvents

/// The formats of ``ExportWriter``, as `navlog export --format` names them.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// One event JSON per line.
    case ndjson
    /// OTLP/JSON `ExportTraceServiceRequest` lines, or `ExportLogsServiceRequest` lines.
    case otlpJSON = "otlp-json"
    /// One Trace Event Format document.
    case chromeTrace = "chrome-trace"
    /// ClickHouse `JSONEachRow` rows of one table.
    case clickhouse
}

/// Writes events in one export format as they come, keeping only what the format's encoder
/// needs for the sessions still open: what `navlog export` does.
///
/// The text goes to `emit` in chunks of about 64 KiB, in order.
///
/// ```swift
/// var writer = ExportWriter(format: .chromeTrace) { chunk in print(chunk, terminator: "") }
/// for event in events { writer.consume(event) }
/// writer.finish()
/// ```
public struct ExportWriter {
    /// How a format is written, beside the format itself.
    public struct Options: Sendable {
        /// With `otlpJSON`: log records instead of spans.
        public var writesLogs = false
        /// With `otlpJSON`: spans or log records per request line.
        public var batchSize = 512
        /// With `otlpJSON`: the `service.name` of every resource (nil: the app, else navlog).
        public var serviceName: String?
        /// With `clickhouse`: the table whose rows are written.
        public var table: ClickHouseEncoder.Table = .events
        /// Run labels by run id, for OTLP resources.
        public var labels: [String: [String: String]] = [:]
        /// The instrumentation scope's version in OTLP requests.
        public var scopeVersion = ""

        public init() {}
    }

    public let format: ExportFormat
    let writesLogs: Bool
    let batchSize: Int
    let serviceName: String?
    let table: String
    let labels: [String: [String: String]]
    let scopeVersion: String
    private var output: ChunkedOutput

    private var traceEncoder = OTLPTraceEncoder()
    private var chromeEncoder = ChromeTraceEncoder()
    private var clickHouseEncoder: ClickHouseEncoder
    private var pendingSpans: [OTLPSpan] = []
    private var pendingLogs: [Event] = []
    private var hasWrittenChromeEvent = false

    /// Creates a writer of `format` that hands its text to `emit`.
    public init(format: ExportFormat, options: Options = Options(), emit: @escaping (String) -> Void) {
        self.format = format
        writesLogs = options.writesLogs
        batchSize = max(1, options.batchSize)
        serviceName = options.serviceName
        table = options.table.rawValue
        labels = options.labels
        scopeVersion = options.scopeVersion
        output = ChunkedOutput(emit: emit)
        clickHouseEncoder = ClickHouseEncoder(tables: [options.table])
        if format == .chromeTrace { output.write(ChromeTraceEncoder.documentPrefix) }
    }

    /// Sessions the encoder still holds state for.
    public var openSessionCount: Int {
        switch format {
        case .ndjson: return 0
        case .otlpJSON: return writesLogs ? 0 : traceEncoder.openSessionCount
        case .chromeTrace: return chromeEncoder.openSessionCount
        case .clickhouse: return clickHouseEncoder.openSessionCount
        }
    }

    /// Writes `event`, or keeps what its format needs until its span or session ends.
    public mutating func consume(_ event: Event) {
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

    /// Hands over the text written so far, such as before giving up on a damaged journal.
    public mutating func flush() {
        output.flush()
    }

    /// Closes the sessions still open, writes what is left and flushes.
    public mutating func finish() {
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
        OTLPTraceEncoder.writeRequest(spans: pendingSpans, scopeVersion: scopeVersion, resource: { span in
            OTLPResource(run: span.run, app: span.app, labels: labels[span.run] ?? [:], serviceName: serviceName)
        }, to: &request)
        request.append(UInt8(ascii: "\n"))
        output.write(request)
        pendingSpans.removeAll(keepingCapacity: true)
    }

    private mutating func writeLogs() {
        guard !pendingLogs.isEmpty else { return }
        var request: [UInt8] = []
        OTLPLogEncoder.writeRequest(events: pendingLogs, scopeVersion: scopeVersion, resource: { event in
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
        _ field: WritableKeyPath<ExportWriter, Encoder>, leaving placeholder: Encoder, _ body: (inout Encoder, inout ChunkedOutput) -> Void
    ) {
        var encoder = placeholder, taken = ChunkedOutput(emit: { _ in })
        swap(&encoder, &self[keyPath: field])
        swap(&taken, &output)
        defer {
            swap(&encoder, &self[keyPath: field])
            swap(&taken, &output)
        }
        body(&encoder, &taken)
    }
}

/// Collects text and hands it on in chunks of about 64 KiB.
struct ChunkedOutput {
    private var buffer = ""
    private let emit: (String) -> Void

    init(emit: @escaping (String) -> Void) {
        self.emit = emit
    }

    mutating func write(_ text: String) {
        buffer += text
        if buffer.utf8.count >= 1 << 16 { flush() }
    }

    /// Writes UTF-8 bytes, such as JSON a writer built as bytes.
    mutating func write(_ bytes: [UInt8]) {
        write(String(decoding: bytes, as: UTF8.self))
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        emit(buffer)
        buffer = ""
    }
}
