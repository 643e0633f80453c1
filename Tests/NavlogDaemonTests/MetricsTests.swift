import Foundation
import XCTest

@testable import NavlogJournal
@testable import NavlogDaemon

/// The request counters are sharded by thread; what `/metrics` shows must still add up.
final class MetricsTests: XCTestCase {
    func testRequestsCountedFromManyThreadsAllShowUp() {
        let metrics = DaemonMetrics()
        let threads = 6
        let perThread = 1000
        let group = DispatchGroup()
        for index in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                for step in 0..<perThread {
                    let status = (index + step) % 10 == 0 ? 404 : 200
                    metrics.recordRequest(method: "POST", route: "/v1/sessions/{id}/actions", status: status, nanoseconds: 200_000)
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
        metrics.recordRequest(method: "GET", route: "/v1/health", status: 200, nanoseconds: 3_000_000_000)
        let text = metrics.render(DaemonMetrics.Snapshot(journal: JournalMetrics(), activeSessions: 0, streamSubscribers: 0,
                                                         streamEventsDropped: 0, uptimeSeconds: 1))
        func value(_ sample: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(sample + " ") }.flatMap { Double($0.split(separator: " ").last!) }
        }
        let notFound = (0..<threads).reduce(0) { total, index in total + (0..<perThread).filter { (index + $0) % 10 == 0 }.count }
        XCTAssertEqual(value(#"navlog_http_requests_total{method="POST",route="/v1/sessions/{id}/actions",status="200"}"#),
                       Double(threads * perThread - notFound), text)
        XCTAssertEqual(value(#"navlog_http_requests_total{method="POST",route="/v1/sessions/{id}/actions",status="404"}"#), Double(notFound))
        XCTAssertEqual(value(#"navlog_http_requests_total{method="GET",route="/v1/health",status="200"}"#), 1)
        XCTAssertEqual(value("navlog_http_request_duration_seconds_count"), Double(threads * perThread + 1))
        // 200 µs falls in the 0.00025 s bucket; the 3 s request only in +Inf.
        XCTAssertEqual(value(#"navlog_http_request_duration_seconds_bucket{le="0.00025"}"#), Double(threads * perThread))
        XCTAssertEqual(value(#"navlog_http_request_duration_seconds_bucket{le="+Inf"}"#), Double(threads * perThread + 1))
        XCTAssertEqual(value("navlog_http_request_duration_seconds_sum") ?? 0, Double(threads * perThread) * 0.0002 + 3, accuracy: 1e-6)
    }

    func testMethodsOutsideTheStandardSetAreCountedAsOtherAndLabelValuesAreEscaped() {
        let metrics = DaemonMetrics()
        for method in ["GET", "BREW", "X\u{1}\n\"\\", String(repeating: "M", count: 4096), "get"] {
            metrics.recordRequest(method: method, route: "other", status: 405, nanoseconds: 1000)
        }
        let text = metrics.render(DaemonMetrics.Snapshot(journal: JournalMetrics(), activeSessions: 0, streamSubscribers: 0,
                                                         streamEventsDropped: 0, uptimeSeconds: 1))
        let series = text.split(separator: "\n").filter { $0.hasPrefix("navlog_http_requests_total{") }
        XCTAssertEqual(series, [
            #"navlog_http_requests_total{method="GET",route="other",status="405"} 1"#,
            #"navlog_http_requests_total{method="other",route="other",status="405"} 4"#,
        ])
        XCTAssertEqual(DaemonMetrics.labels(["reason": "a\"b\\c\nd", "kind": "plain"]), #"{reason="a\"b\\c\nd",kind="plain"}"#)
    }
}
