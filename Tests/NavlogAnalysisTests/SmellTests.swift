@testable import NavlogAnalysis
import XCTest

final class SmellTests: XCTestCase {
    func testDoublePushWithinTheInterval() throws {
        var script = SessionScript()
        script.launch()
        let first = script.action("detail", on: "Home#1")
        script.push("Detail#1", cause: first)  // t = 0
        script.pop("Detail#1", to: "Home#1", by: "user_back")
        script.wait(500)
        let second = script.action("detail", on: "Home#1")
        script.push("Detail#2", cause: second)  // t = 500 ms: 500 ms after Detail#1
        script.pop("Detail#2", to: "Home#1", by: "user_back")
        script.wait(1500)
        let third = script.action("detail", on: "Home#1")
        script.push("Detail#3", cause: third)  // t = 2000 ms: 1500 ms after Detail#2
        script.end()

        let report = makeReport([script])
        let smell = try XCTUnwrap(report.smells.doublePushes.first)
        XCTAssertEqual(report.smells.doublePushes.count, 1)
        XCTAssertEqual(smell.screen, "Detail")
        XCTAssertEqual(smell.count, 1)
        XCTAssertEqual(smell.minimumIntervalMilliseconds, 500)
        // With a 2 s interval the third push counts too.
        let wide = makeReport([script], options: ReportOptions(doublePushInterval: 2_000_000_000))
        XCTAssertEqual(wide.smells.doublePushes.first?.count, 2)
    }

    func testOneScreenPushedIntoAModalStackThenPresentedIsNoDoublePush() {
        var script = SessionScript()
        script.launch()
        let tap = script.action("detail", on: "Home#1")
        script.push("Detail#1", on: "ModalStack#1", cause: tap)
        script.present("ModalStack#1", showing: "Detail#1", cause: tap)
        script.end()
        XCTAssertEqual(makeReport([script]).smells.doublePushes.count, 0)
    }

    func testPingPongNeedsEnoughRoundTrips() {
        // s-1: Home A B A B A — A⇄B for 2 round trips; s-2: Home A B A — only 1.
        let sessions = [PathTests.session("s-1", ["A", "B", "A", "B", "A"]), PathTests.session("s-2", ["A", "B", "A"])]
        let report = makeReport(sessions)
        XCTAssertEqual(report.smells.pingPongs, [.init(screens: ["A", "B"], sessions: 1, maximumRoundTrips: 2)])
        let lenient = makeReport(sessions, options: ReportOptions(pingPongRoundTrips: 1))
        XCTAssertEqual(lenient.smells.pingPongs, [.init(screens: ["A", "B"], sessions: 2, maximumRoundTrips: 2)])
    }

    func testAlternationsAreMaximalRuns() {
        let runs = PathAnalysis.alternations(in: ["H", "A", "B", "A", "B", "A", "C", "A", "C"])
        // A B A B A (2 round trips), then A C A C (1).
        XCTAssertEqual(runs.map { "\($0.pair.joined(separator: "⇄")):\($0.roundTrips)" }, ["A⇄B:2", "A⇄C:1"])
        XCTAssertTrue(PathAnalysis.alternations(in: ["A", "B"]).isEmpty)
    }
}
