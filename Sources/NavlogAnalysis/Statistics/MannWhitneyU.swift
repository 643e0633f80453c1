import Foundation

/// The Mann-Whitney U test (Wilcoxon rank-sum): whether one sample tends to hold larger values
/// than another, without assuming any distribution.
///
/// - Small samples without ties use the exact distribution of U, counted by recursion over
///   the arrangements of the two samples.
/// - Otherwise the normal approximation is used, with the tie correction of the variance and a
///   continuity correction of ½. This is what `scipy.stats.mannwhitneyu(x, y,
///   alternative="two-sided", method=...)` computes, which the tests check against.
///
/// ```swift
/// let result = MannWhitneyU.test([1.1, 2.3, 0.4], [5.2, 6.0, 4.4, 7.1])
/// result?.pValue   // 0.0571…, exact
/// ```
public enum MannWhitneyU {
    /// How the p-value was computed.
    public enum Method: String, Sendable, Equatable {
        case exact
        case normal
    }

    /// The outcome of one test.
    public struct Result: Sendable, Equatable {
        /// U of the first sample: the number of pairs (x, y) with x > y, ties counting ½.
        public var u: Double
        /// The two-sided p-value.
        public var pValue: Double
        public var method: Method
        /// Whether some values occur more than once in the pooled sample.
        public var hasTies: Bool
    }

    /// The largest size of either sample for which the exact distribution is used.
    public static let exactSampleLimit = 20

    /// Returns the two-sided test of `x` against `y`; `nil` when either sample is empty.
    public static func test(_ x: [Double], _ y: [Double], exactSampleLimit: Int = exactSampleLimit) -> Result? {
        let n1 = x.count, n2 = y.count
        guard n1 > 0, n2 > 0 else { return nil }
        let ranking = ranks(of: x + y)
        let rankSum = ranking.ranks.prefix(n1).reduce(0, +)
        let u1 = rankSum - Double(n1 * (n1 + 1)) / 2
        let u2 = Double(n1 * n2) - u1
        let hasTies = ranking.tieTerm > 0
        if !hasTies, n1 <= exactSampleLimit, n2 <= exactSampleLimit {
            // P(U ≥ max(U1, U2)), doubled: the distribution is symmetric.
            let upper = Int(max(u1, u2).rounded())
            let counts = distribution(n1, n2)
            let total = counts.reduce(0, +)
            let tail = counts[upper...].reduce(0, +) / total
            return Result(u: u1, pValue: min(1, 2 * tail), method: .exact, hasTies: false)
        }
        let n = Double(n1 + n2)
        let mean = Double(n1 * n2) / 2
        let variance = Double(n1 * n2) / 12 * ((n + 1) - ranking.tieTerm / (n * (n - 1)))
        guard variance > 0 else { return Result(u: u1, pValue: 1, method: .normal, hasTies: hasTies) }
        let z = (max(u1, u2) - mean - 0.5) / variance.squareRoot()
        return Result(u: u1, pValue: min(1, max(0, 2 * normalSurvival(z))), method: .normal, hasTies: hasTies)
    }

    // MARK: - Ranks and distribution

    /// Returns the ranks of `values` (1-based, ties getting the mean of their ranks) and
    /// Σ (t³ − t) over the groups of t tied values.
    static func ranks(of values: [Double]) -> (ranks: [Double], tieTerm: Double) {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = Array(repeating: 0.0, count: values.count)
        var tieTerm = 0.0
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count, values[order[end + 1]] == values[order[start]] { end += 1 }
            let rank = Double(start + end + 2) / 2
            for index in start...end { ranks[order[index]] = rank }
            let t = Double(end - start + 1)
            tieTerm += t * t * t - t
            start = end + 1
        }
        return (ranks, tieTerm)
    }

    /// Returns how many arrangements of `m` and `n` distinct values give each U from 0 to m·n.
    ///
    /// Counts follow f(m, n, u) = f(m − 1, n, u − n) + f(m, n − 1, u): the largest value comes
    /// either from the first sample (beating all n of the second) or from the second. For
    /// m, n ≤ 20 the counts (at most C(40, 20) ≈ 1.4·10¹¹) are exact in a `Double`.
    static func distribution(_ m: Int, _ n: Int) -> [Double] {
        // table[i][j] is the distribution for sizes (i, j), built row by row.
        var previousRow: [[Double]] = (0...n).map { _ in [1] }
        for i in 1...max(m, 1) where m > 0 {
            var row: [[Double]] = [[1]]
            for j in 1...max(n, 1) where n > 0 {
                var counts = Array(repeating: 0.0, count: i * j + 1)
                for (u, count) in previousRow[j].enumerated() { counts[u + j] += count }
                for (u, count) in row[j - 1].enumerated() { counts[u] += count }
                row.append(counts)
            }
            previousRow = row
        }
        return m == 0 ? [1] : previousRow[n]
    }

    /// Returns P(Z ≥ z) for a standard normal Z.
    static func normalSurvival(_ z: Double) -> Double {
        0.5 * erfc(z / 2.0.squareRoot())
    }
}
