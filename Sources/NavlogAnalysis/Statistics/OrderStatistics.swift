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
        let rank = min(values.count, max(1, Int((p * Double(values.count)).rounded(.up))))
        return values[rank - 1]
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
    init(sampleNanoseconds sample: [UInt64], count: Int) {
        let sorted = sample.map { Double($0) / 1_000_000 }.sorted()
        self.count = count
        self.sampleCount = sorted.count
        self.medianMilliseconds = OrderStatistics.median(ofSorted: sorted).map(DurationSummary.rounded)
        self.p90Milliseconds = OrderStatistics.percentile(0.9, ofSorted: sorted).map(DurationSummary.rounded)
        if let interval = OrderStatistics.medianInterval(count: sorted.count) {
            ci95LowMilliseconds = DurationSummary.rounded(sorted[interval.lowerRank - 1])
            ci95HighMilliseconds = DurationSummary.rounded(sorted[interval.upperRank - 1])
            intervalNote = nil
        } else {
            ci95LowMilliseconds = nil
            ci95HighMilliseconds = nil
            intervalNote = sorted.isEmpty ? "no samples" : "too few samples (n < 6)"
        }
    }

    /// Rounds milliseconds to the microsecond, so output is stable across platforms.
    static func rounded(_ milliseconds: Double) -> Double {
        (milliseconds * 1000).rounded() / 1000
    }
}
