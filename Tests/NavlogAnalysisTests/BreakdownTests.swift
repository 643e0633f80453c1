@testable import NavlogAnalysis
import XCTest

final class BreakdownTests: XCTestCase {
    /// r-1 (version 1.0): s-1 Home→Detail, s-2 Home→Detail; r-2 (version 2.0): s-3 Home→Search,
    /// of app `other`, starting one second later.
    private func sessions() -> [SessionScript] {
        var third = SessionScript("s-3", run: "r-2", app: "other", startingAt: 1000)
        third.launch()
        let tap = third.action("search", on: "Home#1")
        third.push("Search#1", cause: tap)
        third.end()
        return [retagged(PathTests.session("s-1", ["Detail"]), run: "r-1"), retagged(PathTests.session("s-2", ["Detail"]), run: "r-1"), third]
    }

    private func retagged(_ script: SessionScript, run: String) -> SessionScript {
        var copy = script
        copy.setRun(run)
        return copy
    }

    private let runs = ["r-1": ["version": "1.0"], "r-2": ["version": "2.0"]]

    func testBreakdownByRunLabelAndByApp() throws {
        let report = makeReport(sessions(), options: ReportOptions(breakdownLabels: ["version", "app", "host"]), runs: runs)
        XCTAssertEqual(report.breakdown.map(\.label), ["version", "app", "host"])
        let version = report.breakdown[0].values
        XCTAssertEqual(version.map(\.value), ["1.0", "2.0"])
        XCTAssertEqual(version.map(\.sessions), [2, 1])
        XCTAssertEqual(version.map { $0.transitions.map { "\($0.from)>\($0.to):\($0.count)" } }, [["Home>Detail:2"], ["Home>Search:1"]])
        // Both 1.0 sessions end on Detail and the 2.0 one on Search: all dead ends.
        XCTAssertEqual(version.map(\.deadEndSessions), [2, 1])
        // Their Detail visits are cut off by session.end (censored): Home has the dwell samples.
        XCTAssertEqual(version[0].dwell.map { "\($0.screen):\($0.summary.count)+\($0.censored)" }, ["Home:2+0", "Detail:0+2"])
        // `app` is not a run label: it comes from session.start.
        XCTAssertEqual(report.breakdown[1].values.map { "\($0.value):\($0.sessions)" }, ["demo:2", "other:1"])
        // Nobody has a `host` label.
        XCTAssertEqual(report.breakdown[2].values.map { "\($0.value):\($0.sessions)" }, ["(none):3"])
    }

    func testFilters() {
        let all = sessions()
        XCTAssertEqual(makeReport(all, options: ReportOptions(labelFilter: ["version": "2.0"]), runs: runs).summary.sessions, 1)
        XCTAssertEqual(makeReport(all, options: ReportOptions(labelFilter: ["version": "3.0"]), runs: runs).summary.sessions, 0)
        XCTAssertEqual(makeReport(all, options: ReportOptions(apps: ["demo"])).summary.sessions, 2)
        XCTAssertEqual(makeReport(all, options: ReportOptions(sessions: ["s-2", "s-3"])).summary.sessions, 2)
        // s-3 starts 1 s after the others.
        let base: Int64 = 1_796_083_200_000_000_000
        XCTAssertEqual(makeReport(all, options: ReportOptions(since: base + 500_000_000)).transitions.map(\.to), ["Search"])
        XCTAssertEqual(makeReport(all, options: ReportOptions(until: base + 500_000_000)).summary.sessions, 2)
        // Filtered sessions contribute no events either.
        let filtered = makeReport(all, options: ReportOptions(sessions: ["s-3"]))
        XCTAssertEqual(filtered.summary.events, all[2].events.count)
        XCTAssertEqual(filtered.summary.runs, ["r-2"])
    }
}
