import Foundation

/// Tests of whether two proportions differ, such as a funnel's conversion on two sides.
///
/// - Large counts use the two-proportion z-test with the pooled proportion.
/// - When any expected cell of the 2×2 table is below 5 (Cochran's rule), Fisher's exact test
///   is used instead. Its two-sided p-value sums the tables no more likely than the observed
///   one, with the relative tolerance `scipy.stats.fisher_exact` uses (1 + 10⁻⁷).
public enum ProportionTest {
    /// How the p-value was computed.
    public enum Method: String, Sendable, Equatable {
        case zTest = "z"
        case fisher
    }

    /// The outcome of one test.
    public struct Result: Sendable, Equatable {
        /// The two-sided p-value.
        public var pValue: Double
        public var method: Method
    }

    /// Returns the test of `x1` successes out of `n1` against `x2` out of `n2`; `nil` when a
    /// side has no trials or more successes than trials.
    public static func test(successes x1: Int, trials n1: Int, against x2: Int, trials n2: Int) -> Result? {
        guard n1 > 0, n2 > 0, (0...n1).contains(x1), (0...n2).contains(x2) else { return nil }
        let total = Double(n1 + n2)
        let successes = Double(x1 + x2)
        let expected = [
            Double(n1) * successes / total, Double(n1) * (total - successes) / total,
            Double(n2) * successes / total, Double(n2) * (total - successes) / total,
        ]
        if expected.contains(where: { $0 < 5 }) {
            return Result(pValue: fisherExact(x1, n1 - x1, x2, n2 - x2), method: .fisher)
        }
        return Result(pValue: zTest(x1, n1, x2, n2), method: .zTest)
    }

    /// Returns the two-sided p-value of the pooled two-proportion z-test.
    static func zTest(_ x1: Int, _ n1: Int, _ x2: Int, _ n2: Int) -> Double {
        let pooled = Double(x1 + x2) / Double(n1 + n2)
        let standardError = (pooled * (1 - pooled) * (1 / Double(n1) + 1 / Double(n2))).squareRoot()
        guard standardError > 0 else { return 1 }
        let z = (Double(x2) / Double(n2) - Double(x1) / Double(n1)) / standardError
        return min(1, 2 * MannWhitneyU.normalSurvival(abs(z)))
    }

    /// Returns the two-sided p-value of Fisher's exact test on the table [[a, b], [c, d]].
    static func fisherExact(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Double {
        let row1 = a + b, column1 = a + c, n = a + b + c + d
        // Tables with the same margins, indexed by their top-left cell.
        let low = max(0, column1 - (n - row1)), high = min(row1, column1)
        func logProbability(_ k: Int) -> Double {
            logChoose(row1, k) + logChoose(n - row1, column1 - k) - logChoose(n, column1)
        }
        let observed = logProbability(a)
        var p = 0.0
        for k in low...high {
            let logP = logProbability(k)
            if logP <= observed + log1p(1e-7) { p += exp(logP) }
        }
        return min(1, p)
    }

    private static func logChoose(_ n: Int, _ k: Int) -> Double {
        lgamma(Double(n) + 1) - lgamma(Double(k) + 1) - lgamma(Double(n - k) + 1)
    }
}
