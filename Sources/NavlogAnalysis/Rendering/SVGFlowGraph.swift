import Foundation

/// Lays out a report's flow graph in layers, as GA4's path exploration and Amplitude's
/// Journeys do, and draws it as inline SVG (see `SVGFlowGraph+Drawing.swift`).
///
/// Layout: each screen's column is its typical depth, the number of steps on the most likely
/// path to it from the screens where sessions start (transition shares as probabilities), so
/// the start is on the left. Screens no path reaches go in a last column. Within a column,
/// screens sit near the screens they connect to in earlier columns, the busiest first.
///
/// Edges: one per pair of screens, carrying both directions' counts and shares. Pairs with
/// under `minorShare` of all transitions are left out (each screen keeps its busiest pair).
struct SVGFlowGraph {
    struct Node {
        var screen: String
        var column: Int
        var row: Int
        var visits: Int
        var isEntry: Bool
        /// Sessions that ended here, not at an expected ending (`--ending`).
        var deadEndSessions: Int
        var medianMilliseconds: Double?

        /// Whether sessions end here often enough to matter: at least `deadEndShare` of visits.
        var isDeadEnd: Bool {
            deadEndSessions > 0 && Double(deadEndSessions) >= SVGFlowGraph.deadEndShare * Double(max(1, visits))
        }
    }

    /// Two screens and the transitions between them, either way.
    struct Pair {
        /// The screen drawn first: left, or above in the same column.
        var first: String
        var second: String
        var forward: FlowReport.TransitionFigure?
        var backward: FlowReport.TransitionFigure?
        var total: Int { (forward?.count ?? 0) + (backward?.count ?? 0) }
    }

    /// Pairs with less than this share of all transitions are not drawn.
    static let minorShare = 0.02
    /// A dead end is coloured when at least this share of the screen's visits end a session there.
    static let deadEndShare = 0.05

    let nodes: [String: Node]
    /// The pairs drawn, busiest first.
    let pairs: [Pair]
    /// The pairs left out as minor, and their transitions.
    let hiddenPairs: Int
    let hiddenTransitions: Int

    init(report: FlowReport) {
        let depths = SVGFlowGraph.depths(report)
        let unreached = (depths.values.max() ?? -1) + 1
        let deadEnds = Dictionary(report.deadEnds.map { ($0.screen, $0.sessions) }, uniquingKeysWith: +)
        let medians = Dictionary(report.dwell.map { ($0.screen, $0.summary.medianMilliseconds) }, uniquingKeysWith: { first, _ in first })
        var nodes: [String: Node] = [:]
        for screen in report.screens {
            nodes[screen.screen] = Node(
                screen: screen.screen, column: depths[screen.screen] ?? unreached, row: 0, visits: screen.visits,
                isEntry: screen.entries > 0, deadEndSessions: deadEnds[screen.screen] ?? 0, medianMilliseconds: medians[screen.screen] ?? nil
            )
        }
        // One pair per two screens.
        var byKey: [String: Pair] = [:]
        for transition in report.transitions where nodes[transition.from] != nil && nodes[transition.to] != nil {
            let (low, high) = transition.from < transition.to ? (transition.from, transition.to) : (transition.to, transition.from)
            var pair = byKey["\(low)\u{0}\(high)"] ?? Pair(first: low, second: high)
            if transition.from == low { pair.forward = transition } else { pair.backward = transition }
            byKey["\(low)\u{0}\(high)"] = pair
        }
        let all = byKey.values.sorted { ($1.total, $0.first, $0.second) < ($0.total, $1.first, $1.second) }
        let grandTotal = Double(max(1, all.reduce(0) { $0 + $1.total }))
        var kept: [Pair] = []
        var connected: Set<String> = []
        for pair in all where Double(pair.total) >= SVGFlowGraph.minorShare * grandTotal || !connected.contains(pair.first) || !connected.contains(pair.second) {
            kept.append(pair)
            connected.formUnion([pair.first, pair.second])
        }
        SVGFlowGraph.assignRows(&nodes, pairs: kept, screensByVisits: report.screens.map(\.screen))
        // Orient each pair: the left screen first, or the upper one in a column.
        self.pairs = kept.map { pair in
            guard let a = nodes[pair.first], let b = nodes[pair.second], (b.column, b.row) < (a.column, a.row) else { return pair }
            return Pair(first: pair.second, second: pair.first, forward: pair.backward, backward: pair.forward)
        }
        self.nodes = nodes
        hiddenPairs = all.count - kept.count
        hiddenTransitions = Int(grandTotal) - kept.reduce(0) { $0 + $1.total }
    }

    // MARK: - Layout

    /// The steps on the most likely path from a start screen to each screen it reaches.
    static func depths(_ report: FlowReport) -> [String: Int] {
        var cost: [String: Double] = [:]
        var hops: [String: Int] = [:]
        for screen in report.screens where screen.entries > 0 {
            cost[screen.screen] = 0
            hops[screen.screen] = 0
        }
        var outgoing: [String: [FlowReport.TransitionFigure]] = [:]
        for transition in report.transitions where transition.share > 0 { outgoing[transition.from, default: []].append(transition) }
        var done: Set<String> = []
        // Dijkstra on -log(share): few screens, so a scan for the nearest is enough.
        while let (screen, distance) = cost.filter({ !done.contains($0.key) }).min(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
            done.insert(screen)
            for transition in outgoing[screen] ?? [] where !done.contains(transition.to) {
                let candidate = distance - log(transition.share)
                if candidate < cost[transition.to] ?? .infinity {
                    cost[transition.to] = candidate
                    hops[transition.to] = hops[screen]! + 1
                }
            }
        }
        return hops
    }

    /// Orders each column: the first by visits, the others by the mean row of the screens they
    /// connect to in earlier columns, weighted by transitions (fewer crossings).
    private static func assignRows(_ nodes: inout [String: Node], pairs: [Pair], screensByVisits: [String]) {
        let columns = Set(nodes.values.map(\.column)).sorted()
        let rank = Dictionary(screensByVisits.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        for column in columns {
            let members = nodes.values.filter { $0.column == column }.map(\.screen)
            var centre: [String: Double] = [:]
            for screen in members {
                var weight = 0.0
                var sum = 0.0
                for pair in pairs where pair.first == screen || pair.second == screen {
                    let other = pair.first == screen ? pair.second : pair.first
                    guard let node = nodes[other], node.column < column else { continue }
                    weight += Double(pair.total)
                    sum += Double(pair.total) * Double(node.row)
                }
                centre[screen] = weight > 0 ? sum / weight : Double(rank[screen] ?? 0)
            }
            let ordered = members.sorted { (centre[$0]!, rank[$0] ?? 0) < (centre[$1]!, rank[$1] ?? 0) }
            for (row, screen) in ordered.enumerated() { nodes[screen]?.row = row }
        }
    }
}
