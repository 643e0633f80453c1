import Foundation

/// The statistical comparison of one noisy measure: dwell on a screen, a screen's load time and
/// its abandoned and failed loads, time to convert through a funnel, events per session, a
/// funnel's conversion or a transition's share.
///
/// Timings get a median with its 95% interval per side and the Mann-Whitney U test;
/// proportions get the two-proportion z-test, or Fisher's exact test for small counts. The
/// p-values of everything that gates are Holm-corrected together, structural tests included,
/// and those of what does not gate in a family of their own (``FlowDiff``). A change is a regression only
/// when its corrected p-value is below alpha and its relative size beyond the noise threshold;
/// a metric with fewer than the minimum samples on a side is reported as such.
public struct MetricComparison: Sendable, Equatable {
    public enum Status: String, Sendable {
        case regression
        case improvement
        /// A significant change with no better or worse direction (transition shares).
        case changed
        /// Significant, but no larger than the noise threshold.
        case withinNoise = "within_noise"
        case unchanged
        case tooFewSamples = "too_few_samples"
    }

    /// One side's figures.
    public struct Side: Sendable, Equatable {
        /// Values observed (sessions for a proportion's trials).
        public var count: Int
        /// The median (timings, counts) or the proportion.
        public var value: Double?
        /// The 95% interval: of the median (order statistics), or Wilson's for a proportion.
        public var low: Double?
        public var high: Double?
    }

    public var family: MetricFamily
    /// The screen, funnel or transition measured; empty for events per session.
    public var name: String
    /// `ms`, `events` or `ratio`.
    public var unit: String
    public var base: Side
    public var candidate: Side
    /// (candidate − base) / base, of the medians or proportions; `nil` when the base is 0.
    public var relativeChange: Double?
    /// `mann-whitney exact`, `mann-whitney normal`, `z`, `fisher` or `clustered z`.
    public var test: String?
    public var pValue: Double?
    /// The Holm-corrected p-value.
    public var adjustedPValue: Double?
    public var status: Status
    /// Whether this family gates the comparison.
    public var isGating: Bool

    public var isFailure: Bool { (status == .regression || status == .changed) && isGating }

    /// `dwell Articles`, `events per session`…
    public var title: String { name.isEmpty ? family.rawValue.replacingOccurrences(of: "_", with: " ") : "\(family.rawValue.replacingOccurrences(of: "_", with: " ")) \(name)" }

    // MARK: - Comparing

