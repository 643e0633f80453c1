/// The result of `navlog diff`: a base and a candidate compared exactly (scripted runs),
/// structurally (screens, transitions, dead ends, leaks…) and statistically (timings and
/// proportions), with what fails the comparison under the gates of ``DiffSettings``.
///
/// ```swift
/// let diff = FlowDiff(base: baseSide, candidate: candidateSide, settings: settings)
/// diff.hasRegression   // exit 1 when true
/// ```
public struct FlowDiff: Sendable {
    public var settings: DiffSettings
    public var base: SideSummary
    public var candidate: SideSummary
    public var scenarios: [ScenarioComparison]
    public var structural: [StructuralFinding]
    public var metrics: [MetricComparison]

    /// What one side covers.
    public struct SideSummary: Sendable, Equatable {
        public var sessions: Int
        public var events: Int
        public var runs: Int
        public var scenarios: Int
    }

    /// Compares `candidate` against `base`.
    public init(base: DiffSide, candidate: DiffSide, settings: DiffSettings) {
        self.settings = settings
        self.base = SideSummary(sessions: base.sessions, events: base.events, runs: base.runs, scenarios: base.sequences.count)
        self.candidate = SideSummary(sessions: candidate.sessions, events: candidate.events, runs: candidate.runs, scenarios: candidate.sequences.count)
        scenarios = ScenarioComparison.compare(base: base, candidate: candidate, settings: settings)
        let structural = StructuralFinding.compare(base: base, candidate: candidate, settings: settings)
        var metrics = MetricComparison.measure(base: base, candidate: candidate, settings: settings)
        // Holm over everything that gates at once, so that a comparison of runs that did not
        // change fails with probability at most alpha however many families gate; what does
        // not gate is corrected in a family of its own, and costs the gates no power.
        let isStructuralGating = settings.gates.contains(.structural)
        var shareAdjusted = Array(repeating: 1.0, count: structural.shareTests.count)
        for isGating in [true, false] {
            let metricIndices = metrics.indices.filter { metrics[$0].pValue != nil && metrics[$0].isGating == isGating }
            let shareIndices = isStructuralGating == isGating ? structural.shareTests.indices.filter { structural.shareTests[$0].result != nil } : []
            let adjusted = HolmCorrection.adjusted(metricIndices.map { metrics[$0].pValue! } + shareIndices.map { structural.shareTests[$0].result!.pValue })
            for (position, index) in metricIndices.enumerated() { metrics[index].judge(adjustedPValue: adjusted[position], settings: settings) }
            for (position, index) in shareIndices.enumerated() { shareAdjusted[index] = adjusted[metricIndices.count + position] }
        }
        self.metrics = metrics
        self.structural = structural.findings + structural.shareTests.indices.compactMap {
            structural.shareTests[$0].resolved(adjustedPValue: shareAdjusted[$0], alpha: settings.alpha)
        }
        hasCommonGround = base.sessions > 0 && candidate.sessions > 0
            && (scenarios.contains { $0.status != .onlyInBase && $0.status != .onlyInCandidate }
                || !Set(base.screens.keys).isDisjoint(with: candidate.screens.keys))
    }

    /// Whether the two sides share a scenario or a screen; when not, nothing was compared.
    public private(set) var hasCommonGround: Bool

    /// Whether anything that gates failed: exit 1.
    public var hasRegression: Bool {
        scenarios.contains(where: \.isFailure) || structural.contains(where: \.isFailure) || metrics.contains(where: \.isFailure)
    }

    /// How many checks failed, were skipped, and were compared in all.
    public var counts: (compared: Int, failed: Int, skipped: Int) {
        let failed = scenarios.filter(\.isFailure).count + structural.filter(\.isFailure).count + metrics.filter(\.isFailure).count
        let skipped = scenarios.filter(\.isSkipped).count + metrics.filter { $0.status == .tooFewSamples }.count
        return (scenarios.count + structural.count + metrics.count, failed, skipped)
    }
}
