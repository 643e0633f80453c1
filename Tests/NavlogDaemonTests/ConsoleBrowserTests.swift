import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

/// The web console in headless Chromium (`Tests/browser/check_console.py`): sessions listed
/// and dropped live, a click that moves a session, a hostile app string shown as text, the
/// daemon refusing the page's actions when they are off, no console error, and no request
/// that leaves the daemon.
final class ConsoleBrowserTests: XCTestCase {
    private func check(_ mode: String, allowsActions: Bool, token: String? = nil) throws {
        try Browser.require()
        let apps: JSONValue = ["master-detail": ["parameters": ["detail_style": "push"]], "tabs": [:], "content-list": [:]]
        var overrides: [String: JSONValue] = ["ui": ["allow_actions": .bool(allowsActions)], "apps": apps]
        if let token { overrides["auth"] = ["token": .string(token)] }
        let daemon = try DaemonHarness(self, overrides: overrides, token: token)
        let base = "http://127.0.0.1:\(try XCTUnwrap(daemon.tcpPort))"
        let result = try Browser.runChecker("check_console.py", [base, mode] + (token.map { [$0] } ?? []))
        XCTAssertEqual(result.status, 0, "the console has problems:\n\(result.stdout)\(result.stderr)")
        XCTAssertEqual(result.stdout, "")
    }

    func testConsoleShowsSessionsLiveAndActsOnThem() throws {
        try check("actions", allowsActions: true)
    }

    func testConsoleCannotActWhenActionsAreOff() throws {
        try check("read-only", allowsActions: false)
    }

    func testWithATokenTheLoginFormOpensTheConsole() throws {
        try check("login", allowsActions: false, token: "browser-test-token-0123456789")
    }
}
