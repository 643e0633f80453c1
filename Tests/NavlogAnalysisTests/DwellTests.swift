@testable import NavlogAnalysis
import XCTest

final class DwellTests: XCTestCase {
    func testMedianIntervalRanksFromTheExactBinomial() {
        // n = 5: the widest interval [x1, x5] covers the median with 1 − 2/32 = 0.9375 < 0.95.
        XCTAssertNil(OrderStatistics.medianInterval(count: 5))
        // n = 6: [x1, x6] covers with 1 − 2/64 = 0.96875.
        XCTAssertEqual(OrderStatistics.medianInterval(count: 6), .init(lowerRank: 1, upperRank: 6, coverage: 0.96875))
        // n = 10: P(B ≤ 1) = 11/1024 ≤ 0.025 < P(B ≤ 2) = 56/1024, so j = 2, k = 9.
        let ten = OrderStatistics.medianInterval(count: 10)
        XCTAssertEqual(ten?.lowerRank, 2)
        XCTAssertEqual(ten?.upperRank, 9)
        XCTAssertEqual(ten?.coverage ?? 0, 1 - 22.0 / 1024, accuracy: 1e-12)
        // n = 20: P(B ≤ 5) = 21700/2²⁰ ≈ 0.0207, P(B ≤ 6) = 60460/2²⁰ ≈ 0.0577, so j = 6, k = 15.
        let twenty = OrderStatistics.medianInterval(count: 20)
        XCTAssertEqual(twenty?.lowerRank, 6)
        XCTAssertEqual(twenty?.upperRank, 15)
        XCTAssertEqual(twenty?.coverage ?? 0, 1 - 2 * 21700.0 / 1_048_576, accuracy: 1e-12)
        // Large n stays finite and near n/2 ± 0.98·√n.
        let large = OrderStatistics.medianInterval(count: 10_000)
        XCTAssertEqual(large?.lowerRank, 4902)
        XCTAssertEqual(large?.upperRank, 5099)
    }

    func testMedianAndNearestRankPercentile() {
        XCTAssertEqual(OrderStatistics.median(ofSorted: [1, 2, 3]), 2)
        XCTAssertEqual(OrderStatistics.median(ofSorted: [1, 2, 3, 10]), 2.5)
        XCTAssertNil(OrderStatistics.median(ofSorted: []))
        // p90 of 1…10 is the value at rank ⌈9⌉ = 9; of 1…6 at rank ⌈5.4⌉ = 6.
        XCTAssertEqual(OrderStatistics.percentile(0.9, ofSorted: (1...10).map(Double.init)), 9)
        XCTAssertEqual(OrderStatistics.percentile(0.9, ofSorted: (1...6).map(Double.init)), 6)
    }

    /// Durations are rounded to the microsecond with halves up, on their nanoseconds (docs/REPORT.md),
    /// whatever the binary fractions of the milliseconds would make of them.
    func testDurationsRoundToTheMicrosecondWithHalvesUp() {
        func median(_ nanoseconds: [UInt64]) -> Double? { DurationSummary(sampleNanoseconds: nanoseconds, count: nanoseconds.count).medianMilliseconds }
        XCTAssertEqual(median([37_500]), 0.038)
        XCTAssertEqual(median([37_499]), 0.037)
        XCTAssertEqual(median([500_500]), 0.501, "0.5005 ms times 1000 is 500.49999… in binary")
        XCTAssertEqual(median([37_000, 38_000]), 0.038, "the mean of the middle two, 37,500 ns")
        XCTAssertEqual(median([36_999, 38_000]), 0.037, "37,499.5 ns")
        XCTAssertEqual(median([1, 300_497_500, 900_000_000]), 300.498)
        // 18,446,744,073,709,551,615 ns: the sum of the middle two does not overflow.
        XCTAssertEqual(median([UInt64.max, UInt64.max]), Double(18_446_744_073_709_552 as UInt64) / 1000)
        XCTAssertNil(median([]))
        let summary = DurationSummary(sampleNanoseconds: (1...10).map { UInt64($0) * 1_000_500 }, count: 10)
        XCTAssertEqual(summary.p90Milliseconds, 9.005, "rank 9: 9,004,500 ns, a half rounded up")
        XCTAssertEqual(summary.ci95LowMilliseconds, 2.001)
    }

