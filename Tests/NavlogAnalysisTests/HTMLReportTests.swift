import XCTest
@testable import NavlogAnalysis

/// The HTML report's own parts: human units, the layered flow graph's columns, pairs and
/// thresholds, the header, and each funnel shown once.
final class HTMLReportTests: XCTestCase {
    private func sessions(_ count: Int, _ screens: [String], from first: Int = 1) -> [SessionScript] {
        (first..<(first + count)).map { PathTests.session("s-\($0)", screens) }
    }

    func testCountsAndDurationsInHumanUnits() {
        XCTAssertEqual(HumanFormat.count(0), "0")
        XCTAssertEqual(HumanFormat.count(999), "999")
        XCTAssertEqual(HumanFormat.count(17_418), "17,418")
        XCTAssertEqual(HumanFormat.count(1_234_567), "1,234,567")
        XCTAssertEqual(HumanFormat.duration(milliseconds: nil), "–")
        XCTAssertEqual(HumanFormat.duration(milliseconds: 2.54), "2.5 ms")
        XCTAssertEqual(HumanFormat.duration(milliseconds: 850.4), "850 ms")
        XCTAssertEqual(HumanFormat.duration(milliseconds: 1_662.1), "1.7 s")
        XCTAssertEqual(HumanFormat.duration(milliseconds: 23_541.5), "23.5 s")
        XCTAssertEqual(HumanFormat.duration(milliseconds: 192_000), "3.2 min")
        XCTAssertEqual(HumanFormat.duration(milliseconds: 8_280_000), "2.3 h")
        XCTAssertEqual(HumanFormat.durationRange(low: 1_290.2, high: 2_297.5), "1.3–2.3 s")
        // Sentences from the shared sections, as HTML shows them; names keep their digits.
        XCTAssertEqual(HTMLRenderer.humanized("83 in 20 sessions, shortest 1630.76 ms"), "83 in 20 sessions, shortest 1.6 s")
        XCTAssertEqual(HTMLRenderer.humanized("leaks: 12345"), "leaks: 12,345")
        XCTAssertEqual(HTMLRenderer.humanized("r-mx6eoi9q/s-1234 Item#10000 v1.12345"), "r-mx6eoi9q/s-1234 Item#10000 v1.12345")
    }

    /// Names are shown as they are: a label value `2024` or a session `20241231` is not a count
    /// to group (`2,024`), though the figures beside them are.
    func testNamesKeepTheirDigitsWhileFiguresGetHumanUnits() {
        var scripts = (1...1200).map { PathTests.session("\(20_241_000 + $0)", ["List", "Detail"]) }
        for index in scripts.indices { scripts[index].setRun("r-2024") }
        var options = ReportOptions()
        options.breakdownLabels = ["release"]
        let html = HTMLRenderer.render(makeReport(scripts, options: options, runs: ["r-2024": ["release": "2024"]]))
        let cells = Self.cells(of: html)
        XCTAssertTrue(cells.contains("2024"), "the label value, in its breakdown row")
        XCTAssertFalse(cells.contains("2,024"), "\(cells.filter { $0.contains("2,0") })")
        XCTAssertTrue(cells.contains { $0.hasPrefix("20241001 20241002 20241003 ") }, "dead-end examples are session names: \(cells.filter { $0.contains("2024") }.prefix(5))")
        XCTAssertTrue(cells.contains("1,200"), "the session count beside it is a figure")
    }

    /// The text of every table cell of `html`.
    private static func cells(of html: String) -> [String] {
        html.components(separatedBy: "<td").dropFirst().compactMap { cell in
            guard let start = cell.firstIndex(of: ">"), let end = cell.range(of: "</td>") else { return nil }
            return String(cell[cell.index(after: start)..<end.lowerBound])
        }
    }

    func testColumnsFollowTheMostLikelyPathNotTheShortest() {
        // Detail is one step from Home in one session of ten, two steps (via List) in nine.
        let report = makeReport(sessions(9, ["List", "Detail"]) + sessions(1, ["Detail"], from: 10))
        let graph = SVGFlowGraph(report: report)
        XCTAssertEqual(graph.nodes["Home"]?.column, 0)
        XCTAssertEqual(graph.nodes["List"]?.column, 1)
        XCTAssertEqual(graph.nodes["Detail"]?.column, 2)
    }

