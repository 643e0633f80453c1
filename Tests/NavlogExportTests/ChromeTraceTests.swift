import Foundation
import NavlogEvents
import NavlogExport
import XCTest

/// `navlog export --format chrome-trace`: valid Trace Event Format JSON with balanced frames.
final class ChromeTraceTests: XCTestCase {
    /// Checks that on every thread each `E` closes the innermost open `B` of the same name, at a
    /// time not before it, and that nothing stays open; returns the `B` events.
    private func checkBalanced(_ events: [JSONValue], file: StaticString = #filePath, line: UInt = #line) -> [JSONValue] {
        var open: [String: [JSONValue]] = [:]
        var begins: [JSONValue] = []
        for event in events {
            let thread = "\(event["pid"]?.intValue ?? -1)/\(event["tid"]?.intValue ?? -1)"
            switch event["ph"]?.stringValue {
            case "B":
                if let top = open[thread]?.last {
                    XCTAssertGreaterThanOrEqual(event["ts"]?.doubleValue ?? -1, top["ts"]?.doubleValue ?? 0, "B before its enclosing B", file: file, line: line)
                }
                open[thread, default: []].append(event)
                begins.append(event)
            case "E":
                guard let top = open[thread]?.popLast() else {
                    XCTFail("E without B on \(thread): \(event)", file: file, line: line)
                    continue
                }
                XCTAssertEqual(top["name"], event["name"], file: file, line: line)
                XCTAssertGreaterThanOrEqual(event["ts"]?.doubleValue ?? -1, top["ts"]?.doubleValue ?? 0, file: file, line: line)
            case "i", "M":
                break
            default:
                XCTFail("unexpected phase in \(event)", file: file, line: line)
            }
        }
        XCTAssertTrue(open.values.allSatisfy(\.isEmpty), "frames left open: \(open)", file: file, line: line)
        return begins
    }

    func testSeedJournalsGiveBalancedFramesForEveryCoordinator() throws {
        let journal = ExportTestSupport.seedJournal
        let text = try ExportTestSupport.export(["export", journal, "--format", "chrome-trace"])
        // Plain JSON, as chrome://tracing, Perfetto and speedscope read it.
        let document = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        XCTAssertNotNil(document?["traceEvents"] as? [Any])
        let events = try XCTUnwrap(try JSONValue(parsing: text)["traceEvents"]?.arrayValue)
        let begins = checkBalanced(events)

        let recorded = try ExportTestSupport.events(in: journal)
        XCTAssertEqual(begins.count, recorded.filter { $0.kind == .coordinatorStart }.count)
        XCTAssertEqual(events.filter { $0["ph"] == "i" }.count, recorded.filter { [.action, .deepLink, .error].contains($0.kind) }.count)
        // The seed apps release every coordinator: nothing is marked leaked.
        XCTAssertFalse(begins.contains { $0["args"]?["leaked"] != nil })
        // One process per session.
        let sessions = Set(recorded.map { "\($0.run)/\($0.session)" })
        XCTAssertEqual(Set(events.compactMap { $0["pid"]?.intValue }).count, sessions.count)
    }

    func testALeakedFrameIsClosedAtTheEndAndMarked() throws {
        let recorded = try LeakFixture.events()
        let journal = try ExportTestSupport.writeJournal(recorded, test: self)
        let text = try ExportTestSupport.export(["export", journal, "--format", "chrome-trace"])
        let events = try XCTUnwrap(try JSONValue(parsing: text)["traceEvents"]?.arrayValue)
        let begins = checkBalanced(events)
        XCTAssertEqual(begins.compactMap { $0["name"]?.stringValue }.sorted(), ["CleanCoordinator", "LeakyCoordinator (leaked)", "RootCoordinator"])

        let leaked = try XCTUnwrap(begins.first { $0["name"] == "LeakyCoordinator (leaked)" })
        XCTAssertEqual(leaked["args"]?["leaked"], true)
        XCTAssertEqual(leaked["args"]?["instance"], "LeakyCoordinator#1")
        let end = try XCTUnwrap(events.first { $0["ph"] == "E" && $0["name"] == "LeakyCoordinator (leaked)" })
        // Closed at the session's last event, session.end. (A double holds microseconds since
        // the epoch to a quarter of a microsecond.)
        let last = try XCTUnwrap(ExportTestSupport.events(in: journal).last)
        XCTAssertEqual(last.kind, .sessionEnd)
        XCTAssertEqual(end["ts"]?.doubleValue ?? 0, Double(last.wallNanoseconds) / 1000, accuracy: 0.5)
        // The root is deallocated before the leak is closed, so the leak gets its own thread.
        XCTAssertNotEqual(leaked["tid"], begins.first { $0["name"] == "RootCoordinator" }?["tid"])
    }

    func testTheEncoderKeepsNoStateForEndedSessions() throws {
        var encoder = ChromeTraceEncoder()
        var output: [JSONValue] = []
        for index in 1...50 {
            for event in try LeakFixture.events(session: "s-\(index)") { output += encoder.consume(event) }
            XCTAssertEqual(encoder.openSessionCount, 0)
        }
        XCTAssertEqual(output.filter { $0["ph"] == "B" }.count, 150)
        XCTAssertEqual(encoder.finish(), [])
    }
}
