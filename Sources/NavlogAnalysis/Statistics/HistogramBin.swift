import Foundation

/// One bar of a duration histogram: the count of durations in [low, high), the last bin
/// closed on the right.
public struct HistogramBin: Sendable, Equatable {
    public var lowMilliseconds: Double
    public var highMilliseconds: Double
    public var count: Int

    /// The most bins a histogram has.
    public static let maximumBinCount = 10

    /// Returns the histogram of `sample` (ns) in milliseconds: equal-width bins from the
    /// smallest to the largest value, or log-spaced bins when the largest is more than 20
    /// times the smallest (dwell times are skewed). Empty for an empty sample.
    static func bins(forNanoseconds sample: [UInt64]) -> [HistogramBin] {
        let values = sample.map { Double($0) / 1_000_000 }
        guard let low = values.min(), let high = values.max() else { return [] }
        guard high > low else { return [HistogramBin(lowMilliseconds: rounded(low), highMilliseconds: rounded(high), count: values.count)] }
        let count = min(maximumBinCount, max(1, values.count))
        let isLogarithmic = low > 0 && high / low > 20
        let edges: [Double] = (0...count).map { index in
            let fraction = Double(index) / Double(count)
            return isLogarithmic ? low * pow(high / low, fraction) : low + (high - low) * fraction
        }
        var counts = Array(repeating: 0, count: count)
        for value in values {
            // The last edge belongs to the last bin.
            let index = edges.dropFirst().firstIndex { value < $0 }.map { $0 - 1 } ?? count - 1
            counts[index] += 1
        }
        return (0..<count).map { HistogramBin(lowMilliseconds: rounded(edges[$0]), highMilliseconds: rounded(edges[$0 + 1]), count: counts[$0]) }
    }

    private static func rounded(_ milliseconds: Double) -> Double {
        DurationSummary.rounded(milliseconds)
    }
}
