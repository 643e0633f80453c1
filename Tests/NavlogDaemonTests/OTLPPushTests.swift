import Foundation
import NavlogDaemon
import NavlogEvents
import NavlogTestSupport
import XCTest

/// `navlogd` pushing spans to an OTLP/HTTP collector: a test-side receiver built on the
/// official protobuf definitions (``OTLPReceiver``) gets exactly the spans that
/// `navlog export --format otlp-json` gives for the same journal.
final class OTLPPushTests: XCTestCase {
    static let authorization = "Bearer otlp-test-token"

    override func setUpWithError() throws {
        try OTLPValidator.requirePython()
    }

    // MARK: - Helpers

    /// The `otlp` section for `endpoint`, with short intervals and back-off for tests.
    private func otlp(_ endpoint: String, drainTimeoutMilliseconds: Int64 = 3000, timeoutMilliseconds: Int64 = 2000, caFile: String? = nil) -> JSONValue {
        [
            "enabled": true, "endpoint": .string(endpoint), "headers": ["Authorization": .string(Self.authorization)],
            "batch_size": 4, "interval_ms": 100, "timeout_ms": .int(timeoutMilliseconds), "retry_initial_ms": 50, "retry_max_ms": 200,
            "drain_timeout_ms": .int(drainTimeoutMilliseconds), "ca_file": caFile.map(JSONValue.string) ?? .null,
        ]
    }

