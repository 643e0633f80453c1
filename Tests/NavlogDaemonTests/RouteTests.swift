import Foundation
import NavlogEvents
import NavlogHost
import NavlogJournal
import XCTest

@testable import NavlogDaemon

/// Routing reads the path's bytes; these pin what each path is routed to, and what each
/// method on it is answered, from the one table of routes.
final class RouteTests: XCTestCase {
    func testEachPathGetsItsTemplateAndSessionID() {
        let cases: [(path: String, template: String, id: String)] = [
            ("/metrics", "/metrics", ""),
            ("/v1/health", "/v1/health", ""),
            ("/v1/apps", "/v1/apps", ""),
            ("/v1/sessions", "/v1/sessions", ""),
            ("/v1/sessions/", "/v1/sessions", ""),
            ("/v1/events", "/v1/events", ""),
            ("/v1/journal/rotate", "/v1/journal/rotate", ""),
            ("/v1/sessions/s-12", "/v1/sessions/{id}", "s-12"),
            ("/v1/sessions/rotate", "/v1/sessions/{id}", "rotate"),
            ("//v1//sessions/s-1/actions", "/v1/sessions/{id}/actions", "s-1"),
            ("/v1/sessions/s-1/actions/", "/v1/sessions/{id}/actions", "s-1"),
            ("/v1/sessions/sé-1/deeplinks", "/v1/sessions/{id}/deeplinks", "sé-1"),
            ("/v1/sessions/s-1/actions/extra", "other", ""),
            ("/v1/sessions/s-1/actions/extra/more", "other", ""),
            ("/v1/sessions/s-1/other", "other", ""),
            ("/v1/session", "other", ""),
            ("/v1/healthz", "other", ""),
            ("/v2/health", "other", ""),
            ("/v1/journal/rotat", "other", ""),
            ("/v1/journal/s-1", "other", ""),
            ("/v1", "other", ""),
            ("/", "other", ""),
            ("", "other", ""),
            ("/metrics/x", "other", ""),
        ]
        for item in cases {
            let match = Route.match(item.path, in: DaemonAPI.routes)
            XCTAssertEqual(match.template, item.template, item.path)
            XCTAssertEqual(match.id, item.id, item.path)
        }
    }

