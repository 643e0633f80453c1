import Foundation
import NavlogTestSupport
import XCTest

/// A test-side OTLP/HTTP trace receiver built on the official protobuf definitions: a small
/// Python `http.server` on a loopback port.
///
/// Each `POST /v1/traces` must be `application/json` with `Content-Encoding: gzip`. The body is
/// gunzipped and checked by ``OTLPValidator`` (`parse_traces`: the official definitions,
/// strictly). Accepted spans are appended to a file as
/// `traceId spanId run name`; a request that fails any check gets 400 and its error is
/// appended to another file. With `isRejecting`, every request gets 400 and nothing is kept.
/// With a certificate and key (``makeCertificate()``), it serves https instead of http.
final class OTLPReceiver {
    static let script = """
        import base64, gzip, json, re, sys
        from http.server import HTTPServer, BaseHTTPRequestHandler
        \(OTLPValidator.definitions)
        port, spans_path, errors_path, authorization, mode = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *arguments): pass
            def reply(self, status, body):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if mode == "reject":
                    return self.reply(400, {"code": 3, "message": "rejected by the test receiver"})
                try:
                    assert self.path == "/v1/traces", self.path
                    assert self.headers.get("Content-Type") == "application/json", self.headers.get("Content-Type")
                    assert self.headers.get("Content-Encoding") == "gzip", self.headers.get("Content-Encoding")
                    assert self.headers.get("Authorization") == authorization, self.headers.get("Authorization")
                    request = parse_traces(json.loads(gzip.decompress(body)))
                    lines = []
                    for resource in request.resource_spans:
                        attributes = {a.key: a.value.string_value for a in resource.resource.attributes}
                        for scope in resource.scope_spans:
                            for span in scope.spans:
                                lines.append("%s %s %s %s\\n" % (span.trace_id.hex(), span.span_id.hex(), attributes["navlog.run"], span.name))
                except Exception as error:
                    with open(errors_path, "a") as errors: errors.write(repr(error) + "\\n")
                    return self.reply(400, {"code": 3, "message": repr(error)})
                with open(spans_path, "a") as spans: spans.write("".join(lines))
                self.reply(200, {})
        server = HTTPServer(("127.0.0.1", port), Handler)
        if len(sys.argv) > 7:
            import ssl
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[6], sys.argv[7])
            # A client that refuses the certificate fails the handshake in accept(), an OSError
            # the server ignores.
            server.socket = context.wrap_socket(server.socket, server_side=True)
        print("listening %d" % server.server_address[1], flush=True)
        server.serve_forever()
        """

    let directory: String
    private(set) var port = 0
    private var process: Process?
    private let authorization: String
    private var isTLS = false

    /// Prepares a receiver whose files live in `directory`; requests must carry
    /// `Authorization: <authorization>`.
    init(_ test: XCTestCase, directory: String, authorization: String) throws {
        self.directory = directory
        self.authorization = authorization
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Self.script.write(toFile: directory + "/receiver.py", atomically: true, encoding: .utf8)
        // Strong: the receiver must be stopped even when the test dropped it, or its process
        // would outlive the test run.
        test.addTeardownBlock {
            self.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Starts listening: on a free port the first time, on the same port after ``stop()``;
    /// https when `isTLS` (after ``makeCertificate()``).
    func start(isRejecting: Bool = false, isTLS: Bool = false) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", directory + "/receiver.py", String(port), spansPath, errorsPath, authorization, isRejecting ? "reject" : "accept"]
            + (isTLS ? [certificatePath, keyPath] : [])
        self.isTLS = isTLS
        let output = Pipe()
        process.standardOutput = output
        // Not the test's own stderr: a pipe inherited by a stray child would hold `swift test` open.
        _ = FileManager.default.createFile(atPath: directory + "/receiver.log", contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/receiver.log"))
        try process.run()
        self.process = process
        // Blocks until the first line: the receiver prints it once bound, or exits.
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("listening "), let bound = Int(line.dropFirst(10).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ReceiverError(message: "the OTLP receiver did not start: \(line)")
        }
        port = bound
    }

    /// Stops the receiver and waits for it to exit.
    func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        self.process = nil
    }

    /// Writes a self-signed certificate for 127.0.0.1 and localhost, valid for a day, and its
    /// key, with the `openssl` CLI; the certificate is its own CA file.
    func makeCertificate() throws {
        let output = try runTool("/usr/bin/env", [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-days", "1", "-keyout", keyPath, "-out", certificatePath,
        ])
        guard output.status == 0 else { throw ReceiverError(message: "openssl could not make a certificate: \(output.stderr)") }
    }

    var endpoint: String { "\(isTLS ? "https" : "http")://127.0.0.1:\(port)/v1/traces" }
    var certificatePath: String { directory + "/certificate.pem" }
    var keyPath: String { directory + "/key.pem" }
    var spansPath: String { directory + "/spans.txt" }
    var errorsPath: String { directory + "/errors.txt" }

    /// The spans received so far, one `traceId spanId` per span, in arrival order.
    var receivedSpans: [String] {
        let text = (try? String(contentsOfFile: spansPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
    }

    /// Requests the receiver refused, with the reason.
    var errors: String { (try? String(contentsOfFile: errorsPath, encoding: .utf8)) ?? "" }

    /// Waits (at most `seconds`, a bound, not a timing) until every span of `expected` has
    /// arrived; returns whether they all did.
    func waitForSpans(_ expected: Set<String>, seconds: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if expected.isSubset(of: Set(receivedSpans)) { return true }
            usleep(50_000)
        }
        return expected.isSubset(of: Set(receivedSpans))
    }
}

struct ReceiverError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