    func testOnePairPerTwoScreensCarriesBothDirections() {
        let graph = SVGFlowGraph(report: makeReport([PathTests.session("s-1", ["List", "Detail", "List"])]))
        let pair = try? XCTUnwrap(graph.pairs.first { Set([$0.first, $0.second]) == ["List", "Detail"] })
        XCTAssertEqual(graph.pairs.count, 2, "Home–List and List–Detail")
        XCTAssertEqual(pair?.first, "List", "the left screen comes first")
        XCTAssertEqual(pair?.forward?.count, 1)
        XCTAssertEqual(pair?.backward?.count, 1)
        let svg = graph.render()
        XCTAssertTrue(svg.contains("→ 1 · 100%"), svg)
        XCTAssertTrue(svg.contains("← 1 · 100%"), svg)
    }

    func testMinorPairsAreLeftOutAndCounted() {
        // 60 transitions Home→List→Detail, and one Home→Detail: 1.6% of all, under 2%.
        let graph = SVGFlowGraph(report: makeReport(sessions(30, ["List", "Detail"]) + sessions(1, ["Detail"], from: 31)))
        XCTAssertEqual(graph.pairs.count, 2)
        XCTAssertEqual(graph.hiddenPairs, 1)
        XCTAssertEqual(graph.hiddenTransitions, 1)
        // A screen whose only pair is minor keeps it.
        let lonely = SVGFlowGraph(report: makeReport(sessions(60, ["List"]) + sessions(1, ["Detail"], from: 61)))
        XCTAssertEqual(lonely.hiddenPairs, 0)
    }

    func testDeadEndsAreRedOnlyWhereManyVisitsEndTheSession() {
        // List is left 50 times and ends one session (2% of visits); Settings ends both of its visits.
        let long = PathTests.session("s-1", Array(repeating: ["List", "Detail"], count: 50).flatMap { $0 } + ["List"])
        let graph = SVGFlowGraph(report: makeReport([long] + sessions(2, ["Settings"], from: 2)))
        XCTAssertEqual(graph.nodes["List"]?.deadEndSessions, 1)
        XCTAssertEqual(graph.nodes["List"]?.isDeadEnd, false)
        XCTAssertEqual(graph.nodes["Settings"]?.isDeadEnd, true)
    }

    func testHeaderNamesVersionJournalsAndFiltersAndEachFunnelAppearsOnce() {
        let options = ReportOptions(funnels: [Funnel(name: "detail", steps: ["Home", "Detail"])])
        let report = makeReport(sessions(3, ["Detail"]), options: options)
        let header = HTMLReportHeader(version: "9.9.9", journals: ["/var/journal"], filters: ["--app shop"])
        let html = HTMLRenderer.render(report, header: header)
        XCTAssertTrue(html.contains("<dt>navlog</dt><dd>9.9.9</dd>"))
        XCTAssertTrue(html.contains("<dt>journal</dt><dd>/var/journal</dd>"))
        XCTAssertTrue(html.contains("<dt>filters</dt><dd>--app shop</dd>"))
        XCTAssertTrue(html.contains("<dt>time</dt><dd>"))
        XCTAssertEqual(html.components(separatedBy: "aria-label=\"Funnel detail\"").count - 1, 1)
        XCTAssertEqual(html.components(separatedBy: "<h3>detail</h3>").count - 1, 1)
        XCTAssertFalse(html.contains("<h2>Funnel detail</h2>"))
        XCTAssertFalse(html.contains(" ms (95%"), "time to convert in human units")
    }

    func testRareWholePathsAreFoldedAwayWithANote() {
        let unique = HTMLRenderer.render(makeReport([PathTests.session("s-1", ["List"]), PathTests.session("s-2", ["Detail"])]))
        XCTAssertTrue(unique.contains("No whole path is common"))
        XCTAssertTrue(unique.contains("<details><summary>2 paths</summary>"))
        let repeated = HTMLRenderer.render(makeReport([PathTests.session("s-1", ["List"]), PathTests.session("s-2", ["List"]), PathTests.session("s-3", ["Detail"])]))
        XCTAssertFalse(repeated.contains("No whole path is common"))
    }
}
