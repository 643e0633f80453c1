import Foundation
import NavlogTestSupport
import XCTest

@testable import NavlogDaemon

/// The series operators alert on are there from the first scrape: the build's version, the
/// process's start time, and sessions ended by every reason, at 0 until one ends so.
final class OperatorMetricsTests: XCTestCase {
    /// The value of the sample named exactly `sample` (name and labels) in `text`.
    private func value(_ sample: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(sample + " ") }.flatMap { Double($0.split(separator: " ").last!) }
    }

    func testFirstScrapeHasBuildInfoStartTimeAndEveryEndReason() throws {
        let launched = Date().timeIntervalSince1970
        let daemon = try DaemonHarness(self)
        let first = try daemon.request("GET", "/metrics")
        let answered = Date().timeIntervalSince1970
        XCTAssertEqual(first.status, 200)
        let text = first.body
        XCTAssertEqual(value(#"navlog_build_info{version="0.1.0"}"#, in: text), 1, text)
        XCTAssertTrue(text.contains("# TYPE process_start_time_seconds gauge\n"), text)
        // /proc's boot time is whole seconds: the start is known to a second.
        let start = try XCTUnwrap(value("process_start_time_seconds", in: text), text)
        XCTAssertGreaterThanOrEqual(start, launched.rounded(.down) - 1)
        XCTAssertLessThanOrEqual(start, answered + 1)
        let ended = text.split(separator: "\n").filter { $0.hasPrefix("navlog_sessions_ended_total") }
        XCTAssertEqual(ended, [
            #"navlog_sessions_ended_total{reason="client"} 0"#,
            #"navlog_sessions_ended_total{reason="idle timeout"} 0"#,
            #"navlog_sessions_ended_total{reason="shutdown"} 0"#,
        ])

        for _ in 0..<2 {
            let created = try json(daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs"}"#).body)
            let id = try XCTUnwrap(created["id"]?.stringValue)
            XCTAssertEqual(try daemon.request("DELETE", "/v1/sessions/\(id)").status, 200)
        }
        let later = try daemon.request("GET", "/metrics").body
        XCTAssertEqual(value(#"navlog_sessions_ended_total{reason="client"}"#, in: later), 2, later)
        XCTAssertEqual(value(#"navlog_sessions_ended_total{reason="shutdown"}"#, in: later), 0, later)
    }

    func testProcessStartIsReadAfterTheCommandName() {
        // A command name may hold spaces and parentheses; the fields count from its last ')'.
        let fields = (3...22).map { $0 == 22 ? "250" : "\($0)" }.joined(separator: " ")
        let stat = "4242 (navlog d) (x)) " + fields + " 23 24\n"
        let system = "cpu  1 2 3\nbtime 1700000000\nprocesses 9\n"
        XCTAssertEqual(ProcessStartTime.secondsSinceEpoch(processStat: stat, systemStat: system, ticksPerSecond: 100), 1_700_000_002.5)
        XCTAssertNil(ProcessStartTime.secondsSinceEpoch(processStat: "4242 (short) 3 4", systemStat: system, ticksPerSecond: 100))
        XCTAssertNil(ProcessStartTime.secondsSinceEpoch(processStat: stat, systemStat: "cpu 1\n", ticksPerSecond: 100))
    }
}
