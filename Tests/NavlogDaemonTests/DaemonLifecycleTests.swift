import Foundation
import NavlogDaemon
import NavlogEvents
import Synchronization
import XCTest

/// Signals, shutdown under load, reloads and the events stream of a running `navlogd`.
final class DaemonLifecycleTests: XCTestCase {
    func testSIGTERMUnderLoadKeepsEveryAcknowledgedAction() throws {
        let daemon = try DaemonHarness(self)
        let clientCount = 6
        let acknowledged = Mutex<[String: Int]>([:])
        let warmedUp = Atomic<Int>(0)
        let started = NSCondition()
        let group = DispatchGroup()
        for _ in 0..<clientCount {
            // A thread each: the clients block on their sockets until the daemon goes away,
            // and blocking work items on the global queue held its few threads (as many as
            // cores), so the others started only when the pool grew, seconds later or never.
            group.enter()
            Thread.detachNewThread { [socketPath = daemon.socketPath] in
                defer { group.leave() }
                guard let connection = try? DaemonClient(unixSocket: socketPath, timeoutSeconds: 20),
                      let created = try? connection.send("POST", "/v1/sessions", body: Array(#"{"app": "master-detail"}"#.utf8)),
                      created.status == 201, let id = (try? JSONValue(parsing: Data(created.body)))?["id"]?.stringValue
                else { return }
                var step = 0
                while true {
                    let element = step % 2 == 0 ? "next-day" : "previous-day"
                    guard let reply = try? connection.send("POST", "/v1/sessions/\(id)/actions", body: Array("{\"element\": \"\(element)\"}".utf8)),
                          reply.status == 200 else { return }
                    step += 1
                    acknowledged.withLock { $0[id, default: 0] += 1 }
                    if step == 20, warmedUp.add(1, ordering: .relaxed).newValue == clientCount {
                        // Under the lock: the test thread checks the count and waits under it,
                        // so the wake-up cannot fall between its check and its wait.
                        started.lock()
                        started.broadcast()
                        started.unlock()
                    }
                }
            }
        }
        started.lock()
        while warmedUp.load(ordering: .relaxed) < clientCount {
            guard started.wait(until: Date().addingTimeInterval(20)) else { return XCTFail("the clients never all got going:\n\(daemon.log)") }
        }
        started.unlock()
        XCTAssertEqual(daemon.terminate(), 0, daemon.log)
        XCTAssertEqual(group.wait(timeout: .now() + 20), .success)

        let events = try daemon.journalEvents()
        var journaled: [String: Int] = [:]
        var endReasons: [String: String] = [:]
        for event in events {
            guard let session = event["session"]?.stringValue else { continue }
            if event["kind"]?.stringValue == "action" { journaled[session, default: 0] += 1 }
            if event["kind"]?.stringValue == "session.end" { endReasons[session] = event["payload"]?["reason"]?.stringValue }
        }
        let acks = acknowledged.withLock { $0 }
        XCTAssertEqual(acks.count, clientCount)
        for (session, count) in acks {
            XCTAssertGreaterThanOrEqual(journaled[session] ?? 0, count, "session \(session): \(count) acknowledged, \(journaled[session] ?? 0) journaled")
            XCTAssertEqual(endReasons[session], "shutdown")
        }
        XCTAssertTrue(daemon.log.contains("msg=stopped"), daemon.log)
    }

    func testDrainAnswersNewRequests503AndThoseStillRunningAtTheBound() throws {
        let daemon = try DaemonHarness(self, overrides: ["limits": ["drain_timeout_s": 2, "request_timeout_s": 30]])
        try daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs"}"#)
        let port = try XCTUnwrap(daemon.tcpPort)
        func startWait(milliseconds: Int) throws -> RawConnection {
            let connection = try RawConnection(port: port)
            let body = "{\"type\": \"wait\", \"ms\": \(milliseconds)}"
            try connection.send("POST /v1/sessions/s-1/actions HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            return connection
        }
        // One wait ends within the drain bound, the other outlasts it.
        let short = try startWait(milliseconds: 1000)
        let long = try startWait(milliseconds: 10_000)
        var attempts = 0
        // Both are in flight when /metrics counts them and itself.
        while try !daemon.request("GET", "/metrics").body.contains("navlog_http_requests_in_flight 3\n"), attempts < 1000 {
            attempts += 1
        }
        XCTAssertLessThan(attempts, 1000, "the waits never were in flight together")
        let signalled = Date()
        kill(daemon.process.processIdentifier, SIGTERM)

        var health = try daemon.request("GET", "/v1/health")
        attempts = 0
        while health.status == 200, attempts < 1000 {
            health = try daemon.request("GET", "/v1/health")
            attempts += 1
        }
        XCTAssertEqual(health.status, 503)
        XCTAssertEqual(try json(health.body)["status"]?.stringValue, "draining", health.body)
        XCTAssertEqual(try daemon.request("GET", "/metrics").status, 200, "metrics are served while draining")

        // A new connection is answered, not reset, and told to go elsewhere.
        let fresh = try RawConnection(port: port)
        try fresh.send("POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 15\r\n\r\n{\"app\": \"tabs\"}")
        let refused = try RawResponse(fresh.readResponse())
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(try json(refused.body)["error"]?.stringValue, "shutting_down", refused.body)
        XCTAssertEqual(refused.header("connection"), "close")
        XCTAssertEqual(refused.header("retry-after"), "1")

        let shortAnswer = try RawResponse(short.readResponse(within: 20))
        XCTAssertEqual(shortAnswer.status, 200, "a request admitted before the drain finishes: \(shortAnswer.body)")
        let longAnswer = try RawResponse(long.readResponse(within: 20))
        XCTAssertEqual(longAnswer.status, 503, "still running at the bound: \(longAnswer.body)")
        XCTAssertEqual(try json(longAnswer.body)["error"]?.stringValue, "shutting_down", longAnswer.body)
        XCTAssertEqual(daemon.waitForExit(), 0, daemon.log)
        let stoppedAfter = Date().timeIntervalSince(signalled)
        XCTAssertGreaterThanOrEqual(stoppedAfter, 1.9, "the drain bound is 2 s")
        XCTAssertLessThan(stoppedAfter, 8, "the long wait was cancelled, not awaited")
        XCTAssertTrue(daemon.log.contains("msg=\"drain bound reached; answering the rest with 503\" requests=1"), daemon.log)
        FileHandle.standardError.write(Data(("fault: SIGTERM drain (drain_timeout_s 2): health draining, a new connection 503 shutting_down "
            + "with Connection: close, the 1 s wait 200, the 10 s wait 503 at the bound, stopped \(String(format: "%.1f", stoppedAfter)) s "
            + "after the signal\n").utf8))
    }

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
