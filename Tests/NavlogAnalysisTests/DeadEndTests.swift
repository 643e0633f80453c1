@testable import NavlogAnalysis
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
}
