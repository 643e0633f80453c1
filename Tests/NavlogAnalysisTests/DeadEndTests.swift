@testable import NavlogAnalysis
import NavlogJournal
import XCTest

final class DeadEndTests: XCTestCase {
    /// s-1 ends on Home (its first screen), s-2 on Detail, s-3 on Done, s-4 on Detail.
    private func sessions() -> [SessionScript] {
        var home = SessionScript("s-1")
        home.launch()
        home.end()
        return [
            home, PathTests.session("s-2", ["Detail"]), PathTests.session("s-3", ["Cart", "Done"]), PathTests.session("s-4", ["List", "Detail"]),
        ]
    }

    func testSessionsEndingOffTheExpectedScreensAreDeadEnds() {
        let report = makeReport(sessions(), options: ReportOptions(expectedEndings: ["Done"]))
        // Home is s-1's first screen and Done is listed: only the two Detail endings count.
        XCTAssertEqual(report.deadEnds.map(\.screen), ["Detail"])
        XCTAssertEqual(report.deadEnds.first?.sessions, 2)
        XCTAssertEqual(report.deadEnds.first?.examples, ["s-2", "s-4"])
    }

    func testTheFirstScreenCanBeExcludedFromExpectedEndings() {
        let options = ReportOptions(expectedEndings: [], firstScreenIsExpectedEnding: false)
        let report = makeReport(sessions(), options: options)
        // Nothing is expected now: Detail 2, then Done 1 and Home 1 by name.
        XCTAssertEqual(report.deadEnds.map { "\($0.screen):\($0.sessions)" }, ["Detail:2", "Done:1", "Home:1"])
        XCTAssertEqual(report.screens.first { $0.screen == "Detail" }?.exits, 2)
    }

    /// Two runs, each with an `s-2` that ends on Detail, and r-2's `s-4` too.
    private func twoRuns() -> [SessionScript] {
        var first = PathTests.session("s-2", ["Detail"])
        var second = PathTests.session("s-2", ["Detail"])
        var other = PathTests.session("s-4", ["List", "Detail"])
        first.setRun("r-1")
        second.setRun("r-2")
        other.setRun("r-2")
        return [first, second, other]
    }

    func testAReportOverSeveralRunsNamesSessionsWithTheirRun() {
        let report = makeReport(twoRuns())
        XCTAssertEqual(report.summary.runs, ["r-1", "r-2"])
        XCTAssertEqual(report.deadEnds.first?.examples, ["r-1/s-2", "r-2/s-2", "r-2/s-4"])
        XCTAssertEqual(report.lifecycles.trees.map(\.session), ["r-1/s-2", "r-2/s-2", "r-2/s-4"])
        let text = report.rendered(as: .text, width: 100)
        XCTAssertTrue(text.contains("r-1/s-2 r-2/s-2 r-2/s-4"), text)
    }

    func testAReportOverOneRunNamesSessionsAlone() {
        let report = makeReport(Array(twoRuns().dropFirst()))
        XCTAssertEqual(report.deadEnds.first?.examples, ["s-2", "s-4"])
        XCTAssertEqual(report.lifecycles.trees.map(\.session), ["s-2", "s-4"])
    }

    func testRunAndSessionFiltersPickSessionsOfOneRun() {
        let byRun = makeReport(twoRuns(), options: ReportOptions(runs: ["r-2"]))
        XCTAssertEqual(byRun.deadEnds.first?.examples, ["s-2", "s-4"])
        let exact = makeReport(twoRuns(), options: ReportOptions(runSessions: [SessionIdentity(run: "r-2", session: "s-2")]))
        XCTAssertEqual(exact.summary.sessions, 1)
        XCTAssertEqual(exact.summary.runs, ["r-2"])
        let byName = makeReport(twoRuns(), options: ReportOptions(sessions: ["s-2"]))
        XCTAssertEqual(byName.deadEnds.first?.examples, ["r-1/s-2", "r-2/s-2"])
    }
}
