@testable import NavlogAnalysis
import XCTest

final class FunnelTests: XCTestCase {
    private let checkout = Funnel(name: "checkout", steps: ["Home", "Cart", "Pay", "Done"])

    /// s-1 converts: Home, Cart at 100 ms, Pay at 300 ms, Done at 600 ms.
    /// s-2 goes Home, Cart, then back to Home.
    /// s-3 goes Home, Search, Cart, Pay and ends there.
    /// s-4 goes Home, Search.
    private func sessions() -> [SessionScript] {
        var converted = SessionScript("s-1")
        converted.launch()
        for (wait, screen) in [(100, "Cart#1"), (200, "Pay#1"), (300, "Done#1")] as [(UInt64, String)] {
            converted.wait(wait)
            let tap = converted.action("next", on: "x")
            converted.push(screen, cause: tap)
        }
        converted.end()

        var back = SessionScript("s-2")
        back.launch()
        let tap = back.action("cart", on: "Home#1")
        back.push("Cart#1", cause: tap)
        back.pop("Cart#1", to: "Home#1", by: "user_back")
        back.end()

        return [converted, back, PathTests.session("s-3", ["Search", "Cart", "Pay"]), PathTests.session("s-4", ["Search"])]
    }

    func testConversionDropOffAndWhereTheyWent() throws {
        let report = makeReport(sessions(), options: ReportOptions(funnels: [checkout]))
        let funnel = try XCTUnwrap(report.funnels.first)
        XCTAssertEqual(funnel.name, "checkout")
        // All four start on Home; s-1, s-2, s-3 reach Cart (s-3 by way of Search); s-1 and s-3
        // reach Pay; only s-1 reaches Done.
        XCTAssertEqual(funnel.steps.map(\.sessions), [4, 3, 2, 1])
        XCTAssertEqual(funnel.steps.map(\.conversion), [1, 0.75, 0.5, 0.25])
        // Step conversions: 4/4, 3/4, 2/3, 1/2.
        XCTAssertEqual(funnel.steps.map(\.stepConversion), [1, 0.75, 0.6667, 0.5])
        XCTAssertEqual(funnel.steps.map(\.dropOff), [1, 1, 1, 0])
        // s-4 left Home for Search; s-2 left Cart for Home; s-3 ended on Pay.
        XCTAssertEqual(funnel.steps.map { $0.wentInstead.map { "\($0.name) \($0.count)" } }, [["Search 1"], ["Home 1"], ["(end) 1"], []])
        // One conversion, Home at 0 to Done at 600 ms: too few for an interval.
        XCTAssertEqual(funnel.timeToConvert.count, 1)
        XCTAssertEqual(funnel.timeToConvert.medianMilliseconds, 600)
        XCTAssertEqual(funnel.timeToConvert.p90Milliseconds, 600)
        XCTAssertNil(funnel.timeToConvert.ci95LowMilliseconds)
    }

    func testProgressTakesTheFirstVisitAfterThePreviousStep() {
        let progress = PathAnalysis.progress(through: ["A", "B", "C"], in: ["B", "A", "X", "B", "A"])
        // B at 0 comes before A, so it does not count; B at 3 does; C is never reached and
        // the session moved on from that B to A.
        XCTAssertEqual(progress.reachedIndices, [1, 3])
        XCTAssertEqual(progress.nextAfterLastStep, "A")
        XCTAssertEqual(PathAnalysis.progress(through: ["A"], in: ["B"]).reachedIndices, [])
    }
}
