import XCTest

@testable import NavlogDaemon

/// Routing reads the path's bytes; these pin what each path is routed to.
final class RouteTests: XCTestCase {
    func testEachPathGetsItsTemplateAndSessionID() {
        let cases: [(path: String, template: String, id: String?)] = [
            ("/metrics", "/metrics", nil),
            ("/v1/health", "/v1/health", nil),
            ("/v1/apps", "/v1/apps", nil),
            ("/v1/sessions", "/v1/sessions", nil),
            ("/v1/sessions/", "/v1/sessions", nil),
            ("/v1/events", "/v1/events", nil),
            ("/v1/journal/rotate", "/v1/journal/rotate", nil),
            ("/v1/sessions/s-12", "/v1/sessions/{id}", "s-12"),
            ("//v1//sessions/s-1/actions", "/v1/sessions/{id}/actions", "s-1"),
            ("/v1/sessions/s-1/actions/", "/v1/sessions/{id}/actions", "s-1"),
            ("/v1/sessions/sé-1/deeplinks", "/v1/sessions/{id}/deeplinks", "sé-1"),
            ("/v1/sessions/s-1/actions/extra", "other", nil),
            ("/v1/sessions/s-1/other", "other", nil),
            ("/v1/session", "other", nil),
            ("/v1/healthz", "other", nil),
            ("/v2/health", "other", nil),
            ("/v1/journal/rotat", "other", nil),
            ("/v1", "other", nil),
            ("/", "other", nil),
            ("", "other", nil),
            ("/metrics/x", "other", nil),
        ]
        for item in cases {
            let route = DaemonAPI.route(of: item.path)
            XCTAssertEqual(route.template, item.template, item.path)
            XCTAssertEqual(route.id, item.id, item.path)
        }
    }
}
