import Foundation
import NavlogDaemon
import NavlogEvents
import NavlogTestSupport
import Synchronization
import XCTest

/// The HTTP API of a running `navlogd`, driven with curl.
final class DaemonAPITests: XCTestCase {
    func testSessionLifecycleIsAnsweredAndJournaled() throws {
        let daemon = try DaemonHarness(self)
        let apps = try json(daemon.request("GET", "/v1/apps").body)
        XCTAssertEqual(apps["apps"]?.arrayValue?.compactMap { $0["name"]?.stringValue }, ["master-detail", "tabs"])

        let created = try daemon.request("POST", "/v1/sessions", body: #"{"app": "master-detail", "parameters": {"detail_style": "modal"}}"#)
        XCTAssertEqual(created.status, 201, created.body)
        let id = try XCTUnwrap(json(created.body)["id"]?.stringValue)
        XCTAssertEqual(try json(created.body)["state"]?["visible"]?["id"]?.stringValue, "Master#1")

        let acted = try daemon.request("POST", "/v1/sessions/\(id)/actions", body: #"{"element": "open-detail"}"#)
        XCTAssertEqual(acted.status, 200, acted.body)
        XCTAssertEqual(try json(acted.body)["state"]?["visible"]?["id"]?.stringValue, "Detail#1")
        XCTAssertEqual(try daemon.request("GET", "/v1/sessions/\(id)").status, 200)
        let listed = try json(daemon.request("GET", "/v1/sessions").body)
        XCTAssertEqual(listed["sessions"]?.arrayValue?.compactMap { $0["id"]?.stringValue }, [id])
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions/\(id)/deeplinks", body: #"{"url": "nowhere://x"}"#).status, 422)
        XCTAssertEqual(try daemon.request("DELETE", "/v1/sessions/\(id)").status, 200)
        XCTAssertEqual(try daemon.request("GET", "/v1/sessions/\(id)").status, 404)
        XCTAssertEqual(try daemon.request("POST", "/v1/journal/rotate").status, 200)

        XCTAssertEqual(daemon.terminate(), 0, daemon.log)
        let events = try daemon.journalEvents().filter { $0["session"]?.stringValue == id }
        let kinds = events.compactMap { $0["kind"]?.stringValue }
        XCTAssertEqual(kinds.first, "session.start")
        XCTAssertEqual(kinds.last, "session.end")
        XCTAssertEqual(events.last?["payload"]?["reason"]?.stringValue, "client")
        XCTAssertTrue(kinds.contains("action") && kinds.contains("screen.present") && kinds.contains("deeplink"), "\(kinds)")
    }

    func testBadRequestsGetAClearErrorAndTheDaemonKeepsServing() throws {
        let daemon = try DaemonHarness(self, overrides: ["limits": ["max_body_bytes": 1024]])
        let id = try XCTUnwrap(json(daemon.request("POST", "/v1/sessions", body: #"{"app": "master-detail"}"#).body)["id"]?.stringValue)
        let oversized = "{\"element\": \"" + String(repeating: "x", count: 2000) + "\"}"
        let cases: [(method: String, path: String, body: String?, status: Int, error: String, detail: String)] = [
            ("POST", "/v1/sessions/\(id)/actions", #"{"element": "open-"#, 400, "malformed_json", "not valid JSON"),
            ("POST", "/v1/sessions/\(id)/actions", #"[1, 2]"#, 400, "invalid_field", "body must be a JSON object"),
            ("POST", "/v1/sessions/\(id)/actions", #"{"element": 7}"#, 400, "invalid_field", "element must be a string, got 7"),
            ("POST", "/v1/sessions/\(id)/actions", #"{"action": "tap", "target": "open-detail"}"#, 400, "invalid_field",
             "element must be a string (required), got nothing (the body's fields: action, target)"),
            ("POST", "/v1/sessions/\(id)/deeplinks", #"{"link": "app://detail"}"#, 400, "invalid_field",
             "url must be a string (required), got nothing (the body's fields: link)"),
            ("POST", "/v1/sessions/\(id)/actions", #"{"element": "open-detail", "valu": "x"}"#, 400, "unknown_field", "unknown field 'valu'"),
            ("POST", "/v1/sessions", #"{"app": ["tabs"]}"#, 400, "invalid_field", "app must be a string"),
            ("POST", "/v1/sessions", #"{"app": "chess"}"#, 422, "unknown_app", "app 'chess' is not enabled"),
            ("POST", "/v1/sessions", #"{"app": "tabs", "parameters": {"start_tab": "inbox"}}"#, 422, "invalid_parameter", "start_tab"),
            ("POST", "/v1/sessions", #"{"app": "tabs", "parameters": {"notifications": "yes"}}"#, 400, "invalid_field",
             #"parameters.notifications must be true or false, got "yes""#),
            ("POST", "/v1/sessions", #"{"app": "tabs", "parameters": {"start_tab": 2}}"#, 400, "invalid_field",
             "parameters.start_tab must be a string, one of dashboard, settings, got 2"),
            ("POST", "/v1/sessions/s-999/actions", #"{"element": "open-detail"}"#, 404, "unknown_session", "no session 's-999'"),
            ("POST", "/v1/sessions/\(id)/actions", #"{"element": "launch-rocket"}"#, 422, "unknown_element", "no element 'launch-rocket' on screen Master#1"),
            ("POST", "/v1/sessions/\(id)/actions", oversized, 413, "payload_too_large", "limit of 1024 bytes"),
            ("POST", "/v1/sessions/\(id)/actions", #"{"type": "wait", "ms": "soon"}"#, 400, "invalid_field", "ms must be an integer"),
            ("GET", "/v1/events?format=xml", nil, 400, "invalid_field", "format must be ndjson or sse"),
            ("GET", "/v1/events?max_rate=0", nil, 400, "invalid_field", "max_rate must be events a second, an integer from 1 to 1000000, got \"0\""),
            ("PATCH", "/v1/sessions/\(id)", "{}", 405, "method_not_allowed", "allowed: GET, DELETE"),
            ("GET", "/v2/anything", nil, 404, "not_found", "no endpoint /v2/anything"),
        ]
        for item in cases {
            let reply = try daemon.request(item.method, item.path, body: item.body)
            XCTAssertEqual(reply.status, item.status, "\(item.method) \(item.path): \(reply.body)")
            let error = try json(reply.body)
            XCTAssertEqual(error["error"]?.stringValue, item.error, reply.body)
            XCTAssertTrue(error["detail"]?.stringValue?.contains(item.detail) == true, "expected '\(item.detail)' in \(reply.body)")
            XCTAssertEqual(try daemon.request("GET", "/v1/health").status, 200)
        }
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions/\(id)/actions", body: #"{"element": "next-day"}"#).status, 200)
        XCTAssertEqual(daemon.terminate(), 0)
        let errors = try daemon.journalEvents().filter { $0["kind"]?.stringValue == "error" }
        XCTAssertEqual(errors.compactMap { $0["payload"]?["code"]?.stringValue }, ["unknown_element"])
    }

    func testTooManySessionsAreRefusedUntilOneEnds() throws {
        let daemon = try DaemonHarness(self, overrides: ["limits": ["max_sessions": 2]])
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs"}"#).status, 201)
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs"}"#).status, 201)
        let refused = try daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs"}"#)
        XCTAssertEqual(refused.status, 429)
        XCTAssertEqual(try json(refused.body)["error"]?.stringValue, "session_limit")
        XCTAssertEqual(try daemon.request("DELETE", "/v1/sessions/s-1").status, 200)
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs"}"#).status, 201)
    }

    func testAWaitHoldsUpNeitherItsSessionNorOthers() throws {
        let daemon = try DaemonHarness(self)
        let waiting = try XCTUnwrap(json(daemon.request("POST", "/v1/sessions", body: #"{"app": "master-detail"}"#).body)["id"]?.stringValue)
        let other = try XCTUnwrap(json(daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs"}"#).body)["id"]?.stringValue)
        let isWaitAnswered = Atomic<Bool>(false)
        let waitStatus = Atomic<Int>(0)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { [socketPath = daemon.socketPath] in
            let connection = try? DaemonClient(unixSocket: socketPath, timeoutSeconds: 20)
            let reply = try? connection?.send("POST", "/v1/sessions/\(waiting)/actions", body: Array(#"{"type": "wait", "ms": 3000}"#.utf8))
            waitStatus.store(reply?.status ?? -1, ordering: .sequentiallyConsistent)
            isWaitAnswered.store(true, ordering: .sequentiallyConsistent)
        }
        // While the wait sleeps, its own session and another one are answered at once.
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions/\(other)/actions", body: #"{"type": "select_tab", "tab": "Settings"}"#).status, 200)
        let acted = try daemon.request("POST", "/v1/sessions/\(waiting)/actions", body: #"{"element": "next-day"}"#)
        XCTAssertEqual(acted.status, 200, acted.body)
        XCTAssertEqual(try daemon.request("GET", "/v1/sessions/\(waiting)").status, 200)
        XCTAssertFalse(isWaitAnswered.load(ordering: .sequentiallyConsistent), "the 3 s wait answered before requests sent during it")
        XCTAssertEqual(group.wait(timeout: .now() + 20), .success)
        XCTAssertEqual(waitStatus.load(ordering: .sequentiallyConsistent), 200)
    }

    func testTheLongestWaitIsHalfTheRequestTimeout() throws {
        let daemon = try DaemonHarness(self, overrides: ["limits": ["request_timeout_s": 1]])
        try daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs"}"#)
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions/s-1/actions", body: #"{"type": "wait", "ms": 500}"#).status, 200)
        let refused = try daemon.request("POST", "/v1/sessions/s-1/actions", body: #"{"type": "wait", "ms": 501}"#)
        XCTAssertEqual(refused.status, 400)
        XCTAssertTrue(refused.body.contains("ms must be an integer from 0 to 500 (half of limits.request_timeout_s)"), refused.body)
    }

    func testTokenIsRequiredWhenConfigured() throws {
        let token = "correct-horse-battery-staple"
        let daemon = try DaemonHarness(self, overrides: ["auth": ["token": .string(token)]], token: token)
        let missing = try daemon.request("GET", "/v1/apps", overTCP: true)
        XCTAssertEqual(missing.status, 401)
        XCTAssertTrue(try json(missing.body)["detail"]?.stringValue?.contains("Authorization: Bearer") == true, missing.body)
        let wrong = try daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs"}"#, token: "correct-horse-battery-stapler", overTCP: true)
        XCTAssertEqual(wrong.status, 401)
        XCTAssertEqual(try json(wrong.body)["detail"]?.stringValue, "the bearer token is not the configured one")
        XCTAssertEqual(try daemon.request("GET", "/v1/health", overTCP: true).status, 200)
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs"}"#, token: token, overTCP: true).status, 201)
        XCTAssertEqual(try daemon.request("GET", "/metrics", token: token).status, 200)
    }

    func testSlowClientIsDisconnectedWhileOthersAreServed() throws {
        let daemon = try DaemonHarness(self, overrides: ["limits": ["request_timeout_s": 1]])
        let slow = try RawConnection(port: try XCTUnwrap(daemon.tcpPort))
        try slow.send("POST /v1/sessions HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{\"app\"")
        XCTAssertEqual(try daemon.request("GET", "/v1/health").status, 200)
        XCTAssertTrue(slow.readToEnd(within: 20).isClosed, "the daemon should close a connection that stalls past limits.request_timeout_s")
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs"}"#).status, 201)
    }

    func testMetricsNameEveryCounter() throws {
        let daemon = try DaemonHarness(self)
        try daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs"}"#)
        let metrics = try daemon.request("GET", "/metrics")
        XCTAssertEqual(metrics.status, 200)
        for name in ["navlog_journal_events_recorded_total", "navlog_journal_events_dropped_total", "navlog_journal_bytes_written_total",
                     "navlog_journal_compression_ratio", "navlog_sessions_active 1", "navlog_journal_queue_depth",
                     "navlog_http_requests_total{method=\"POST\",route=\"/v1/sessions\",status=\"201\"} 1",
                     "navlog_http_request_duration_seconds_bucket{le=\"+Inf\"}", "navlog_http_request_duration_seconds_count",
                     "navlog_http_requests_in_flight 1\n"] {
            XCTAssertTrue(metrics.body.contains(name), "missing \(name) in:\n\(metrics.body)")
        }
    }
}

/// `log.access`: a logfmt line per answered request, with no query string or token in it.
final class AccessLogTests: XCTestCase {
    func testAccessLogLinesNameEachRequestAndNoQuery() throws {
        let quiet = try DaemonHarness(self)
        XCTAssertEqual(try quiet.request("GET", "/v1/health").status, 200)
        XCTAssertEqual(quiet.terminate(), 0)
        XCTAssertFalse(quiet.log.contains("msg=request"), "off by default")

        let daemon = try DaemonHarness(self, overrides: ["log": ["access": true]])
        XCTAssertEqual(try daemon.request("GET", "/v1/health").status, 200)
        XCTAssertEqual(try daemon.request("GET", "/v1/sessions/s-9?secret=1").status, 404)
        XCTAssertEqual(daemon.terminate(), 0)
        // The last two: the harness asks for health itself while it waits for the daemon.
        let lines = Array(daemon.log.split(separator: "\n").filter { $0.contains("msg=request") }.suffix(2))
        XCTAssertEqual(lines.count, 2, daemon.log)
        XCTAssertTrue(lines[0].contains("method=GET path=/v1/health route=/v1/health status=200 ms="), String(lines[0]))
        XCTAssertTrue(lines[1].contains("method=GET path=/v1/sessions/s-9 route=/v1/sessions/{id} status=404 ms="), String(lines[1]))
        XCTAssertFalse(daemon.log.contains("secret"))
    }
}

final class NavlogAgainstDaemonTests: XCTestCase {
    func testNavlogListsTheDaemonsSessionsAndReadsItsJournal() throws {
        // Each request committed before it is answered, so the journal holds what a listing counts.
        let directory = makeTemporaryDirectory(self)
        let daemon = try DaemonHarness(self, overrides: ["journal": ["directory": .string(directory + "/journal"), "durability": "flush_per_request"]],
                                       token: nil, directory: directory)
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions", body: #"{"app":"tabs"}"#).status, 201)
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions", body: #"{"app":"master-detail"}"#).status, 201)
        XCTAssertEqual(try daemon.request("DELETE", "/v1/sessions/s-1").status, 200)

        let listed = try runTool(productPath("navlog"), ["sessions", "--socket", daemon.socketPath])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertEqual(try daemon.request("POST", "/v1/sessions/s-2/actions", body: #"{"element":"open-detail"}"#).status, 200)
        let listedAgain = try runTool(productPath("navlog"), ["sessions", "--socket", daemon.socketPath])
        let rows = listedAgain.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        XCTAssertEqual(rows.first, ["session", "app", "screen", "events", "started", "idle", "last", "action"], listedAgain.stdout)
        let row = try XCTUnwrap(rows.dropFirst().first)
        XCTAssertEqual(Array(row.prefix(3)), ["s-2", "master-detail", "Detail#1"], listedAgain.stdout)
        XCTAssertTrue(row.count == 8 && row[4].hasSuffix("Z") && row[5] == "0s" && row[6...] == ["action", "open-detail"], listedAgain.stdout)
        XCTAssertTrue(listedAgain.stdout.hasSuffix("1 live session(s) in run \(try XCTUnwrap(rows.last?.last))\n"))
        // The events listed are those the journal holds for s-2.
        let recorded = try runTool(productPath("navlog"), ["show", daemon.directory + "/journal", "--session", "s-2", "-o", "json"])
        XCTAssertEqual(recorded.stdout.split(separator: "\n").count, try XCTUnwrap(Int(row[3])), recorded.stderr)
        let port = try XCTUnwrap(daemon.tcpPort)
        let json = try runTool(productPath("navlog"), ["sessions", "--url", "http://127.0.0.1:\(port)", "-o", "json"])
        XCTAssertEqual(try JSONValue(parsing: json.stdout).arrayValue?.compactMap { $0["id"]?.stringValue }, ["s-2"])

        // Found without --socket: through NAVLOGD_SOCKET, through the daemon's configuration
        // (its socket, or its TCP address when it has none), and never by guessing.
        let elsewhere = URL(fileURLWithPath: makeTemporaryDirectory(self))
        let fromEnvironment = try runTool(productPath("navlog"), ["sessions", "-o", "json"], in: elsewhere, environment: ["NAVLOGD_SOCKET": daemon.socketPath])
        XCTAssertEqual(try JSONValue(parsing: fromEnvironment.stdout).arrayValue?.compactMap { $0["id"]?.stringValue }, ["s-2"], fromEnvironment.stderr)
        let socketConfig = elsewhere.appendingPathComponent("socket.json").path
        try #"{"listen": {"unix_socket": "\#(daemon.socketPath)", "tcp": null}}"#.write(toFile: socketConfig, atomically: true, encoding: .utf8)
        let tcpConfig = elsewhere.appendingPathComponent("tcp.json").path
        try #"{"listen": {"unix_socket": null, "tcp": {"host": "127.0.0.1", "port": \#(port)}}}"#.write(toFile: tcpConfig, atomically: true, encoding: .utf8)
        for config in [socketConfig, tcpConfig] {
            let fromConfig = try runTool(productPath("navlog"), ["sessions", "--config", config, "-o", "json"], in: elsewhere, environment: ["NAVLOGD_SOCKET": ""])
            XCTAssertEqual(try JSONValue(parsing: fromConfig.stdout).arrayValue?.compactMap { $0["id"]?.stringValue }, ["s-2"], config + ": " + fromConfig.stderr)
        }
        let nowhere = try runTool(productPath("navlog"), ["sessions"], in: elsewhere, environment: ["NAVLOGD_SOCKET": ""])
        if !FileManager.default.fileExists(atPath: "/run/navlogd/navlogd.sock") {
            XCTAssertEqual(nowhere.status, 2)
            XCTAssertEqual(nowhere.stderr, "navlog sessions: cannot find navlogd: no socket at ./navlogd.sock or /run/navlogd/navlogd.sock; give --socket, --url, --config or NAVLOGD_SOCKET\n")
        }

        XCTAssertEqual(daemon.terminate(), 0)
        let shown = try runTool(productPath("navlog"), ["show", daemon.directory + "/journal", "--kind", "session.end", "-o", "json"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertEqual(shown.stdout.split(separator: "\n").count, 2)

        let unreachable = try runTool(productPath("navlog"), ["sessions", "--socket", daemon.directory + "/gone.sock"])
        XCTAssertEqual(unreachable.status, 2)
        XCTAssertEqual(unreachable.stderr, "navlog sessions: cannot reach navlogd at unix socket '\(daemon.directory)/gone.sock': no such socket\n")
        let closed = try runTool(productPath("navlog"), ["sessions", "--url", "http://127.0.0.1:\(port)"])
        XCTAssertEqual(closed.status, 2)
        XCTAssertTrue(closed.stderr.hasPrefix("navlog sessions: cannot reach navlogd at http://127.0.0.1:\(port): Failed to connect to 127.0.0.1 port \(port)"), closed.stderr)
    }
}
