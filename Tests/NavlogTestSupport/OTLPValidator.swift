import Foundation

/// Checks OTLP/JSON with the official protobuf definitions (`opentelemetry-proto`), in Python,
/// for the export tests and the test collector of the push tests: one copy of the checks.
///
/// Each document is parsed with `google.protobuf.json_format.Parse` into the request type,
/// without `ignore_unknown_fields`. OTLP/JSON writes ids as hex where the plain protobuf mapping
/// expects base64 (the Collector's own unmarshaler converts them), so each id is first checked
/// to be lowercase hex of the right length and converted. Then the fields OTLP requires are
/// checked: `service.name` on every resource; on every span its id lengths, a name, kind
/// internal, `0 < start <= end` and named, timed events; on every log record its ids, time and body.
///
/// ```swift
/// try OTLPValidator.requirePython()
/// let spans = try OTLPValidator.count(.traces, in: exportedText)
/// ```
public enum OTLPValidator {
    /// The two kinds of OTLP export request.
    public enum Signal: String, Sendable {
        case traces
        case logs
    }

    /// Python defining `parse_traces(document)` and `parse_logs(document)`: each checks a
    /// decoded OTLP/JSON request as above (raising `AssertionError` or a parse error) and
    /// returns the parsed protobuf message. Scripts start with it.
    public static let definitions = """
        import base64, json, re
        from google.protobuf import json_format
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
        from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
        LENGTHS = {"traceId": 32, "spanId": 16, "parentSpanId": 16}
        def convert(node):
            if isinstance(node, dict):
                for key, value in list(node.items()):
                    if key in LENGTHS:
                        assert re.fullmatch("[0-9a-f]{%d}" % LENGTHS[key], value), (key, value)
                        node[key] = base64.b64encode(bytes.fromhex(value)).decode()
                    else:
                        convert(value)
            elif isinstance(node, list):
                for value in node: convert(value)
        def parse_traces(document):
            convert(document)
            request = json_format.Parse(json.dumps(document), ExportTraceServiceRequest())
            for resource in request.resource_spans:
                names = [a.key for a in resource.resource.attributes if a.value.string_value]
                assert "service.name" in names, names
                for scope in resource.scope_spans:
                    for span in scope.spans:
                        assert len(span.trace_id) == 16 and len(span.span_id) == 8, span.name
                        assert span.parent_span_id == b"" or len(span.parent_span_id) == 8
                        assert span.name and span.kind == 1, span.name
                        assert 0 < span.start_time_unix_nano <= span.end_time_unix_nano, span.name
                        for event in span.events: assert event.name and event.time_unix_nano > 0
            return request
        def parse_logs(document):
            convert(document)
            request = json_format.Parse(json.dumps(document), ExportLogsServiceRequest())
            for resource in request.resource_logs:
                for scope in resource.scope_logs:
                    for record in scope.log_records:
                        assert len(record.trace_id) == 16 and len(record.span_id) == 8
                        assert record.time_unix_nano > 0 and record.body.string_value
            return request

        """

    /// Checks every line of a file (`sys.argv[2]`) as a request of kind `sys.argv[1]` and
    /// prints how many spans or log records it read.
    static let countingScript = definitions + """
        import sys
        kind, path = sys.argv[1], sys.argv[2]
        count = 0
        for line in open(path):
            if kind == "traces":
                request = parse_traces(json.loads(line))
                count += sum(len(scope.spans) for resource in request.resource_spans for scope in resource.scope_spans)
            else:
                request = parse_logs(json.loads(line))
                count += sum(len(scope.log_records) for resource in request.resource_logs for scope in resource.scope_logs)
        print(count)
        """

    /// Whether Python can import the definitions, installing them
    /// (`python3 -m pip install opentelemetry-proto protobuf`) the first time if needed.
    private static let setup: Result<Void, PythonError> = {
        let probe = "import google.protobuf, opentelemetry.proto.collector.trace.v1.trace_service_pb2"
        if (try? python(probe))?.status == 0 { return .success(()) }
        let install = try? runTool("/usr/bin/env", ["python3", "-m", "pip", "install", "--quiet", "opentelemetry-proto", "protobuf"])
        if (try? python(probe))?.status == 0 { return .success(()) }
        return .failure(PythonError(
            message: "python3 cannot import opentelemetry-proto; run: python3 -m pip install opentelemetry-proto protobuf (\(install?.stderr ?? "no pip"))"
        ))
    }()

    /// Throws, saying what to install, unless Python can import the OTLP definitions.
    public static func requirePython() throws {
        if case .failure(let error) = setup { throw error }
    }

    /// Checks each line of `text` as an OTLP/JSON request of `signal`; returns the spans or log
    /// records read, or throws the validator's error.
    public static func count(_ signal: Signal, in text: String) throws -> Int {
        try requirePython()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("otlp-\(UUID().uuidString).jsonl")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try python(countingScript, [signal.rawValue, file.path])
        guard result.status == 0, let count = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw PythonError(message: "the OTLP validator refused the \(signal.rawValue): \(result.stderr)")
        }
        return count
    }
}

/// Runs `python3` on the program `script` with `arguments` (test side only).
public func python(_ script: String, _ arguments: [String] = []) throws -> ProcessResult {
    try runTool("/usr/bin/env", ["python3", "-c", script] + arguments)
}

/// Python, or a check run in it, could not do what a test needs; says what to do.
public struct PythonError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
