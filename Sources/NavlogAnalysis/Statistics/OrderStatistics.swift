import Foundation

/// Distribution-free summaries of a sample: median with its confidence interval from order
/// statistics, and nearest-rank percentiles.
public enum OrderStatistics {
    /// The confidence level of the median's interval.
    public static let confidence = 0.95

    /// The ranks (1-based, into the sorted sample) bounding a confidence interval for the median.
    public struct MedianInterval: Sendable, Equatable {
        public var lowerRank: Int
        public var upperRank: Int
        /// The probability that the interval covers the true median; at least ``confidence``.
        public var coverage: Double
    }

    /// Returns the median of sorted `values`: the middle value, or the mean of the two middle
    /// values when the count is even; `nil` when empty.
    public static func median(ofSorted values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let middle = values.count / 2
        return values.count % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2
    }

    /// Returns the nearest-rank percentile `p` (0...1) of sorted `values`: the value at rank
    /// ⌈p·n⌉; `nil` when empty.
    public static func percentile(_ p: Double, ofSorted values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        return values[nearestRank(p, count: values.count) - 1]
    }

    /// The nearest rank (1-based) of percentile `p` (0...1) in a sample of `count` > 0: ⌈p·n⌉,
    /// at least 1.
    static func nearestRank(_ p: Double, count: Int) -> Int {
        min(count, max(1, Int((p * Double(count)).rounded(.up))))
    }

    /// Returns the symmetric ranks j and n+1−j with P(j ≤ rank of the median < n+1−j) ≥ 95%,
    /// using the exact binomial distribution B(n, ½); `nil` when no such interval exists
    /// (n < 6).
    ///
    /// The interval [x₍ⱼ₎, x₍ₙ₊₁₋ⱼ₎] misses the median only when fewer than j observations fall
    /// below it or fewer than j above, so its coverage is 1 − 2·P(B ≤ j−1). The largest j
    /// whose coverage still reaches the level is chosen.
    public static func medianInterval(count n: Int, confidence: Double = confidence) -> MedianInterval? {
        guard n > 0 else { return nil }
        let tail = (1 - confidence) / 2
        // P(B ≤ i) accumulated in log space so that large n neither underflows nor overflows.
        let logHalfPower = Double(n) * log(0.5)
        let logNFactorial = logGamma(Double(n) + 1)
        var cumulative = 0.0
        var j = 0
        while j < n {
            let i = Double(j)
            let probability = exp(logNFactorial - logGamma(i + 1) - logGamma(Double(n) - i + 1) + logHalfPower)
            if cumulative + probability > tail { break }
            cumulative += probability
            j += 1
        }
        // Now P(B ≤ j−1) ≤ tail < P(B ≤ j): rank j is the lowest usable lower bound.
        guard j >= 1, j <= n + 1 - j else { return nil }
        return MedianInterval(lowerRank: j, upperRank: n + 1 - j, coverage: 1 - 2 * cumulative)
    }

    /// ln Γ(x), through Foundation's `lgamma` for `Double`.
    private static func logGamma(_ x: Double) -> Double {
        Foundation.lgamma(x)
    }
}

/// A summary of durations: the figures the report shows for dwell times and times to convert.
public struct DurationSummary: Sendable, Equatable {
    /// How many durations were observed.
    public var count: Int
    /// How many of them the figures are computed from (fewer when a reservoir sample was kept).
    public var sampleCount: Int
    public var medianMilliseconds: Double?
    public var ci95LowMilliseconds: Double?
    public var ci95HighMilliseconds: Double?
    public var p90Milliseconds: Double?
    /// Why there is no interval, when there is none.
    public var intervalNote: String?

    /// Summarizes `sample`, in nanoseconds, drawn from `count` observations.
    ///
    /// The figures are worked out on the nanoseconds themselves and rounded to the microsecond,
    /// halves up (docs/REPORT.md): in milliseconds as `Double`s, 37,500 ns (a median of an odd
    /// count) came out as 0.037 or 0.038 depending on how the binary fractions fell, and the SQL
    /// virtual table's test, which rounds the exact value, disagreed with the report.
    init(sampleNanoseconds sample: [UInt64], count: Int) {
        let sorted = sample.sorted()
        self.count = count
        self.sampleCount = sorted.count
        if sorted.isEmpty {
            medianMilliseconds = nil
        } else {
            let middle = sorted.count / 2
            medianMilliseconds = sorted.count % 2 == 1
                ? DurationSummary.milliseconds(nanoseconds: sorted[middle])
                : DurationSummary.milliseconds(nanosecondPairSum: UInt128(sorted[middle - 1]) + UInt128(sorted[middle]))
        }
        p90Milliseconds = sorted.isEmpty ? nil : DurationSummary.milliseconds(nanoseconds: sorted[OrderStatistics.nearestRank(0.9, count: sorted.count) - 1])
        if let interval = OrderStatistics.medianInterval(count: sorted.count) {
            ci95LowMilliseconds = DurationSummary.milliseconds(nanoseconds: sorted[interval.lowerRank - 1])
            ci95HighMilliseconds = DurationSummary.milliseconds(nanoseconds: sorted[interval.upperRank - 1])
            intervalNote = nil
        } else {
            ci95LowMilliseconds = nil
            ci95HighMilliseconds = nil
            intervalNote = sorted.isEmpty ? "no samples" : "too few samples (n < 6)"
        }
    }

    /// `nanoseconds` in milliseconds, rounded to the microsecond (halves up).
    static func milliseconds(nanoseconds: UInt64) -> Double {
        milliseconds(nanosecondPairSum: 2 * UInt128(nanoseconds))
    }

    /// The mean of two durations whose nanoseconds add up to `sum`, in milliseconds, rounded to
    /// the microsecond (halves up): exactly, in integers.
    private static func milliseconds(nanosecondPairSum sum: UInt128) -> Double {
        Double((sum + 1000) / 2000) / 1000
    }

    /// Rounds milliseconds to the microsecond, so output is stable across platforms (histogram
    /// edges, which are not nanoseconds of a sample; durations go through
    /// ``milliseconds(nanoseconds:)``).
    static func rounded(_ milliseconds: Double) -> Double {
        (milliseconds * 1000).rounded() / 1000
    }
}
