import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

/// The live stream numbers its events like the journal: each carries its seq and cursor, SSE
/// sends the cursor as `id:`, and `Last-Event-ID` resumes right after it.
final class EventStreamTests: XCTestCase {
    func testLiveEventsAreTheJournalsAndResumeAfterLastEventID() throws {
        let daemon = try DaemonHarness(self)
        try daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs"}"#)
        try daemon.request("POST", "/v1/sessions", body: #"{"app": "master-detail"}"#)
        let first = try EventStream(daemon, "/v1/events?format=sse", subscribers: 1)
        try daemon.request("POST", "/v1/sessions/s-1/actions", body: #"{"type": "select_tab", "tab": "Settings"}"#)
        try daemon.request("POST", "/v1/sessions/s-2/actions", body: #"{"element": "open-detail"}"#)
        try daemon.request("POST", "/v1/sessions/s-1/actions", body: #"{"type": "select_tab", "tab": "Dashboard"}"#)
        let seen = try first.read { $0.filter { $0.event["kind"]?.stringValue == "action" }.count == 3 }
        first.stop()
        // The client was cut off after the second action; it reconnects with that event's id.
        let secondAction = try XCTUnwrap(seen.filter { $0.event["kind"]?.stringValue == "action" }.dropFirst().first)
        let resumeID = try XCTUnwrap(secondAction.id)
        try daemon.request("POST", "/v1/sessions/s-2/actions", body: #"{"type": "back"}"#)
        let resumed = try EventStream(daemon, "/v1/events?format=sse&after=nl1-1", headers: ["Last-Event-ID": resumeID], subscribers: 1)
        try daemon.request("POST", "/v1/sessions/s-1/actions", body: #"{"type": "select_tab", "tab": "Settings"}"#)
        try resumed.read { $0.filter { $0.event["kind"]?.stringValue == "action" }.count == 3 }
        XCTAssertEqual(daemon.terminate(), 0)
        let afterResume = try resumed.finish()
        let journal = try daemon.journalEvents()

        for (name, entries) in [("first", seen), ("resumed", afterResume)] {
            // Each event is the journal's, member for member, with its cursor as its SSE id.
            for entry in entries {
                let seq = try XCTUnwrap(entry.event["seq"]?.intValue, "\(name): \(entry.event)")
                XCTAssertEqual(entry.id, entry.event["cursor"]?.stringValue, name)
                XCTAssertEqual(entry.event, journal.first { $0["seq"]?.intValue == seq }, "\(name): seq \(seq)")
            }
            // Seqs follow each other without a gap, as in the journal.
            let seqs = entries.compactMap { $0.event["seq"]?.intValue }
            XCTAssertEqual(seqs, Array(try XCTUnwrap(seqs.first)...(try XCTUnwrap(seqs.last))), name)
        }
        // The header won over `after`: the resumed stream starts right after the second action.
        XCTAssertEqual(afterResume.first?.event["seq"]?.intValue, (secondAction.event["seq"]?.intValue ?? 0) + 1)
        XCTAssertEqual(afterResume.filter { $0.event["kind"]?.stringValue == "action" }.map { $0.event["session"]?.stringValue },
                       ["s-1", "s-2", "s-1"])
    }

    func testEventsRecordedOnManyThreadsStreamInSeqOrder() throws {
        let daemon = try DaemonHarness(self)
        for _ in 1...4 { try daemon.request("POST", "/v1/sessions", body: #"{"app": "tabs"}"#) }
        let stream = try EventStream(daemon, "/v1/events", subscribers: 1)
        let socketPath = daemon.socketPath
        DispatchQueue.concurrentPerform(iterations: 4) { session in
            for step in 0..<20 {
                let tab = ["Settings", "Dashboard"][step % 2]
                _ = try? runTool("/usr/bin/curl", ["-s", "--unix-socket", socketPath, "-d", #"{"type": "select_tab", "tab": "\#(tab)"}"#,
                                                   "http://localhost/v1/sessions/s-\(session + 1)/actions"])
            }
        }
        XCTAssertEqual(daemon.terminate(), 0)
        let streamed = try stream.finish().map(\.event)
        let journal = try daemon.journalEvents()
        XCTAssertEqual(streamed.filter { $0["kind"]?.stringValue == "action" }.count, 80)
        let first = try XCTUnwrap(streamed.first?["seq"]?.intValue), last = try XCTUnwrap(streamed.last?["seq"]?.intValue)
        XCTAssertEqual(streamed, journal.filter { ($0["seq"]?.intValue ?? 0) >= first && ($0["seq"]?.intValue ?? 0) <= last })
    }

    func testAnUnreadableLastEventIDIsRefusedByName() throws {
        let daemon = try DaemonHarness(self)
        let output = try runTool("/usr/bin/curl", ["-s", "--max-time", "10", "-w", "\n%{http_code}", "--unix-socket", daemon.socketPath,
                                                   "-H", "Last-Event-ID: 42", "http://localhost/v1/events?format=sse"])
        XCTAssertTrue(output.stdout.hasSuffix("\n400"), output.stdout)
        XCTAssertTrue(output.stdout.contains(#"Last-Event-ID must be a journal cursor (nl1-…), the id of an event this stream sent, got \"42\""#), output.stdout)
        XCTAssertEqual(try daemon.request("GET", "/v1/health").status, 200)
        XCTAssertEqual(daemon.terminate(), 0)
    }
}
