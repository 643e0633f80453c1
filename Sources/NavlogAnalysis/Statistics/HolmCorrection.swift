/// Holm's step-down correction of p-values for testing several hypotheses at once.
///
/// Sorted ascending, the i-th smallest of m p-values (1-based) is multiplied by m − i + 1; the
/// adjusted values are then made non-decreasing and capped at 1. Rejecting where the adjusted
/// value is below α keeps the family-wise error rate at α. Matches
/// `statsmodels.stats.multitest.multipletests(p, method="holm")`.
public enum HolmCorrection {
    /// Returns the adjusted p-values, in the order of `pValues`.
    public static func adjusted(_ pValues: [Double]) -> [Double] {
        let m = pValues.count
        let order = pValues.indices.sorted { (pValues[$0], $0) < (pValues[$1], $1) }
        var adjusted = Array(repeating: 1.0, count: m)
        var running = 0.0
        for (position, index) in order.enumerated() {
            running = max(running, min(1, Double(m - position) * pValues[index]))
            adjusted[index] = running
        }
        return adjusted
    }
}
