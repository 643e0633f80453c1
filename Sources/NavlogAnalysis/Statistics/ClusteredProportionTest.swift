import Foundation

/// A test of whether a ratio of counts differs between two groups of sessions, taking the
/// session as the unit: a transition's share of its screen's departures, where one session
/// contributes many departures that are not independent of each other.
///
/// Each side's share is the ratio estimator p = Σxᵢ / Σnᵢ over its N sessions (xᵢ the
/// transition's count in session i, nᵢ the departures from its screen). Its variance is the
/// cluster-robust (sandwich) one, with the small-sample factor N / (N − 1):
///
///     V(p) = N / (N − 1) · Σ (xᵢ − p·nᵢ)² / (Σnᵢ)²
///          = N / (N − 1) · (Σxᵢ² − 2p·Σxᵢnᵢ + p²·Σnᵢ²) / (Σnᵢ)²
///
/// and z = (p₂ − p₁) / √(V₁ + V₂) is compared with the standard normal, two-sided. This is
/// what a GEE or a logistic regression with cluster-robust errors by session gives for a
/// two-group difference in proportions, up to the link; it needs only the sums, so a side
/// stores five numbers per transition instead of one count per session.
///
/// ```swift
/// let base = ClusteredProportionTest.Side(sessions: 40, successes: 52, trials: 130, successSquares: 90, crossProducts: 260, trialSquares: 610)
/// ClusteredProportionTest.test(base, candidate)?.pValue
/// ```
public enum ClusteredProportionTest {
    /// One side's sums over its sessions.
    public struct Side: Sendable, Equatable {
        /// Sessions with at least one trial (the clusters).
        public var sessions: Int
        /// Σxᵢ and Σnᵢ.
        public var successes: Int
        public var trials: Int
        /// Σxᵢ², Σxᵢnᵢ and Σnᵢ².
        public var successSquares: Int
        public var crossProducts: Int
        public var trialSquares: Int

        public init(sessions: Int, successes: Int, trials: Int, successSquares: Int, crossProducts: Int, trialSquares: Int) {
            self.sessions = sessions
            self.successes = successes
            self.trials = trials
            self.successSquares = successSquares
            self.crossProducts = crossProducts
            self.trialSquares = trialSquares
        }

        /// The ratio estimate Σx / Σn.
        public var proportion: Double { trials == 0 ? 0 : Double(successes) / Double(trials) }

        /// The cluster-robust variance of ``proportion``; nil with fewer than two sessions.
        public var variance: Double? {
            guard sessions > 1, trials > 0 else { return nil }
            let p = proportion
            let residual = Double(successSquares) - 2 * p * Double(crossProducts) + p * p * Double(trialSquares)
            let n = Double(sessions)
            return max(0, n / (n - 1) * residual / (Double(trials) * Double(trials)))
        }

        /// The 95% interval p ± 1.96·√V, clipped to [0, 1].
        public var interval: (low: Double, high: Double)? {
            guard let variance else { return nil }
            let half = 1.959_963_984_540_054 * variance.squareRoot()
            return (max(0, proportion - half), min(1, proportion + half))
        }
    }

    /// The outcome of one test.
    public struct Result: Sendable, Equatable {
        public var z: Double
        /// The two-sided p-value.
        public var pValue: Double
    }

    /// Returns the two-sided test of `candidate` against `base`; nil when a side has no
    /// trial or fewer than two sessions.
    public static func test(_ base: Side, _ candidate: Side) -> Result? {
        guard let baseVariance = base.variance, let candidateVariance = candidate.variance else { return nil }
        let difference = candidate.proportion - base.proportion
        let variance = baseVariance + candidateVariance
        guard variance > 0 else {
            // Every session had exactly its side's share: the shares differ for certain, or not at all.
            return Result(z: difference == 0 ? 0 : .infinity * (difference > 0 ? 1 : -1), pValue: difference == 0 ? 1 : 0)
        }
        let z = difference / variance.squareRoot()
        return Result(z: z, pValue: min(1, 2 * MannWhitneyU.normalSurvival(abs(z))))
    }
}