    /// Each method on each route: the handler that answers it (told apart by its answer), or
    /// 405 with the route's methods in `Allow`, or 404; HEAD is answered as GET where GET is
    /// allowed. `route` is what metrics label the request with.
    func testEachMethodIsAnsweredByItsHandlerOr405WithTheRoutesMethods() async throws {
        let api = try makeAPI(token: nil)
        let cases: [(method: String, path: String, body: String, answer: String)] = [
            ("GET", "/v1/health", "", "200 status=running"),
            ("HEAD", "/v1/health", "", "200 status=running"),
            ("POST", "/v1/health", "", "405 Allow: GET"),
            ("GET", "/metrics", "", "200 text/plain; version=0.0.4; charset=utf-8"),
            ("DELETE", "/metrics", "", "405 Allow: GET"),
            ("GET", "/v1/apps", "", "200 apps"),
            ("PUT", "/v1/apps", "", "405 Allow: GET"),
            ("GET", "/v1/sessions", "", "200 sessions"),
            ("HEAD", "/v1/sessions", "", "200 sessions"),
            ("POST", "/v1/sessions", "{}", "400 invalid_field"),
            ("PATCH", "/v1/sessions", "", "405 Allow: GET, POST"),
            ("DELETE", "/v1/sessions", "", "405 Allow: GET, POST"),
            ("GET", "/v1/sessions/s-9", "", "404 unknown_session"),
            ("HEAD", "/v1/sessions/s-9", "", "404 unknown_session"),
            ("DELETE", "/v1/sessions/s-9", "", "404 unknown_session"),
            ("POST", "/v1/sessions/s-9", "", "405 Allow: GET, DELETE"),
            ("PATCH", "/v1/sessions/s-9", "", "405 Allow: GET, DELETE"),
            ("POST", "/v1/sessions/s-9/actions", #"{"element": "x"}"#, "404 unknown_session"),
            ("POST", "/v1/sessions/s-9/actions", #"{"type": "jump"}"#, "400 invalid_field"),
            ("GET", "/v1/sessions/s-9/actions", "", "405 Allow: POST"),
            ("HEAD", "/v1/sessions/s-9/actions", "", "405 Allow: POST"),
            ("POST", "/v1/sessions/s-9/deeplinks", #"{"url": "x"}"#, "404 unknown_session"),
            ("POST", "/v1/sessions/s-9/deeplinks", "{}", "400 invalid_field"),
            ("GET", "/v1/sessions/s-9/deeplinks", "", "405 Allow: POST"),
            ("GET", "/v1/events", "", "200 stream"),
            ("GET", "/v1/events?format=xml", "", "400 invalid_field"),
            ("POST", "/v1/events", "", "405 Allow: GET"),
            ("POST", "/v1/journal/rotate", "", "200 file"),
            ("GET", "/v1/journal/rotate", "", "405 Allow: POST"),
            ("GET", "/v2/anything", "", "404 not_found"),
            ("BREW", "/v1/health", "", "405 Allow: GET"),
            ("BREW", "/v2/anything", "", "404 not_found"),
        ]
        var answers: [String] = []
        for item in cases {
            answers.append("\(item.method) \(item.path) \(try await answer(api, item.method, item.path, body: item.body))")
        }
        assertLines(answers, cases.map { "\($0.method) \($0.path) \($0.answer)" })
        try api.journal.close()
    }

    /// A 405 says which methods are allowed in its detail too; a 404 names the path.
    func testRefusalsNameTheMethodAndPath() async throws {
        let api = try makeAPI(token: nil)
        var request = HTTPRequest(method: "PATCH", path: "//v1/sessions/s-2/")
        guard case .response(let refused) = api.handle(&request) else { return XCTFail("not answered at once") }
        XCTAssertEqual(String(decoding: refused.body, as: UTF8.self),
                       #"{"detail":"PATCH is not allowed on //v1/sessions/s-2/; allowed: GET, DELETE","error":"method_not_allowed"}"# + "\n")
        XCTAssertEqual(refused.headers.map { "\($0.name): \($0.value)" }, ["Content-Type: application/json", "Allow: GET, DELETE"])
        XCTAssertEqual(request.route, "/v1/sessions/{id}")
        var unknown = HTTPRequest(method: "GET", path: "/v1/nothing")
        guard case .response(let missing) = api.handle(&unknown) else { return XCTFail("not answered at once") }
        XCTAssertEqual(String(decoding: missing.body, as: UTF8.self),
                       #"{"detail":"no endpoint /v1/nothing; see docs/openapi.yaml","error":"not_found"}"# + "\n")
        XCTAssertEqual(unknown.route, "other")
        try api.journal.close()
    }

    /// With a token configured, every route but health wants it, unknown paths included.
    func testTheTokenIsCheckedBeforeTheRouteIsAnsweredExceptForHealth() async throws {
        let api = try makeAPI(token: "secret")
        let cases: [(method: String, path: String, answer: String)] = [
            ("GET", "/v1/health", "200 status=running"),
            ("POST", "/v1/health", "405 Allow: GET"),
            ("GET", "/v1/apps", "401 unauthorized"),
            ("PATCH", "/v1/sessions", "401 unauthorized"),
            ("GET", "/v2/anything", "401 unauthorized"),
        ]
        var answers: [String] = []
        for item in cases { answers.append("\(item.method) \(item.path) \(try await answer(api, item.method, item.path, body: ""))") }
        assertLines(answers, cases.map { "\($0.method) \($0.path) \($0.answer)" })
        let withToken = try await answer(api, "GET", "/v1/apps", body: "", token: "secret")
        XCTAssertEqual(withToken, "200 apps")
        try api.journal.close()
    }

    // MARK: - Helpers

    /// An API over a fresh journal in a temporary directory, running.
    private func makeAPI(token: String?) throws -> DaemonAPI {
        let directory = NSTemporaryDirectory() + "navlog-routes-\(UUID().uuidString)"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = DaemonConfiguration()
        configuration.journal.directory = directory
        configuration.token = token
        let catalog = ConfigurationTests.catalog
        let writer = try JournalWriter(configuration: configuration.makeJournalConfiguration())
        let broadcaster = EventBroadcaster(redactor: writer.redactor)
        writer.observe(with: broadcaster)
        let registry = SessionRegistry(catalog: catalog, sink: writer)
        let api = DaemonAPI(catalog: catalog, registry: registry, journal: writer, broadcaster: broadcaster, metrics: DaemonMetrics(otlpPush: nil),
                            log: Logger(minimumLevel: .error), settings: LiveSettings(configuration, catalog: catalog))
        api.state.store(.running, ordering: .sequentiallyConsistent)
        return api
    }

    /// The answer to one request in short: the status, then `Allow` on a 405, the error code
    /// of a JSON error, the first key of another JSON body (`status=` its value for health),
    /// `stream`, or the content type.
    private func answer(_ api: DaemonAPI, _ method: String, _ target: String, body: String, token: String? = nil) async throws -> String {
        let parts = target.split(separator: "?", maxSplits: 1)
        let query: [(name: String, value: String)] = parts.dropFirst().flatMap { $0.split(separator: "&") }.map { pair in
            let halves = pair.split(separator: "=", maxSplits: 1).map(String.init)
            return (name: halves[0], value: halves.count > 1 ? halves[1] : "")
        }
        var request = HTTPRequest(method: method, path: String(parts[0]), query: query,
                                  headers: token.map { ["authorization": "Bearer \($0)"] } ?? [:], body: Array(body.utf8))
        let response: HTTPResponse
        switch api.handle(&request) {
        case .response(let now): response = now
        case .deferred(let later): response = await later()
        case .stream(let status, _, let source):
            source.detach()
            return "\(status) stream"
        }
        XCTAssertEqual(request.route, Route.match(request.path, in: DaemonAPI.routes).template, target)
        if response.status == 405 { return "405 Allow: \(response.headers.first { $0.name == "Allow" }?.value ?? "-")" }
        let contentType = response.headers.first { $0.name == "Content-Type" }?.value ?? "-"
        guard contentType == "application/json" else { return "\(response.status) \(contentType)" }
        let json = try JSONValue(parsing: Data(response.body))
        if let code = json["error"]?.stringValue { return "\(response.status) \(code)" }
        if let status = json["status"]?.stringValue { return "\(response.status) status=\(status)" }
        return "\(response.status) \(json.objectValue?.keys.sorted().first ?? "-")"
    }

    /// Asserts `actual` equals `expected`, showing the lines that differ (Expected: −, Actual: +).
    private func assertLines(_ actual: [String], _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        guard actual != expected else { return }
        let missing = expected.filter { !actual.contains($0) }.map { "- " + $0 }
        let extra = actual.filter { !expected.contains($0) }.map { "+ " + $0 }
        XCTFail("answers differ (Expected: -, Actual: +)\n" + (missing + extra).joined(separator: "\n"), file: file, line: line)
    }
}