    /// Runs one master-detail session to its end: four actions, a push and a pop.
    private func runSession(_ daemon: DaemonHarness) throws {
        let created = try json(daemon.request("POST", "/v1/sessions", body: #"{"app": "master-detail"}"#).body)
        let id = try XCTUnwrap(created["id"]?.stringValue)
        for body in [#"{"element": "next-day"}"#, #"{"element": "open-detail"}"#, #"{"type": "back"}"#, #"{"element": "next-day"}"#] {
            XCTAssertEqual(try daemon.request("POST", "/v1/sessions/\(id)/actions", body: body).status, 200, body)
        }
        XCTAssertEqual(try daemon.request("DELETE", "/v1/sessions/\(id)").status, 200)
    }

    /// `traceId spanId` of every span `navlog export --format otlp-json` gives for `journal`.
    private func exportedSpans(_ journal: String) throws -> [String] {
        let output = try runTool(productPath("navlog"), ["export", "--format", "otlp-json", journal])
        XCTAssertEqual(output.status, 0, output.stderr)
        var spans: [String] = []
        for line in output.stdout.split(separator: "\n") {
            for resource in try JSONValue(parsing: String(line))["resourceSpans"]?.arrayValue ?? [] {
                for scope in resource["scopeSpans"]?.arrayValue ?? [] {
                    for span in scope["spans"]?.arrayValue ?? [] {
                        spans.append("\(span["traceId"]?.stringValue ?? "-") \(span["spanId"]?.stringValue ?? "-")")
                    }
                }
            }
        }
        return spans
    }

    /// The value of an unlabelled (or exactly labelled) sample on `/metrics`.
    private func metric(_ daemon: DaemonHarness, _ name: String) throws -> Double? {
        let text = try daemon.request("GET", "/metrics").body
        let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// Waits (at most 20 s, a bound) until `condition` holds.
    private func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }

    /// Asserts the receiver got each exported span exactly once and refused nothing.
    private func assertReceivedExactly(_ receiver: OTLPReceiver, _ journal: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let expected = try exportedSpans(journal)
        XCTAssertEqual(Set(expected).count, expected.count, "export ids are unique", file: file, line: line)
        XCTAssertTrue(receiver.waitForSpans(Set(expected)), "missing: \(Set(expected).subtracting(receiver.receivedSpans))", file: file, line: line)
        let received = receiver.receivedSpans
        XCTAssertEqual(received.sorted(), expected.sorted(), "each span once, nothing else", file: file, line: line)
        XCTAssertEqual(receiver.errors, "", file: file, line: line)
    }

    // MARK: - Tests

    func testEverySpanOfASessionReachesTheCollector() throws {
        let receiver = try OTLPReceiver(self, directory: NSTemporaryDirectory() + "otlp-receiver-\(UUID().uuidString)", authorization: Self.authorization)
        try receiver.start()
        let daemon = try DaemonHarness(self, overrides: ["otlp": otlp(receiver.endpoint)])
        try runSession(daemon)
        try assertReceivedExactly(receiver, daemon.directory + "/journal")
        XCTAssertTrue(try eventually { try metric(daemon, "navlog_otlp_push_lag_events") == 0 })
        XCTAssertEqual(try metric(daemon, "navlog_otlp_spans_pushed_total"), Double(receiver.receivedSpans.count))
        XCTAssertGreaterThan(try metric(daemon, "navlog_otlp_last_success_timestamp_seconds") ?? 0, 1_000_000_000)
        XCTAssertEqual(daemon.terminate(), 0, daemon.log)
        XCTAssertTrue(FileManager.default.fileExists(atPath: daemon.directory + "/journal/otlp-push.cursor.json"))
    }

    func testCollectorStoppedAndRestartedLosesNothingAcrossDaemonRestarts() throws {
        let receiver = try OTLPReceiver(self, directory: NSTemporaryDirectory() + "otlp-receiver-\(UUID().uuidString)", authorization: Self.authorization)
        try receiver.start()
        let daemon = try DaemonHarness(self, overrides: ["otlp": otlp(receiver.endpoint, drainTimeoutMilliseconds: 500)])
        let journal = daemon.directory + "/journal"
        try runSession(daemon)
        XCTAssertTrue(receiver.waitForSpans(Set(try exportedSpans(journal))))

        // The collector goes away mid-run: recording goes on, the push fails and retries.
        receiver.stop()
        try runSession(daemon)
        XCTAssertTrue(try eventually { try (metric(daemon, "navlog_otlp_batches_failed_total") ?? 0) >= 2 }, daemon.log)
        XCTAssertGreaterThan(try metric(daemon, "navlog_otlp_push_lag_events") ?? 0, 0)
        try receiver.start()
        try assertReceivedExactly(receiver, journal)

        // Down again across a daemon restart: the drain gives up, the next daemon resumes from
        // the saved cursor, sending nothing twice.
        receiver.stop()
        try runSession(daemon)
        XCTAssertEqual(daemon.terminate(), 0, daemon.log)
        XCTAssertTrue(daemon.log.contains("msg=\"otlp push stopped\""), daemon.log)
        try receiver.start()
        let restarted = try DaemonHarness(self, overrides: ["otlp": otlp(receiver.endpoint)], directory: daemon.directory)
        try assertReceivedExactly(receiver, journal)
        XCTAssertEqual(restarted.terminate(), 0, restarted.log)
    }

    func testCollectorDownNeverSlowsRecording() throws {
        let receiver = try OTLPReceiver(self, directory: NSTemporaryDirectory() + "otlp-receiver-\(UUID().uuidString)", authorization: Self.authorization)
        try receiver.start()
        receiver.stop()
        let daemon = try DaemonHarness(self, overrides: ["otlp": otlp(receiver.endpoint, drainTimeoutMilliseconds: 300)])
        let id = try XCTUnwrap(json(daemon.request("POST", "/v1/sessions", body: #"{"app": "master-detail"}"#).body)["id"]?.stringValue)
        var slowest = 0.0
        for _ in 0..<20 {
            let started = Date()
            XCTAssertEqual(try daemon.request("POST", "/v1/sessions/\(id)/actions", body: #"{"element": "next-day"}"#).status, 200)
            slowest = max(slowest, Date().timeIntervalSince(started))
        }
        XCTAssertEqual(try daemon.request("DELETE", "/v1/sessions/\(id)").status, 200)
        XCTAssertLessThan(slowest, 1.0, "an action waited on the push")
        XCTAssertTrue(try eventually { try (metric(daemon, "navlog_otlp_batches_failed_total") ?? 0) >= 2 }, daemon.log)
        XCTAssertEqual(try metric(daemon, "navlog_otlp_spans_pushed_total"), 0)
        XCTAssertGreaterThan(try metric(daemon, "navlog_otlp_push_lag_events") ?? 0, 0)
        XCTAssertTrue(daemon.log.contains("msg=\"otlp push failed; retrying\""), daemon.log)

        let stopping = Date()
        XCTAssertEqual(daemon.terminate(), 0, daemon.log)
        XCTAssertLessThan(Date().timeIntervalSince(stopping), 8, "SIGTERM waited past the push's drain bound")
        let events = try daemon.journalEvents()
        XCTAssertEqual(events.filter { $0["kind"]?.stringValue == "action" }.count, 20)
        XCTAssertEqual(events.filter { $0["kind"]?.stringValue == "session.end" }.count, 1)
    }

    /// A collector that takes the connection and never answers holds the push in a request
    /// (`timeout_ms` 10 s) when SIGTERM comes: the `drain_push` stage overruns its bound, is
    /// escalated (the push is cancelled, then left behind), and the daemon exits 0 in about
    /// `drain_timeout_ms` plus a second, not after the request's timeout.
    func testCollectorThatNeverAnswersIsGivenUpOnAtTheDrainBound() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(listener, 0)
        addTeardownBlock { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        XCTAssertTrue(bound, String(cString: strerror(errno)))
        // Connections wait in the backlog, never accepted: the push's request is sent into the
        // socket's buffer and its answer never comes.
        let settings = otlp("http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/v1/traces", drainTimeoutMilliseconds: 300, timeoutMilliseconds: 10_000)
        let daemon = try DaemonHarness(self, overrides: ["otlp": settings])
        try runSession(daemon)
        var pending = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&pending, 1, 20_000), 1, "the push never connected:\n\(daemon.log)")

        let stopping = Date()
        XCTAssertEqual(daemon.terminate(), 0, daemon.log)
        let stoppedAfter = Date().timeIntervalSince(stopping)
        XCTAssertLessThan(stoppedAfter, 5, "SIGTERM waited for the request's 10 s timeout:\n\(daemon.log)")
        XCTAssertTrue(daemon.log.contains("msg=\"shutdown stage overran its bound; escalating\" stage=drain_push bound_ms=300 "
                                          + "bound_key=otlp.drain_timeout_ms"), daemon.log)
        XCTAssertTrue(daemon.log.contains("msg=\"otlp push did not finish within its drain bound; the next start resumes from the saved cursor\""), daemon.log)
        XCTAssertTrue(daemon.log.contains("msg=\"shutdown stage finished\" stage=close_journal"), daemon.log)
        XCTAssertEqual(try daemon.journalEvents().filter { $0["kind"]?.stringValue == "session.end" }.count, 1)
    }

    func testRefusedBatchesAreSkippedAndReported() throws {
        let receiver = try OTLPReceiver(self, directory: NSTemporaryDirectory() + "otlp-receiver-\(UUID().uuidString)", authorization: Self.authorization)
        try receiver.start(isRejecting: true)
        let daemon = try DaemonHarness(self, overrides: ["otlp": otlp(receiver.endpoint)])
        try runSession(daemon)
        let spans = try exportedSpans(daemon.directory + "/journal").count
        XCTAssertTrue(try eventually { try metric(daemon, #"navlog_otlp_spans_skipped_total{reason="rejected"}"#) == Double(spans) }, daemon.log)
        XCTAssertEqual(try metric(daemon, "navlog_otlp_push_lag_events"), 0)
        let line = try XCTUnwrap(daemon.waitForLog(containing: "otlp collector refused spans; skipped"))
        XCTAssertTrue(line.contains("reason=rejected") && line.contains("HTTP 400: rejected by the test receiver"), line)
        XCTAssertEqual(daemon.terminate(), 0, daemon.log)
    }

    func testSpansReachAnHTTPSCollectorTrustedThroughTheCAFile() throws {
        let receiver = try OTLPReceiver(self, directory: NSTemporaryDirectory() + "otlp-receiver-\(UUID().uuidString)", authorization: Self.authorization)
        try receiver.makeCertificate()
        try receiver.start(isTLS: true)
        XCTAssertTrue(receiver.endpoint.hasPrefix("https://127.0.0.1:"), receiver.endpoint)
        let daemon = try DaemonHarness(self, overrides: ["otlp": otlp(receiver.endpoint, caFile: receiver.certificatePath)])
        try runSession(daemon)
        try assertReceivedExactly(receiver, daemon.directory + "/journal")
        XCTAssertEqual(try metric(daemon, "navlog_otlp_batches_failed_total"), 0, daemon.log)
        XCTAssertEqual(daemon.terminate(), 0, daemon.log)
    }

    func testAnHTTPSCollectorWhoseCertificateIsNotTrustedIsRetriedNotSkipped() throws {
        let receiver = try OTLPReceiver(self, directory: NSTemporaryDirectory() + "otlp-receiver-\(UUID().uuidString)", authorization: Self.authorization)
        try receiver.makeCertificate()
        try receiver.start(isTLS: true)
        // No ca_file: the system's CAs do not know the self-signed certificate.
        let daemon = try DaemonHarness(self, overrides: ["otlp": otlp(receiver.endpoint, drainTimeoutMilliseconds: 300)])
        try runSession(daemon)
        XCTAssertTrue(try eventually { try (metric(daemon, "navlog_otlp_batches_failed_total") ?? 0) >= 2 }, daemon.log)
        let line = try XCTUnwrap(daemon.waitForLog(containing: "otlp push failed; retrying"))
        XCTAssertTrue(line.contains("SSL certificate problem") && line.contains("curl error 60") && line.contains(receiver.endpoint), line)
        XCTAssertTrue(line.contains("give the CA file that signed it"), line)
        XCTAssertEqual(try metric(daemon, "navlog_otlp_spans_pushed_total"), 0)
        XCTAssertGreaterThan(try metric(daemon, "navlog_otlp_push_lag_events") ?? 0, 0, "the spans wait in the journal")
        for reason in ["rejected", "partial", "too_large"] {
            XCTAssertEqual(try metric(daemon, "navlog_otlp_spans_skipped_total{reason=\"\(reason)\"}") ?? 0, 0, "nothing skipped as \(reason)")
        }
        XCTAssertEqual(receiver.receivedSpans, [])
        XCTAssertEqual(daemon.terminate(), 0, daemon.log)
    }

    func testOTLPSettingsDefaultOffAndBadOnesAreRefusedWithTheirKeyPath() throws {
        let documented = try DaemonConfiguration(parsing: DaemonConfiguration.defaultText, catalog: ConfigurationTests.catalog)
        XCTAssertEqual(documented.otlp, DaemonConfiguration.OTLPSettings())
        XCTAssertFalse(documented.otlp.isEnabled)
        let parsed = try DaemonConfiguration(parsing: #"{"otlp": {"enabled": true, "endpoint": "http://collector:4318", "gzip": false}}"#, catalog: ConfigurationTests.catalog)
        XCTAssertEqual(parsed.otlp.endpoint, DaemonConfiguration.OTLPEndpoint(host: "collector", port: 4318, path: "/v1/traces"))
        XCTAssertFalse(parsed.otlp.isGzipEnabled)
        let secure = try DaemonConfiguration(parsing: #"{"otlp": {"endpoint": "https://collector"}}"#, catalog: ConfigurationTests.catalog)
        XCTAssertEqual(secure.otlp.endpoint, DaemonConfiguration.OTLPEndpoint(scheme: .https, host: "collector", port: 443, path: "/v1/traces"))
        XCTAssertEqual(secure.otlp.endpoint.description, "https://collector:443/v1/traces")
        let six = try DaemonConfiguration(parsing: #"{"otlp": {"endpoint": "http://[::1]:4318/x"}}"#, catalog: ConfigurationTests.catalog)
        XCTAssertEqual(six.otlp.endpoint, DaemonConfiguration.OTLPEndpoint(host: "::1", port: 4318, path: "/x"))
        XCTAssertEqual(six.otlp.endpoint.description, "http://[::1]:4318/x")
        let caFile = NSTemporaryDirectory() + "otlp-ca-\(UUID().uuidString).pem"
        try "-----BEGIN CERTIFICATE-----\n".write(toFile: caFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        let trusted = try DaemonConfiguration(parsing: #"{"otlp": {"endpoint": "https://collector:4318", "ca_file": "\#(caFile)"}}"#, catalog: ConfigurationTests.catalog)
        XCTAssertEqual(trusted.otlp.certificateAuthorityFile, caFile)
        let missing = NSTemporaryDirectory() + "otlp-no-such-ca.pem"
        let cases: [(text: String, message: String)] = [
            (#"{"otlp": {"endpoint": "ftp://collector:4318/v1/traces"}}"#,
             #"otlp.endpoint: must be a URL such as http://127.0.0.1:4318/v1/traces or https://collector:4318, got "ftp://collector:4318/v1/traces""#),
            (#"{"otlp": {"endpoint": "http://collector:99999"}}"#,
             #"otlp.endpoint: must be a URL such as http://127.0.0.1:4318/v1/traces or https://collector:4318, got "http://collector:99999""#),
            (#"{"otlp": {"endpoint": "https://[::1"}}"#, #"otlp.endpoint: must be a URL such as http://127.0.0.1:4318/v1/traces or https://collector:4318, got "https://[::1""#),
            (#"{"otlp": {"endpoint": "https://collector", "ca_file": "\#(missing)"}}"#,
             "otlp.ca_file: \(missing) does not exist; give the PEM file of the collector's certificate authority"),
            (#"{"otlp": {"endpoint": "https://collector", "ca_file": "\#(NSTemporaryDirectory())"}}"#,
             "otlp.ca_file: \(NSTemporaryDirectory()) is a directory; give a readable PEM file"),
            (#"{"otlp": {"endpoint": "http://collector", "ca_file": "\#(caFile)"}}"#,
             "otlp.ca_file: is only used with https, but otlp.endpoint is http://collector:80/v1/traces; use an https:// endpoint or remove ca_file"),
            (#"{"otlp": {"ca_file": 7}}"#, "otlp.ca_file: must be the path of a PEM file or null, got 7"),
            (#"{"otlp": {"batch_size": 0}}"#, "otlp.batch_size: must be a positive integer, got 0"),
            (#"{"otlp": {"interval": 100}}"#, "otlp.interval: unknown key; known keys here: batch_size, ca_file, drain_timeout_ms, enabled, endpoint, gzip, "
                + "headers, interval_ms, retry_initial_ms, retry_max_ms, timeout_ms"),
            (#"{"otlp": {"headers": {"Content-Encoding": "br"}}}"#, "otlp.headers.Content-Encoding: is set by navlogd and cannot be configured"),
            (#"{"otlp": {"headers": {"X-Key": "a\nb"}}}"#, #"otlp.headers.X-Key: must be a single-line string, got "a\nb""#),
            (#"{"otlp": {"retry_initial_ms": 5000, "retry_max_ms": 1000}}"#, "otlp.retry_max_ms: must be at least otlp.retry_initial_ms (5000), got 1000"),
            (#"{"otlp": {"gzip": "yes"}}"#, #"otlp.gzip: must be true or false, got "yes""#),
        ]
        for item in cases {
            XCTAssertThrowsError(try DaemonConfiguration(parsing: item.text, catalog: ConfigurationTests.catalog), item.text) { error in
                XCTAssertEqual("\(error)", item.message)
            }
        }
    }
}
