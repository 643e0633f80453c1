/// A structural difference between base and candidate: screens and transitions added or
/// removed, new dead ends, leaks, smells and errors, screens no longer reachable, and
/// shortest paths that got longer.
public struct StructuralFinding: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case screenAdded = "screen_added"
        case screenRemoved = "screen_removed"
        case transitionAdded = "transition_added"
        case transitionRemoved = "transition_removed"
        case newDeadEnd = "new_dead_end"
        case newLeak = "new_leak"
        case newSmell = "new_smell"
        case newError = "new_error"
        case unreachable = "unreachable_screen"
        case longerPath = "longer_path"

        /// Whether this kind of finding is worse by itself (the others are information).
        public var isRegressionKind: Bool {
            switch self {
            case .screenAdded, .screenRemoved, .transitionAdded, .transitionRemoved: false
            default: true
            }
        }
    }

    public var kind: Kind
    /// What it is about: a screen, a transition `A → B`, a leak or smell, an error code.
    public var subject: String
    /// A sentence with the evidence, such as the two paths.
    public var detail: String
    /// Whether structural findings gate the comparison.
    public var isGating: Bool
    /// Between sampled runs (explored or live, not both scripted), the sessions showing it on
    /// each side, and the test of those shares; nil between scripted runs, where any
    /// occurrence counts.
    public var share: ShareTest?

    /// The share of sessions showing a finding on each side, and whether it differs.
    public struct ShareTest: Sendable, Equatable {
        /// Sessions showing it, and sessions in all, on each side.
        public var base: (showing: Int, sessions: Int)
        public var candidate: (showing: Int, sessions: Int)
        /// `z` or `fisher` (``ProportionTest``).
        public var test: String
        public var pValue: Double
        /// Holm-corrected over every structural share tested.
        public var adjustedPValue: Double
        /// Whether the corrected p-value is below alpha.
        public var isSignificant: Bool

        public static func == (lhs: ShareTest, rhs: ShareTest) -> Bool {
            lhs.base == rhs.base && lhs.candidate == rhs.candidate && lhs.test == rhs.test && lhs.pValue == rhs.pValue
                && lhs.adjustedPValue == rhs.adjustedPValue && lhs.isSignificant == rhs.isSignificant
        }
    }

    /// Whether it fails the comparison: a regression kind that gates and, between sampled
    /// runs, whose share of sessions rose significantly.
    public var isFailure: Bool { kind.isRegressionKind && isGating && (share?.isSignificant ?? true) }

    // MARK: - Comparing

    /// What a regression finding is tested on: the key of ``DiffSide/sessionsShowing`` and
    /// whether the candidate's share must be higher (new things) or lower (lost ones).
    private struct Candidate {
        var finding: StructuralFinding
        var key: String
        var isRise: Bool
        /// Reported only when significant (a known item grown more frequent).
        var isReportedOnlyWhenSignificant = false
    }

    /// A finding whose share of sessions was tested, waiting for its corrected p-value.
    struct PendingShareTest {
        var finding: StructuralFinding
        var counts: ShareTest.Counts
        var result: ProportionTest.Result?
        var isReportedOnlyWhenSignificant: Bool

        /// The finding with its test, or nil when it is reported only when significant and is not.
        func resolved(adjustedPValue: Double, alpha: Double) -> StructuralFinding? {
            let isSignificant = result != nil && adjustedPValue < alpha
            if isReportedOnlyWhenSignificant && !isSignificant { return nil }
            var finding = self.finding
            finding.share = ShareTest(
                base: counts.base, candidate: counts.candidate, test: result?.method.rawValue ?? "none",
                pValue: result?.pValue ?? 1, adjustedPValue: adjustedPValue, isSignificant: isSignificant
            )
            finding.detail += " — in \(counts.candidate.0) of \(counts.candidate.1) sessions, \(counts.base.0) of \(counts.base.1) in the base"
            finding.detail += String(format: isSignificant ? " (significant: Holm-corrected p %.2g)" : " (not significant: Holm-corrected p %.2g)", adjustedPValue)
            return finding
        }
    }

    /// The findings (final between scripted runs), and between sampled runs the share tests
    /// still to be corrected and resolved (``PendingShareTest/resolved(adjustedPValue:alpha:)``).
    static func compare(base: DiffSide, candidate: DiffSide, settings: DiffSettings) -> (findings: [StructuralFinding], shareTests: [PendingShareTest]) {
        let isGating = settings.gates.contains(.structural)
        let isSampled = !(base.isScripted && candidate.isScripted) && base.sessionsShowing != nil && candidate.sessionsShowing != nil
        var findings: [StructuralFinding] = []
        var tested: [Candidate] = []
        func add(_ kind: Kind, _ subject: String, _ detail: String, testing key: String? = nil, isRise: Bool = true) {
            let finding = StructuralFinding(kind: kind, subject: subject, detail: detail, isGating: isGating)
            if isSampled, kind.isRegressionKind, let key {
                tested.append(Candidate(finding: finding, key: key, isRise: isRise))
            } else {
                findings.append(finding)
            }
        }
        for screen in Set(candidate.screens.keys).subtracting(base.screens.keys).sorted() {
            add(.screenAdded, screen, "\(screen) is new (\(candidate.screens[screen]!) visits)")
        }
        for screen in Set(base.screens.keys).subtracting(candidate.screens.keys).sorted() {
            add(.screenRemoved, screen, "\(screen) is no longer shown (\(base.screens[screen]!) visits in the base)")
        }
        let baseEdges = Dictionary(base.transitions.map { ("\($0.from) → \($0.to)", $0.count) }, uniquingKeysWith: +)
        let candidateEdges = Dictionary(candidate.transitions.map { ("\($0.from) → \($0.to)", $0.count) }, uniquingKeysWith: +)
        for edge in Set(candidateEdges.keys).subtracting(baseEdges.keys).sorted() {
            add(.transitionAdded, edge, "\(edge) is new (\(candidateEdges[edge]!) times)")
        }
        for edge in Set(baseEdges.keys).subtracting(candidateEdges.keys).sorted() {
            add(.transitionRemoved, edge, "\(edge) no longer happens (\(baseEdges[edge]!) times in the base)")
        }
        let tables: [(Kind, [String: Int], [String: Int], String, String)] = [
            (.newDeadEnd, base.deadEnds, candidate.deadEnds, "sessions end on it", "dead end "),
            (.newLeak, base.leaks, candidate.leaks, "leaked", "leak "),
            (.newSmell, base.smells, candidate.smells, "seen", "smell "),
            (.newError, base.errors, candidate.errors, "error events", "error "),
        ]
        for (kind, old, new, noun, prefix) in tables {
            for key in new.keys.sorted() where new[key]! > 0 {
                if (old[key] ?? 0) == 0 {
                    add(kind, key, "\(key): \(new[key]!) \(noun), none in the base", testing: prefix + key)
                } else if isSampled {
                    // Known on both sides: a finding only when it became significantly more common.
                    let finding = StructuralFinding(kind: kind, subject: key, detail: "\(key): more common than in the base", isGating: isGating)
                    tested.append(Candidate(finding: finding, key: prefix + key, isRise: true, isReportedOnlyWhenSignificant: true))
                }
            }
        }
        if let start = base.entryScreen {
            let before = TransitionGraph(base.transitions).shortestPaths(from: start)
            let candidateGraph = TransitionGraph(candidate.transitions)
            let after = candidateGraph.shortestPaths(from: start)
            for screen in before.keys.sorted() where screen != start {
                let old = before[screen]!
                guard let new = after[screen] else {
                    add(.unreachable, screen, "\(screen) can no longer be reached from \(start) (was: \(old.joined(separator: " → ")))",
                        testing: "screen \(screen)", isRise: false)
                    continue
                }
                if new.count > old.count {
                    // Tested on the first step of the old path that the candidate no longer takes.
                    let lost = zip(old, old.dropFirst()).first { !candidateGraph.hasEdge(from: $0.0, to: $0.1) }
                    add(.longerPath, screen, "the shortest path from \(start) to \(screen) got longer: \(old.joined(separator: " → ")) became \(new.joined(separator: " → "))",
                        testing: lost.map { "transition \($0.0) → \($0.1)" }, isRise: false)
                }
            }
        }
        return (findings, tested.map { shareTest($0, base: base, candidate: candidate) })
    }

    /// Tests the share of sessions showing a candidate finding, in the direction it must move.
    private static func shareTest(_ item: Candidate, base: DiffSide, candidate: DiffSide) -> PendingShareTest {
        let counts = ShareTest.Counts(
            base: (base.sessionsShowing?[item.key] ?? 0, base.sessions),
            candidate: (candidate.sessionsShowing?[item.key] ?? 0, candidate.sessions)
        )
        var result: ProportionTest.Result?
        if (counts.candidateShare > counts.baseShare) == item.isRise, counts.baseShare != counts.candidateShare {
            result = ProportionTest.test(successes: counts.base.0, trials: counts.base.1, against: counts.candidate.0, trials: counts.candidate.1)
        }
        return PendingShareTest(finding: item.finding, counts: counts, result: result, isReportedOnlyWhenSignificant: item.isReportedOnlyWhenSignificant)
    }
}