    /// Measures and tests every metric; p-values are not yet corrected nor judged (``FlowDiff``
    /// corrects them together with the structural tests, then calls ``judge(adjustedPValue:settings:)``).
    static func measure(base: DiffSide, candidate: DiffSide, settings: DiffSettings) -> [MetricComparison] {
        var metrics: [MetricComparison] = []
        func add(_ metric: MetricComparison) {
            metrics.append(metric)
        }
        for screen in Set(base.dwell.keys).union(candidate.dwell.keys).sorted() {
            add(timing(.dwell, screen, base.dwell[screen] ?? SampleSet(), candidate.dwell[screen] ?? SampleSet(), settings))
        }
        for funnel in base.funnels {
            guard let other = candidate.funnels.first(where: { $0.name == funnel.name && $0.steps == funnel.steps }) else { continue }
            add(timing(.timeToConvert, funnel.name, funnel.timeToConvert, other.timeToConvert, settings))
            add(proportion(.funnelConversion, funnel.name, (funnel.reached.last ?? 0, funnel.reached.first ?? 0), (other.reached.last ?? 0, other.reached.first ?? 0), settings))
        }
        if let baseLoad = base.load, let candidateLoad = candidate.load {
            for screen in Set(baseLoad.keys).union(candidateLoad.keys).sorted() {
                let old = baseLoad[screen] ?? DiffSide.LoadSample(durations: SampleSet(), abandoned: 0, failed: 0)
                let new = candidateLoad[screen] ?? DiffSide.LoadSample(durations: SampleSet(), abandoned: 0, failed: 0)
                add(timing(.load, screen, old.durations, new.durations, settings))
                // Screens ready when they appear are never abandoned nor failed: no test to make.
                if old.abandoned + new.abandoned > 0 {
                    add(proportion(.load, "\(screen) abandoned", (old.abandoned, old.abandoned + old.durations.count), (new.abandoned, new.abandoned + new.durations.count), settings))
                }
                if old.failed + new.failed > 0 {
                    add(proportion(.load, "\(screen) failed", (old.failed, old.durations.count), (new.failed, new.durations.count), settings))
                }
            }
        }
        add(timing(.eventsPerSession, "", base.eventsPerSession, candidate.eventsPerSession, settings))
        let departures = { (side: DiffSide) in Dictionary(side.transitions.map { ($0.from, $0.count) }, uniquingKeysWith: +) }
        let (baseDepartures, candidateDepartures) = (departures(base), departures(candidate))
        let edges = Set(base.transitions.map { [$0.from, $0.to] }).union(candidate.transitions.map { [$0.from, $0.to] })
        for edge in edges.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let name = "\(edge[0]) → \(edge[1])"
            if let old = clusteredSide(base, edge), let new = clusteredSide(candidate, edge) {
                add(clusteredShare(name, old, new, settings))
                continue
            }
            let count = { (side: DiffSide) in side.transitions.first { $0.from == edge[0] && $0.to == edge[1] }?.count ?? 0 }
            add(proportion(.transitionShare, name, (count(base), baseDepartures[edge[0]] ?? 0), (count(candidate), candidateDepartures[edge[0]] ?? 0), settings))
        }
        return metrics
    }

    /// Sets the corrected p-value of a tested metric and judges it.
    mutating func judge(adjustedPValue: Double, settings: DiffSettings) {
        self.adjustedPValue = adjustedPValue
        status = judged(settings: settings)
    }

    /// Whether a tested metric changed, and in which direction.
    private func judged(settings: DiffSettings) -> Status {
        guard let adjustedPValue, adjustedPValue < settings.alpha else { return .unchanged }
        if let relativeChange, abs(relativeChange) <= settings.noiseThreshold { return .withinNoise }
        if unit == "ms", let old = base.value, let new = candidate.value, abs(new - old) <= settings.noiseFloorMilliseconds { return .withinNoise }
        let increased = (candidate.value ?? 0) > (base.value ?? 0)
        switch family {
        case .transitionShare: return .changed
        case .funnelConversion: return increased ? .improvement : .regression
        default: return increased ? .regression : .improvement
        }
    }

    private static func timing(_ family: MetricFamily, _ name: String, _ base: SampleSet, _ candidate: SampleSet, _ settings: DiffSettings) -> MetricComparison {
        let isDuration = family != .eventsPerSession
        func side(_ samples: SampleSet) -> Side {
            if isDuration {
                let summary = DurationSummary(sampleNanoseconds: samples.values.map { UInt64(max(0, $0)) * 1000 }, count: samples.count)
                return Side(count: samples.count, value: summary.medianMilliseconds, low: summary.ci95LowMilliseconds, high: summary.ci95HighMilliseconds)
            }
            let sorted = samples.values.map(Double.init).sorted()
            let interval = OrderStatistics.medianInterval(count: sorted.count)
            return Side(
                count: samples.count, value: OrderStatistics.median(ofSorted: sorted),
                low: interval.map { sorted[$0.lowerRank - 1] }, high: interval.map { sorted[$0.upperRank - 1] }
            )
        }
        var metric = MetricComparison(
            family: family, name: name, unit: isDuration ? "ms" : "events", base: side(base), candidate: side(candidate),
            relativeChange: nil, test: nil, pValue: nil, adjustedPValue: nil, status: .tooFewSamples,
            isGating: settings.gates.contains(family)
        )
        metric.relativeChange = relative(metric.base.value, metric.candidate.value)
        guard base.values.count >= settings.minimumSamples, candidate.values.count >= settings.minimumSamples,
            let result = MannWhitneyU.test(base.values.map(Double.init), candidate.values.map(Double.init))
        else { return metric }
        metric.test = "mann-whitney \(result.method.rawValue)"
        metric.pValue = result.pValue
        metric.status = .unchanged
        return metric
    }

    private static func proportion(_ family: MetricFamily, _ name: String, _ base: (Int, Int), _ candidate: (Int, Int), _ settings: DiffSettings) -> MetricComparison {
        func side(_ counts: (successes: Int, trials: Int)) -> Side {
            guard counts.trials > 0 else { return Side(count: 0, value: nil, low: nil, high: nil) }
            let interval = wilsonInterval(counts.successes, counts.trials)
            return Side(count: counts.trials, value: Double(counts.successes) / Double(counts.trials), low: interval.low, high: interval.high)
        }
        var metric = MetricComparison(
            family: family, name: name, unit: "ratio", base: side(base), candidate: side(candidate),
            relativeChange: nil, test: nil, pValue: nil, adjustedPValue: nil, status: .tooFewSamples,
            isGating: settings.gates.contains(family)
        )
        metric.relativeChange = relative(metric.base.value, metric.candidate.value)
        guard base.1 >= settings.minimumSamples, candidate.1 >= settings.minimumSamples,
            let result = ProportionTest.test(successes: base.0, trials: base.1, against: candidate.0, trials: candidate.1)
        else { return metric }
        metric.test = result.method.rawValue
        metric.pValue = result.pValue
        metric.status = .unchanged
        return metric
    }

    /// A side's sums for the clustered test of one transition's share; nil for sides saved
    /// without them (older baselines), which fall back to the per-departure test.
    private static func clusteredSide(_ side: DiffSide, _ edge: [String]) -> ClusteredProportionTest.Side? {
        guard let departures = side.departures else { return nil }
        let spread = departures[edge[0]] ?? DiffSide.SessionSpread(sessions: 0, sum: 0, squares: 0)
        let transition = side.transitions.first { $0.from == edge[0] && $0.to == edge[1] }
        if let transition, transition.sessions == nil { return nil }
        return ClusteredProportionTest.Side(
            sessions: spread.sessions, successes: transition?.count ?? 0, trials: spread.sum,
            successSquares: transition?.squares ?? 0, crossProducts: transition?.crossProducts ?? 0, trialSquares: spread.squares
        )
    }

    /// A transition's share of its screen's departures, sessions as the unit: the sessions
    /// that left the screen are the samples, the interval and test cluster-robust.
    private static func clusteredShare(_ name: String, _ base: ClusteredProportionTest.Side, _ candidate: ClusteredProportionTest.Side, _ settings: DiffSettings) -> MetricComparison {
        func side(_ side: ClusteredProportionTest.Side) -> Side {
            guard side.trials > 0 else { return Side(count: side.sessions, value: nil, low: nil, high: nil) }
            return Side(count: side.sessions, value: side.proportion, low: side.interval?.low, high: side.interval?.high)
        }
        var metric = MetricComparison(
            family: .transitionShare, name: name, unit: "ratio", base: side(base), candidate: side(candidate),
            relativeChange: nil, test: nil, pValue: nil, adjustedPValue: nil, status: .tooFewSamples,
            isGating: settings.gates.contains(.transitionShare)
        )
        metric.relativeChange = relative(metric.base.value, metric.candidate.value)
        guard base.sessions >= settings.minimumSamples, candidate.sessions >= settings.minimumSamples,
            let result = ClusteredProportionTest.test(base, candidate)
        else { return metric }
        metric.test = "clustered z"
        metric.pValue = result.pValue
        metric.status = .unchanged
        return metric
    }

    private static func relative(_ base: Double?, _ candidate: Double?) -> Double? {
        guard let base, let candidate else { return nil }
        if base == 0 { return candidate == 0 ? 0 : nil }
        return (candidate - base) / base
    }

    /// Wilson's 95% score interval for a proportion.
    static func wilsonInterval(_ successes: Int, _ trials: Int) -> (low: Double, high: Double) {
        let z = 1.959_963_984_540_054, n = Double(trials), p = Double(successes) / n
        let centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        let half = z * (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot() / (1 + z * z / n)
        return (max(0, centre - half), min(1, centre + half))
    }
}
