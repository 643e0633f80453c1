import Foundation
import NavlogDaemon
import NavlogEvents
import NavlogTestSupport
import Synchronization
import XCTest

/// SIGTERM to a running `navlogd` under load: every acknowledged action is journaled, and the
/// drain answers as documented (docs/DAEMON.md#draining).
final class DaemonShutdownTests: XCTestCase {
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
}
