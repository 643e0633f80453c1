import Foundation
import NavlogDaemon
import NavlogEvents
import NavlogHost
import NavlogTestSupport
import XCTest

/// What the web console shows, against an independent source: private values as the journal
/// stores them, timeline lines as `navlog show` prints them, the journeys report over the
/// window asked for; and `ui` in `navlogd.json`.
final class ConsoleDataTests: XCTestCase {
    // MARK: - Configuration

    func testUISettingsAreParsedStrictly() throws {
        let catalog = AppCatalog.sampleSignatures
        let cases: [(text: String, message: String)] = [
            (#"{"ui": {"enabled": "yes"}}"#, #"ui.enabled: must be true, false or null, got "yes""#),
            (#"{"ui": {"allow_actions": 1}}"#, "ui.allow_actions: must be true or false, got 1"),
            (#"{"ui": {"theme": "dark"}}"#, "ui.theme: unknown key; known keys here: allow_actions, enabled"),
            (#"{"ui": true}"#, "ui: must be an object, got true"),
        ]
        for item in cases {
            XCTAssertThrowsError(try DaemonConfiguration(parsing: item.text, catalog: catalog), item.text) { error in
                XCTAssertEqual("\(error)", item.message)
            }
        }
        let token = #""auth": {"token": "0123456789abcdef"}"#
        let served: [(text: String, isServed: Bool, allowsActions: Bool)] = [
            ("{}", true, false),
            (#"{"ui": {"allow_actions": true}}"#, true, true),
            (#"{"listen": {"tcp": null}}"#, true, false),
            (#"{"listen": {"tcp": {"host": "0.0.0.0", "port": 7878}}, \#(token)}"#, false, false),
            (#"{"listen": {"tcp": {"host": "0.0.0.0", "port": 7878}}, \#(token), "ui": {"enabled": true}}"#, true, false),
            (#"{"ui": {"enabled": false}}"#, false, false),
        ]
        for item in served {
            let configuration = try DaemonConfiguration(parsing: item.text, catalog: catalog)
            XCTAssertEqual(configuration.servesConsole, item.isServed, item.text)
            XCTAssertEqual(configuration.console.allowsActions, item.allowsActions, item.text)
        }
    }

    // MARK: - Redaction

    func testAPrivateFieldShowsAsTheJournalStoresIt() throws {
        let daemon = try DaemonHarness(self)
        try daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs", "parameters": {"start_tab": "settings"}}"#)
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions/s-1/actions", body: #"{"element": "open-profile"}"#).status, 200)
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions/s-1/actions", body: #"{"element": "profile-name", "value": "Ana Lima"}"#).status, 200)
        func field(_ body: String) throws -> String? {
            try json(body)["state"]?["visible"]?["elements"]?["children"]?.arrayValue?.first { $0["id"]?.stringValue == "profile-name" }?["value"]?.stringValue
        }
        XCTAssertEqual(try field(daemon.request("GET", "/v1/sessions/s-1").body), "Ana Lima", "the API answers the app's own state")
        let shown = try XCTUnwrap(try field(daemon.request("GET", "/ui/api/sessions/s-1").body))
        XCTAssertEqual(daemon.terminate(), 0)
        let stored = try daemon.journalEvents().filter { $0["kind"]?.stringValue == "action" && $0["payload"]?["element"]?.stringValue == "profile-name" }
        XCTAssertEqual(stored.count, 1)
        XCTAssertEqual(shown, stored.first?["payload"]?["value"]?.stringValue)
        XCTAssertTrue(shown.hasPrefix("hmac:"), shown)
    }

    // MARK: - Timeline

    func testTimelineTextHasTheDiffLinesNavlogShowPrints() throws {
        let daemon = try DaemonHarness(self, overrides: ["apps": ["content-list": [:]]])
        try daemon.request("POST", "/v1/sessions", body: #"{"app": "content-list"}"#)
        let stream = Process()
        stream.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        stream.arguments = ["-s", "-N", "--max-time", "30", "--unix-socket", daemon.socketPath,
                            "http://localhost/v1/events?format=sse&text=true&session=s-1&after=nl1-0"]
        let output = Pipe()
        stream.standardOutput = output
        try stream.run()
        var attempts = 0
        while try !daemon.request("GET", "/metrics").body.contains("navlog_stream_subscribers 1\n"), attempts < 1000 { attempts += 1 }
        for value in ["swift", "swift ui", ""] {
            let body = JSONValue.object(["element": "search", "value": .string(value)]).serialized()
            XCTAssertEqual(try daemon.request("POST", "/v1/sessions/s-1/actions", body: body).status, 200)
        }
        XCTAssertEqual(try daemon.request("DELETE", "/v1/sessions/s-1").status, 200)
        // The stream is written in batches: read it until the session's end has come (curl's
        // --max-time bounds the wait), then stop the daemon, which ends the stream.
        var received = Data()
        while !String(decoding: received, as: UTF8.self).contains(#""kind":"session.end""#) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            received.append(chunk)
        }
        XCTAssertEqual(daemon.terminate(), 0)
        received.append(output.fileHandleForReading.readDataToEndOfFile())
        let text = String(decoding: received, as: UTF8.self)
        stream.waitUntilExit()
        // Each event is `id: CURSOR`, `event: event`, `data: JSON`.
        let events = try text.components(separatedBy: "\n\n").filter { $0.contains("\nevent: event\ndata: ") }
            .map { try JSONValue(parsing: String($0.components(separatedBy: "\ndata: ")[1])) }
        let streamed = events.flatMap { ($0["text"]?.stringValue ?? "").split(separator: "\n").dropFirst().map(String.init) }
        let show = try runTool(productPath("navlog"), ["show", daemon.directory + "/journal", "--session", "s-1"])
        XCTAssertEqual(show.status, 0, show.stderr)
        let printed = show.stdout.split(separator: "\n").filter { $0.hasPrefix("        ") }.map(String.init)
        XCTAssertFalse(printed.isEmpty, "navlog show printed no diff lines:\n\(show.stdout)")
        XCTAssertEqual(streamed, printed)
        XCTAssertEqual(events.map { $0["kind"]?.stringValue }, try daemon.journalEvents().map { $0["kind"]?.stringValue })
    }

    // MARK: - Journeys

    func testJourneysReportCoversTheWindowAndAdmitsOnlyItsOwnStyle() throws {
        let daemon = try DaemonHarness(self, overrides: ["testing": ["wall_clock_offset_s": -7200]])
        try daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs"}"#)
        try daemon.writeConfiguration([:])
        kill(daemon.process.processIdentifier, SIGHUP)
        XCTAssertNotNil(daemon.waitForLog(containing: "msg=\"configuration reloaded\""))
        try daemon.request("POST", "/v1/sessions", body: #"{"app": "master-detail"}"#)
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions/s-2/actions", body: #"{"element": "open-detail"}"#).status, 200)
        for session in ["s-1", "s-2"] { XCTAssertEqual(try daemon.request("DELETE", "/v1/sessions/\(session)").status, 200) }

        // The session started two hours back (by the clock then) is in the day, not the hour.
        let hour = try daemon.request("GET", "/ui/api/report?window=1h")
        XCTAssertEqual(hour.status, 200, hour.body)
        let day = try daemon.request("GET", "/ui/api/report?window=1d").body
        let bad = try daemon.request("GET", "/ui/api/report?window=week")
        XCTAssertEqual(bad.status, 400)
        XCTAssertEqual(try json(bad.body)["detail"]?.stringValue, #"window must be one of 15m, 1h, 1d, got "week""#)
        XCTAssertEqual(daemon.terminate(), 0)
        let events = try daemon.journalEvents()
        func figure(_ name: String, _ page: String) -> String? {
            guard let range = page.range(of: #"<div><b>[0-9,]+</b><span>\#(name)</span></div>"#, options: .regularExpression) else { return nil }
            return page[range].components(separatedBy: "<b>")[1].components(separatedBy: "</b>")[0]
        }
        XCTAssertEqual(figure("sessions", hour.body), "1")
        XCTAssertEqual(figure("events", hour.body), String(events.filter { $0["session"]?.stringValue == "s-2" }.count))
        XCTAssertEqual(figure("sessions", day), "2")
        XCTAssertEqual(figure("events", day), String(events.count))
        XCTAssertTrue(hour.body.contains("<title>navlogd journeys, last hour</title>"))

    }

    /// A session recorded elsewhere whose only screen is its window's root (no push or present
    /// asked for that screen's type first) is in the journeys report, and the daemon keeps
    /// answering: reading the report trapped and took the daemon down.
    func testJourneysReportOfASessionShowingOnlyItsRootScreen() throws {
        let daemon = try DaemonHarness(self)
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        func event(_ seq: UInt64, _ kind: EventKind, subject: String, screen: String? = nil, payload: JSONValue = [:]) -> Event {
            Event(wallNanoseconds: now + Int64(seq) * 1_000_000, monotonicNanoseconds: seq * 1_000_000, run: "r-phone", session: "s-1",
                  sessionSeq: seq, kind: kind, subject: subject, screen: screen, cause: seq > 1 ? 1 : nil, payload: payload)
        }
        let events = [
            event(1, .sessionStart, subject: "Session#1", payload: ["app": "widget"]),
            event(2, .windowRoot, subject: "AppCoordinator#1", screen: "Home#1", payload: ["window": "Window#1", "root": "Tabs#1"]),
            event(3, .sessionEnd, subject: "Session#1"),
        ]
        XCTAssertEqual(try daemon.ingest(ndjson(events), query: "source=phone").status, 200)
        let report = try daemon.request("GET", "/ui/api/report?window=1h")
        XCTAssertEqual(report.status, 200, report.body)
        XCTAssertTrue(report.body.contains(">Home<"), report.body)
        XCTAssertEqual(try daemon.request("GET", "/v1/sessions").status, 200)
        XCTAssertEqual(daemon.terminate(), 0)
    }

    func testReportPolicyHashesExactlyTheReportsInlineStyles() throws {
        let daemon = try DaemonHarness(self)
        try daemon.request("POST", "/v1/sessions", body: #"{"app": "master-detail"}"#)
        let answer = try runTool("/usr/bin/curl", ["-s", "-i", "http://127.0.0.1:\(daemon.tcpPort ?? 0)/ui/api/report?window=15m"])
        let parts = answer.stdout.components(separatedBy: "\r\n\r\n")
        let policy = try XCTUnwrap(parts[0].components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("content-security-policy:") })
        // The hashes, computed apart from the daemon (Python's hashlib) over the page's inline styles.
        let script = """
            import base64, hashlib, re, sys
            page = sys.stdin.read()
            styles = re.findall(r"<style>(.*?)</style>", page, re.S) + sorted(set(re.findall(r' style="([^"]*)"', page)))
            print(" ".join("'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'" for s in styles))
            """
        let hashing = Process()
        hashing.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        hashing.arguments = ["python3", "-c", script]
        let input = Pipe(), output = Pipe()
        hashing.standardInput = input
        hashing.standardOutput = output
        try hashing.run()
        input.fileHandleForWriting.write(Data(parts.dropFirst().joined(separator: "\r\n\r\n").utf8))
        input.fileHandleForWriting.closeFile()
        let hashes = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        hashing.waitUntilExit()
        XCTAssertEqual(policy, "Content-Security-Policy: default-src 'none'; style-src 'unsafe-hashes' \(hashes); img-src data:; "
                       + "base-uri 'none'; form-action 'none'; frame-ancestors 'self'")
        XCTAssertFalse(parts.dropFirst().joined().contains("<script"))
    }
}