extension StructuralFinding.ShareTest {
    /// Sessions showing an item and sessions in all, on each side.
    struct Counts {
        var base: (Int, Int)
        var candidate: (Int, Int)
        var baseShare: Double { base.1 == 0 ? 0 : Double(base.0) / Double(base.1) }
        var candidateShare: Double { candidate.1 == 0 ? 0 : Double(candidate.0) / Double(candidate.1) }
    }
}

/// The screen types and the transitions between them, as a directed graph.
struct TransitionGraph {
    private var neighbours: [String: [String]] = [:]

    init(_ transitions: [DiffSide.TransitionCount]) {
        for transition in transitions where transition.count > 0 {
            neighbours[transition.from, default: []].append(transition.to)
        }
        for key in neighbours.keys { neighbours[key] = Array(Set(neighbours[key]!)).sorted() }
    }

    /// Whether `from → to` is one of the graph's transitions.
    func hasEdge(from: String, to: String) -> Bool {
        neighbours[from]?.contains(to) ?? false
    }

    /// Returns, for each screen reachable from `start`, one shortest path to it (breadth first,
    /// neighbours in name order, so the path is the same on every run).
    func shortestPaths(from start: String) -> [String: [String]] {
        var paths = [start: [start]]
        var queue = [start]
        var index = 0
        while index < queue.count {
            let screen = queue[index]
            index += 1
            for next in neighbours[screen] ?? [] where paths[next] == nil {
                paths[next] = paths[screen]! + [next]
                queue.append(next)
            }
        }
        return paths
    }
}