    /// Six sessions: Home for 100 ms, then Detail for 10, 20, …, 60 ms, then back on Home for
    /// 5 ms until the session ends (that last visit is cut off: censored).
    private func sixSessions() -> [SessionScript] {
        (1...6).map { index in
            var script = SessionScript("s-\(index)")
            script.launch()
            script.wait(100)
            let tap = script.action("detail", on: "Home#1")
            script.push("Detail#1", cause: tap)
            script.wait(UInt64(index) * 10)
            let back = script.action("system.back", on: "Detail#1")
            script.pop("Detail#1", to: "Home#1", cause: back)
            script.wait(5)
            script.end()
            return script
        }
    }

    func testDwellPerScreenWithInterval() throws {
        let report = makeReport(sixSessions())
        let detail = try XCTUnwrap(report.dwell.first { $0.screen == "Detail" })
        // Samples 10…60: median (30 + 40) / 2 = 35; n = 6 gives ranks 1 and 6; p90 rank 6.
        XCTAssertEqual(detail.summary.count, 6)
        XCTAssertEqual(detail.censored, 0)
        XCTAssertEqual(detail.summary.medianMilliseconds, 35)
        XCTAssertEqual(detail.summary.ci95LowMilliseconds, 10)
        XCTAssertEqual(detail.summary.ci95HighMilliseconds, 60)
        XCTAssertEqual(detail.summary.p90Milliseconds, 60)
        XCTAssertNil(detail.summary.intervalNote)
        // Six samples from 10 to 60 ms: as many bins as samples (at most 10), equal-width since
        // 60/10 < 20, so 8.333 ms each and one sample per bin (60 in the closed last one).
        XCTAssertEqual(detail.histogram.map(\.count), [1, 1, 1, 1, 1, 1])
        XCTAssertEqual(detail.histogram[1].lowMilliseconds, 18.333)
        XCTAssertEqual(detail.histogram.first?.lowMilliseconds, 10)
        XCTAssertEqual(detail.histogram.last?.highMilliseconds, 60)
    }

    func testTooFewSamplesSayWhy() throws {
        let report = makeReport(Array(sixSessions().prefix(5)))
        let home = try XCTUnwrap(report.dwell.first { $0.screen == "Home" })
        // Every first Home visit lasts 100 ms; five samples are too few for an interval. The
        // five 5 ms visits back on Home are cut off by session.end: censored, not samples.
        XCTAssertEqual(home.summary.count, 5)
        XCTAssertEqual(home.censored, 5)
        XCTAssertEqual(home.summary.medianMilliseconds, 100)
        XCTAssertNil(home.summary.ci95LowMilliseconds)
        XCTAssertNil(home.summary.ci95HighMilliseconds)
        XCTAssertEqual(home.summary.intervalNote, "too few samples (n < 6)")
    }

    func testReservoirKeepsAtMostTheLimitAndIsDeterministic() {
        var first = DurationReservoir(limit: 16)
        var second = DurationReservoir(limit: 16)
        for value in 1...1000 as ClosedRange<UInt64> {
            first.add(value)
            second.add(value)
        }
        XCTAssertEqual(first.sample.count, 16)
        XCTAssertEqual(first.count, 1000)
        XCTAssertTrue(first.isSampled)
        XCTAssertEqual(first.sample, second.sample)
        XCTAssertEqual(first.summary.count, 1000)
        XCTAssertEqual(first.summary.sampleCount, 16)
        // A uniform sample of 1…1000 does not stay among the first 16 values.
        XCTAssertGreaterThan(first.sample.max() ?? 0, 16)
    }
}
