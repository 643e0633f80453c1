import Foundation
@testable import NavlogAnalysis
import XCTest

/// Mann-Whitney U, Holm and the proportion tests against values worked out independently.
///
/// Values marked "scipy" were computed with SciPy 1.17.1:
/// `scipy.stats.mannwhitneyu(x, y, alternative="two-sided", method="exact" | "asymptotic")`,
/// `scipy.stats.fisher_exact([[a, b], [c, d]]).pvalue`, and for the z-test
/// `2 * scipy.stats.norm.sf(abs((x2/n2 - x1/n1) / sqrt(p*(1-p)*(1/n1 + 1/n2))))` with the pooled p.
final class StatisticsTests: XCTestCase {
    // MARK: - Mann-Whitney, hand-worked

    func testExactDistributionOfTwoAgainstTwoCountsTheSixArrangements() {
        // Orders of {x1, x2} among {y1, y2}: xxyy, xyxy, xyyx, yxxy, yxyx, yyxx give
        // U = 0, 1, 2, 2, 3, 4.
        XCTAssertEqual(MannWhitneyU.distribution(2, 2), [1, 1, 2, 1, 1])
        XCTAssertEqual(MannWhitneyU.distribution(3, 3).reduce(0, +), 20, "C(6, 3)")
        XCTAssertEqual(MannWhitneyU.distribution(20, 20).reduce(0, +), 137_846_528_820, "C(40, 20)")
    }

    func testCompleteSeparationOfTwoAgainstTwoHasPOneThird() throws {
        // P(U = 4) = 1/6, doubled for two sides.
        let result = try XCTUnwrap(MannWhitneyU.test([1, 2], [3, 4]))
        XCTAssertEqual(result.u, 0)
        XCTAssertEqual(result.method, .exact)
        XCTAssertEqual(result.pValue, 1.0 / 3, accuracy: 1e-12)
    }

    func testRanksAverageTiesAndSumTheTieTerm() {
        let ranking = MannWhitneyU.ranks(of: [10, 20, 20, 30, 20])
        XCTAssertEqual(ranking.ranks, [1, 3, 3, 5, 3])
        XCTAssertEqual(ranking.tieTerm, 24, "one group of three: 27 − 3")
    }

    func testIdenticalValuesGiveNoEvidence() throws {
        let result = try XCTUnwrap(MannWhitneyU.test([7, 7, 7, 7, 7], [7, 7, 7, 7, 7, 7]))
        XCTAssertEqual(result.pValue, 1)
        XCTAssertNil(MannWhitneyU.test([], [1]))
    }

    // MARK: - Mann-Whitney against scipy

    func testExactSmallSamplesMatchScipy() throws {
        try assertTest([1.1, 2.3, 0.4], [5.2, 6.0, 4.4, 7.1], u: 0, p: 0.05714285714285714, method: .exact)
        try assertTest([3.0, 1.0, 4.0, 1.5, 5.0, 9.0, 2.6], [5.3, 5.8, 9.7, 9.3, 2.4, 6.2, 4.5, 8.1], u: 11, p: 0.054079254079254076, method: .exact)
        let x = (0..<20).map { Double($0) * 1.3 }, y = (0..<18).map { Double($0) * 1.3 + 5.05 }
        try assertTest(x, y, u: 136, p: 0.20604349265332864, method: .exact)
    }

    func testNormalApproximationWithoutTiesMatchesScipy() throws {
        // Forced past the exact limit, and naturally by a sample of 25.
        let result = try XCTUnwrap(MannWhitneyU.test([3.0, 1.0, 4.0, 1.5, 5.0, 9.0, 2.6], [5.3, 5.8, 9.7, 9.3, 2.4, 6.2, 4.5, 8.1], exactSampleLimit: 0))
        XCTAssertEqual(result.method, .normal)
        XCTAssertEqual(result.pValue, 0.05619711191879385, accuracy: 1e-12)
        try assertTest((1...25).map(Double.init), (10..<32).map { Double($0) + 0.5 }, u: 120, p: 0.0009878969451118072, method: .normal)
    }

    func testTiesUseTheNormalApproximationWithTieCorrectionLikeScipy() throws {
        try assertTest([1, 2, 2, 3, 3, 3, 4, 5], [3, 4, 4, 5, 5, 6, 7, 7, 8], u: 7.5, p: 0.006373133838085873, method: .normal)
        try assertTest((0..<30).map { Double($0 % 7) }, (0..<25).map { Double($0 % 9 + 1) }, u: 217.5, p: 0.00752542544022427, method: .normal)
    }

    // MARK: - Holm

    func testHolmMultipliesBySteppedDownCountsAndKeepsOrder() {
        // Sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → raised to 0.06.
        let adjusted = HolmCorrection.adjusted([0.01, 0.04, 0.03, 0.005])
        for (value, expected) in zip(adjusted, [0.03, 0.06, 0.06, 0.02]) { XCTAssertEqual(value, expected, accuracy: 1e-12) }
        XCTAssertEqual(HolmCorrection.adjusted([0.5, 0.9]), [1, 1], "capped at 1")
        XCTAssertEqual(HolmCorrection.adjusted([]), [])
    }

    // MARK: - Proportions

    func testFisherExactMatchesScipy() {
        XCTAssertEqual(ProportionTest.fisherExact(8, 2, 1, 5), 0.034965034965034975, accuracy: 1e-12)
        XCTAssertEqual(ProportionTest.fisherExact(3, 7, 9, 1), 0.019766611097880443, accuracy: 1e-12)
        XCTAssertEqual(ProportionTest.fisherExact(40, 60, 55, 45), 0.04716548538301931, accuracy: 1e-10)
        XCTAssertEqual(ProportionTest.fisherExact(0, 10, 0, 12), 1)
    }

    func testSmallCountsUseFisherAndLargeOnesTheZTest() throws {
        let small = try XCTUnwrap(ProportionTest.test(successes: 8, trials: 10, against: 1, trials: 6))
        XCTAssertEqual(small.method, .fisher)
        XCTAssertEqual(small.pValue, 0.034965034965034975, accuracy: 1e-12)
        let large = try XCTUnwrap(ProportionTest.test(successes: 40, trials: 100, against: 55, trials: 100))
        XCTAssertEqual(large.method, .zTest)
        XCTAssertEqual(large.pValue, 0.03367206885634577, accuracy: 1e-12)
        XCTAssertEqual(ProportionTest.zTest(120, 400, 90, 380), 0.046845472797488304, accuracy: 1e-12)
        XCTAssertNil(ProportionTest.test(successes: 3, trials: 2, against: 1, trials: 2))
    }

    // MARK: - Helpers

    private func assertTest(_ x: [Double], _ y: [Double], u: Double, p: Double, method: MannWhitneyU.Method, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try XCTUnwrap(MannWhitneyU.test(x, y), file: file, line: line)
        XCTAssertEqual(result.method, method, file: file, line: line)
        // scipy reports U of the first sample.
        XCTAssertEqual(result.u, u, file: file, line: line)
        XCTAssertEqual(result.pValue, p, accuracy: 1e-12, file: file, line: line)
    }
}
