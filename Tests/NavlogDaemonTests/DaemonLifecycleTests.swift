import Foundation
import NavlogDaemon
import NavlogEvents
import NavlogTestSupport
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
        let ndjson = try EventStream(daemon, "/v1/events?session=s-1&kind=action,screen.push", subscribers: 1)
        let sse = try EventStream(daemon, "/v1/events?format=sse&session=s-1&kind=action", subscribers: 2)
        try daemon.request("POST", "/v1/sessions/s-2/actions", body: #"{"type": "select_tab", "tab": "Settings"}"#)
        try daemon.request("POST", "/v1/sessions/s-1/actions", body: #"{"element": "open-detail"}"#)
        XCTAssertEqual(daemon.terminate(), 0)
        let lines = try ndjson.finish().map(\.event)
        XCTAssertEqual(lines.map { "\($0["session"]?.stringValue ?? "") \($0["kind"]?.stringValue ?? "")" }, ["s-1 action", "s-1 screen.push"])
        XCTAssertEqual(lines.first?["payload"]?["element"]?.stringValue, "open-detail")
        let events = try sse.finish()
        XCTAssertEqual(events.map { $0.event["kind"]?.stringValue }, ["action"], sse.received)
        XCTAssertTrue(sse.received.hasPrefix("id: nl1-"), sse.received)
    }
}
