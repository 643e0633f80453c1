import XCTest
@testable import NavlogAnalysis

/// The journey Sankey: one column per step, the busiest screens per step and `other`.
final class JourneyTests: XCTestCase {
    func testStepsUnrollLoopsAndMergeTheRestAsOther() {
        // Seven screens after Home at step 2: the five busiest stay, the last two are `other`.
        let second = ["A", "A", "A", "A", "A", "A", "B", "B", "B", "B", "B", "C", "C", "C", "C", "D", "D", "D", "E", "E", "F", "G"]
        let scripts = second.enumerated().map { PathTests.session("s-\($0.offset + 1)", [$0.element, "Home"]) }
        let journey = SVGJourney(report: makeReport(scripts))
        XCTAssertEqual(journey.columns.count, 3)
        XCTAssertEqual(journey.columns[0].map(\.name), ["Home"])
        XCTAssertEqual(journey.columns[1].map(\.name), ["A", "B", "C", "D", "E", "other"])
        XCTAssertEqual(journey.columns[1].last?.sessions, 2)
        // Home again at step 3: a loop becomes a later column, not an edge back.
        XCTAssertEqual(journey.columns[2].map(\.name), ["Home"])
        XCTAssertEqual(journey.columns[2].first?.sessions, second.count)
        XCTAssertEqual(journey.bands.filter { $0.step == 1 }.map(\.count).reduce(0, +), second.count)
        XCTAssertNotNil(journey.render())
    }
}
