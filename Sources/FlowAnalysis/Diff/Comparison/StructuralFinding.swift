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

    public var isFailure: Bool { kind.isRegressionKind && isGating }

    // MARK: - Comparing

    static func compare(base: DiffSide, candidate: DiffSide, settings: DiffSettings) -> [StructuralFinding] {
        let isGating = settings.gates.contains(.structural)
        var findings: [StructuralFinding] = []
        func add(_ kind: Kind, _ subject: String, _ detail: String) {
            findings.append(StructuralFinding(kind: kind, subject: subject, detail: detail, isGating: isGating))
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
        let tables: [(Kind, [String: Int], [String: Int], String)] = [
            (.newDeadEnd, base.deadEnds, candidate.deadEnds, "sessions end on it"),
            (.newLeak, base.leaks, candidate.leaks, "leaked"),
            (.newSmell, base.smells, candidate.smells, "seen"),
            (.newError, base.errors, candidate.errors, "error events"),
        ]
        for (kind, old, new, noun) in tables {
            for key in new.keys.sorted() where (old[key] ?? 0) == 0 && new[key]! > 0 {
                add(kind, key, "\(key): \(new[key]!) \(noun), none in the base")
            }
        }
        guard let start = base.entryScreen else { return findings }
        let before = TransitionGraph(base.transitions).shortestPaths(from: start)
        let after = TransitionGraph(candidate.transitions).shortestPaths(from: start)
        for screen in before.keys.sorted() where screen != start {
            let old = before[screen]!
            guard let new = after[screen] else {
                add(.unreachable, screen, "\(screen) can no longer be reached from \(start) (was: \(old.joined(separator: " → ")))")
                continue
            }
            if new.count > old.count {
                add(.longerPath, screen, "the shortest path from \(start) to \(screen) got longer: \(old.joined(separator: " → ")) became \(new.joined(separator: " → "))")
            }
        }
        return findings
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
