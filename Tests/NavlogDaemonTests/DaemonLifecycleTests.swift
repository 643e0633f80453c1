import Foundation
import NavlogDaemon
import NavlogEvents
import NavlogTestSupport
import Synchronization
import XCTest

/// Reloads and the events stream of a running `navlogd` (its shutdown under load and drain are
/// fault tests: NavlogFaultTests.DaemonShutdownTests).
final class DaemonLifecycleTests: XCTestCase {
    func testSIGHUPRotatesAndKeepsTheOldConfigurationWhenTheNewOneIsInvalid() throws {
        let daemon = try DaemonHarness(self, overrides: ["limits": ["max_body_bytes": 4096]])
        try daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs"}"#)
        try #"{"journal": {"flush_interval_ms": "fast"}}"#.write(toFile: daemon.configurationPath, atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        let rejected = try XCTUnwrap(daemon.waitForLog(containing: "configuration reload rejected"))
        XCTAssertTrue(rejected.contains(#"journal.flush_interval_ms: must be a positive integer, got \"fast\""#), rejected)
        XCTAssertNotNil(daemon.waitForLog(containing: "reason=SIGHUP"))
        XCTAssertEqual(try daemon.request("GET", "/v1/health").status, 200)
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions/s-1/actions", body: #"{"type": "select_tab", "tab": "Settings"}"#).status, 200)

        try daemon.writeConfiguration(["limits": ["max_body_bytes": 64]])
        kill(daemon.process.processIdentifier, SIGHUP)
        XCTAssertNotNil(daemon.waitForLog(containing: "msg=\"configuration reloaded\""))
        let padded = #"{"type": "select_tab", "tab": "Dashboard"}"# + String(repeating: " ", count: 100)
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions/s-1/actions", body: padded).status, 413)
        XCTAssertEqual(daemon.terminate(), 0)
        XCTAssertGreaterThanOrEqual(try FileManager.default.contentsOfDirectory(atPath: daemon.directory + "/journal").filter { $0.hasSuffix(".navlog") }.count, 2)
    }

    func testEventsStreamFiltersBySessionAndKindAndEndsOnShutdown() throws {
        let daemon = try DaemonHarness(self)
        try daemon.request("POST", "/v1/sessions", body: #"{"app": "master-detail"}"#)
        try daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs"}"#)
        let ndjson = try startStream(daemon, "/v1/events?session=s-1&kind=action,screen.push", subscribers: 1)
        let sse = try startStream(daemon, "/v1/events?format=sse&session=s-1&kind=action", subscribers: 2)
        try daemon.request("POST", "/v1/sessions/s-2/actions", body: #"{"type": "select_tab", "tab": "Settings"}"#)
        try daemon.request("POST", "/v1/sessions/s-1/actions", body: #"{"element": "open-detail"}"#)
        XCTAssertEqual(daemon.terminate(), 0)
        let lines = try finish(ndjson).split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        XCTAssertEqual(lines.map { "\($0["session"]?.stringValue ?? "") \($0["kind"]?.stringValue ?? "")" }, ["s-1 action", "s-1 screen.push"])
        XCTAssertEqual(lines.first?["payload"]?["element"]?.stringValue, "open-detail")
        let events = try finish(sse)
        XCTAssertTrue(events.hasPrefix("event: event\ndata: {"), events)
        XCTAssertEqual(events.components(separatedBy: "event: event\n").count - 1, 1, events)
    }

    /// Starts `curl -N` on `path` and polls (bounded) until the daemon counts `subscribers` streams.
    private func startStream(_ daemon: DaemonHarness, _ path: String, subscribers: Int) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-N", "--max-time", "30", "--unix-socket", daemon.socketPath, "http://localhost" + path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var attempts = 0
        while try !daemon.request("GET", "/metrics").body.contains("navlog_stream_subscribers \(subscribers)\n"), attempts < 1000 {
            attempts += 1
        }
        XCTAssertLessThan(attempts, 1000, "the stream \(path) never opened")
        return (process, output)
    }

    private func finish(_ stream: (Process, Pipe)) throws -> String {
        let data = stream.1.fileHandleForReading.readDataToEndOfFile()
        stream.0.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
