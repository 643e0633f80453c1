import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

/// The web console over HTTP: its policy, the token rule and its cookie, what a browser may
/// change, `ui` in the configuration, redaction, the timeline's text and the journeys report.
final class ConsoleTests: XCTestCase {
    static let policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "frame-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    static let token = "console-test-token-0123456789"

    /// A response with its headers, lowercased by name.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    /// Sends a request over TCP with curl, with extra `headers`, and returns the whole answer.
    private func send(_ daemon: DaemonHarness, _ method: String, _ path: String, headers: [String] = [], body: String? = nil) throws -> Answer {
        var arguments = ["-s", "-S", "-i", "-X", method, "--max-time", "20", "http://127.0.0.1:\(daemon.tcpPort ?? 0)\(path)"]
        for header in headers { arguments += ["-H", header] }
        if let body { arguments += ["--data-binary", body] }
        let output = try runTool("/usr/bin/curl", arguments)
        XCTAssertEqual(output.status, 0, output.stderr)
        let parts = output.stdout.components(separatedBy: "\r\n\r\n")
        let head = parts[0].components(separatedBy: "\r\n")
        var fields: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        return Answer(status: status, headers: fields, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    // MARK: - Pages and policy

    func testPageAndAssetsCarryTheStrictPolicyAndNoInlineCode() throws {
        let daemon = try DaemonHarness(self)
        for (path, type) in [("/ui", "text/html; charset=utf-8"), ("/ui/console.js", "text/javascript; charset=utf-8"), ("/ui/console.css", "text/css; charset=utf-8")] {
            let answer = try send(daemon, "GET", path)
            XCTAssertEqual(answer.status, 200, path)
            XCTAssertEqual(answer.headers["content-security-policy"], Self.policy, path)
            XCTAssertEqual(answer.headers["content-type"], type, path)
            XCTAssertEqual(answer.headers["x-content-type-options"], "nosniff", path)
        }
        let page = try send(daemon, "GET", "/ui").body
        XCTAssertTrue(page.contains(#"<script src="/ui/console.js" defer></script>"#), page)
        XCTAssertTrue(page.contains(#"data-allow-actions="false""#), page)
        for pattern in [#"<script(?![^>]*\bsrc=)"#, #"<style"#, #"\sstyle="#, #"\son[a-z]+="#, #"https?://"#] {
            XCTAssertNil(page.range(of: pattern, options: .regularExpression), "the page has inline code or a link elsewhere: \(pattern)")
        }
        let script = try send(daemon, "GET", "/ui/console.js").body
        for forbidden in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "http://", "https://"] {
            XCTAssertFalse(script.contains(forbidden), "console.js uses \(forbidden)")
        }
    }

    func testConsoleCanBeTurnedOff() throws {
        let daemon = try DaemonHarness(self, overrides: ["ui": ["enabled": false]])
        for path in ["/ui", "/ui/console.js", "/ui/api/report", "/ui/api/sessions/s-1"] {
            let answer = try send(daemon, "GET", path)
            XCTAssertEqual(answer.status, 404, path)
            XCTAssertEqual(try json(answer.body)["error"]?.stringValue, "not_found", path)
        }
    }

    // MARK: - Token and cookie

    func testWithATokenTheConsoleNeedsItAndItsCookieOpensTheAPI() throws {
        let daemon = try DaemonHarness(self, overrides: ["auth": ["token": .string(Self.token)]], token: Self.token)
        let login = try send(daemon, "GET", "/ui")
        XCTAssertEqual(login.status, 401)
        XCTAssertEqual(login.headers["content-security-policy"], Self.policy)
        XCTAssertTrue(login.body.contains(#"<form method="post" action="/ui/login">"#), login.body)
        XCTAssertEqual(try send(daemon, "GET", "/v1/sessions").status, 401)
        XCTAssertEqual(try send(daemon, "GET", "/ui/api/report").status, 401)
        XCTAssertEqual(try send(daemon, "GET", "/v1/sessions", headers: ["Cookie: navlog_console=0000"]).status, 401)

        let wrong = try send(daemon, "POST", "/ui/login", headers: ["Content-Type: application/x-www-form-urlencoded"], body: "token=guess")
        XCTAssertEqual(wrong.status, 401)
        XCTAssertTrue(wrong.body.contains("That is not the daemon&#39;s token.") || wrong.body.contains("That is not the daemon's token."), wrong.body)
        XCTAssertNil(wrong.headers["set-cookie"])

        let right = try send(daemon, "POST", "/ui/login", headers: ["Content-Type: application/x-www-form-urlencoded"], body: "token=\(Self.token)")
        XCTAssertEqual(right.status, 303)
        XCTAssertEqual(right.headers["location"], "/ui")
        let cookie = try XCTUnwrap(right.headers["set-cookie"])
        XCTAssertTrue(cookie.hasSuffix("; Path=/; HttpOnly; SameSite=Strict"), cookie)
        let pair = String(cookie.prefix { $0 != ";" })
        XCTAssertFalse(pair.contains(Self.token), "the cookie is the token itself")
        XCTAssertEqual(try send(daemon, "GET", "/ui", headers: ["Cookie: \(pair)"]).status, 200)
        XCTAssertEqual(try send(daemon, "GET", "/v1/sessions", headers: ["Cookie: other=1; \(pair)"]).status, 200)
        XCTAssertEqual(try send(daemon, "GET", "/v1/sessions", headers: ["Authorization: Bearer \(Self.token)"]).status, 200)
    }

    // MARK: - What a browser may change

    func testBrowserRequestsCannotChangeSessionsWhenActionsAreOff() throws {
        let daemon = try DaemonHarness(self)
        try daemon.request("POST", "/v1/sessions", body: #"{"app": "master-detail"}"#)
        let origin = "Origin: http://127.0.0.1:\(daemon.tcpPort ?? 0)"
        for header in [origin, "Sec-Fetch-Site: same-origin"] {
            let answer = try send(daemon, "POST", "/v1/sessions/s-1/actions", headers: [header, "Content-Type: application/json"], body: #"{"element": "open-detail"}"#)
            XCTAssertEqual(answer.status, 403, header)
            XCTAssertEqual(try json(answer.body)["error"]?.stringValue, "console_actions_disabled", header)
        }
        XCTAssertEqual(try json(daemon.request("GET", "/v1/sessions/s-1").body)["state"]?["visible"]?["id"]?.stringValue, "Master#1")
        // A client (no browser headers) is not the console: it acts as before.
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions/s-1/actions", body: #"{"element": "open-detail"}"#).status, 200)
        XCTAssertEqual(try json(daemon.request("GET", "/v1/sessions/s-1").body)["state"]?["visible"]?["id"]?.stringValue, "Detail#1")
    }

    func testWithActionsAllowedABrowserMayOnlyActFromTheDaemonsOwnPage() throws {
        let daemon = try DaemonHarness(self, overrides: ["ui": ["allow_actions": true]])
        try daemon.request("POST", "/v1/sessions", body: #"{"app": "master-detail"}"#)
        let jsonBody = "Content-Type: application/json"
        let acted = try send(daemon, "POST", "/v1/sessions/s-1/actions", headers: ["Sec-Fetch-Site: same-origin", jsonBody], body: #"{"element": "open-detail"}"#)
        XCTAssertEqual(acted.status, 200, acted.body)
        let refusals: [(method: String, path: String, headers: [String], body: String?, code: String)] = [
            ("POST", "/v1/sessions", ["Sec-Fetch-Site: same-origin", jsonBody], #"{"app": "tabs"}"#, "console_read_only"),
            ("DELETE", "/v1/sessions/s-1", ["Sec-Fetch-Site: same-origin"], nil, "console_read_only"),
            ("POST", "/v1/journal/rotate", ["Origin: http://127.0.0.1"], nil, "console_read_only"),
            ("POST", "/v1/sessions/s-1/actions", ["Sec-Fetch-Site: cross-site", jsonBody], #"{"type": "back"}"#, "cross_site_request"),
        ]
        for refusal in refusals {
            let answer = try send(daemon, refusal.method, refusal.path, headers: refusal.headers, body: refusal.body)
            XCTAssertEqual(answer.status, 403, "\(refusal.method) \(refusal.path)")
            XCTAssertEqual(try json(answer.body)["error"]?.stringValue, refusal.code, "\(refusal.method) \(refusal.path)")
        }
        let listed = try json(daemon.request("GET", "/v1/sessions").body)["sessions"]?.arrayValue ?? []
        XCTAssertEqual(listed.map { $0["id"]?.stringValue }, ["s-1"])
    }
}
