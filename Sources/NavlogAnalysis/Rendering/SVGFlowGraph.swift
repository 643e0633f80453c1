/// Lays out a report's flow graph and draws it as inline SVG.
///
/// Layout: screens in columns by BFS depth from the most common first screen, following the
/// busiest transitions first; within a column, most visited on top. Screens not reachable
/// that way go in a last column. Forward edges are curves between columns; edges that go
/// back (or stay in a column) arc above the nodes. Edge width follows the count.
struct SVGFlowGraph {
    struct Node {
        var screen: String
        var column: Int
        var row: Int
        var visits: Int
        var isEntry: Bool
        var isDeadEnd: Bool
        var medianMilliseconds: Double?
    }

    static let nodeWidth = 160.0
    static let nodeHeight = 46.0
    static let columnGap = 110.0
    static let rowGap = 40.0
    static let margin = 40.0
    /// Room above the nodes for the arcs of backward edges.
    static let arcRoom = 90.0

    let nodes: [String: Node]
    let transitions: [FlowReport.TransitionFigure]

    init(report: FlowReport) {
        let entries = report.screens.filter { $0.entries > 0 }.sorted { ($1.entries, $0.screen) < ($0.entries, $1.screen) }
        var depth: [String: Int] = [:]
        var queue: [String] = []
        for entry in entries where depth[entry.screen] == nil {
            depth[entry.screen] = 0
            queue.append(entry.screen)
        }
        var index = 0
        while index < queue.count {
            let screen = queue[index]
            index += 1
            for transition in report.transitions where transition.from == screen && depth[transition.to] == nil {
                depth[transition.to] = depth[screen]! + 1
                queue.append(transition.to)
            }
        }
        let unreached = (depth.values.max() ?? -1) + 1
        let deadEnds = Set(report.deadEnds.map(\.screen))
        let medians = Dictionary(report.dwell.map { ($0.screen, $0.summary.medianMilliseconds) }, uniquingKeysWith: { first, _ in first })
        var rows: [Int: Int] = [:]
        var nodes: [String: Node] = [:]
        // report.screens is sorted by visits, so rows fill most visited first.
        for screen in report.screens {
            let column = depth[screen.screen] ?? unreached
            let row = rows[column, default: 0]
            rows[column] = row + 1
            nodes[screen.screen] = Node(
                screen: screen.screen, column: column, row: row, visits: screen.visits, isEntry: screen.entries > 0,
                isDeadEnd: deadEnds.contains(screen.screen), medianMilliseconds: medians[screen.screen] ?? nil
            )
        }
        self.nodes = nodes
        self.transitions = report.transitions
    }

    // MARK: - Geometry

    private func origin(of node: Node) -> (x: Double, y: Double) {
        (
            SVGFlowGraph.margin + Double(node.column) * (SVGFlowGraph.nodeWidth + SVGFlowGraph.columnGap),
            SVGFlowGraph.margin + SVGFlowGraph.arcRoom + Double(node.row) * (SVGFlowGraph.nodeHeight + SVGFlowGraph.rowGap)
        )
    }

    var size: (width: Double, height: Double) {
        let columns = (nodes.values.map(\.column).max() ?? 0) + 1
        let rows = (nodes.values.map(\.row).max() ?? 0) + 1
        return (
            2 * SVGFlowGraph.margin + Double(columns) * SVGFlowGraph.nodeWidth + Double(columns - 1) * SVGFlowGraph.columnGap,
            2 * SVGFlowGraph.margin + SVGFlowGraph.arcRoom + Double(rows) * SVGFlowGraph.nodeHeight + Double(rows - 1) * SVGFlowGraph.rowGap
        )
    }

    // MARK: - Drawing

    /// Returns the `<svg>` element.
    func render() -> String {
        let (width, height) = size
        let maximum = Double(max(1, transitions.map(\.count).max() ?? 1))
        var svg = "<svg class=\"flow\" viewBox=\"0 0 \(number(width)) \(number(height))\" width=\"\(number(width))\" height=\"\(number(height))\" role=\"img\" aria-label=\"Flow graph\">\n"
        svg += "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"12\" markerHeight=\"12\" orient=\"auto-start-reverse\">"
        svg += "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#5b6b82\"/></marker></defs>\n"
        for transition in transitions {
            guard let from = nodes[transition.from], let to = nodes[transition.to] else { continue }
            svg += edge(from: from, to: to, transition: transition, width: 1.5 + 8 * Double(transition.count) / maximum)
        }
        for node in nodes.values.sorted(by: { ($0.column, $0.row) < ($1.column, $1.row) }) {
            let (x, y) = origin(of: node)
            let stroke = node.isDeadEnd ? "#c0392b" : node.isEntry ? "#1f6feb" : "#8a99ad"
            let fill = node.isDeadEnd ? "#fbeaea" : "#eef3fb"
            svg += "<g class=\"node\"><title>\(HTMLRenderer.escape(node.screen)): \(node.visits) visits</title>"
            svg += "<rect x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(SVGFlowGraph.nodeWidth))\" height=\"\(number(SVGFlowGraph.nodeHeight))\" rx=\"8\" fill=\"\(fill)\" stroke=\"\(stroke)\" stroke-width=\"\(node.isEntry ? 2.5 : 1.5)\"/>"
            svg += "<text x=\"\(number(x + SVGFlowGraph.nodeWidth / 2))\" y=\"\(number(y + 19))\" text-anchor=\"middle\" class=\"name\">\(HTMLRenderer.escape(node.screen))</text>"
            var detail = "\(node.visits) visits"
            if let median = node.medianMilliseconds { detail += " · \(ReportSection.milliseconds(median)) ms" }
            svg += "<text x=\"\(number(x + SVGFlowGraph.nodeWidth / 2))\" y=\"\(number(y + 36))\" text-anchor=\"middle\" class=\"detail\">\(HTMLRenderer.escape(detail))</text></g>\n"
        }
        return svg + "</svg>"
    }

    private func edge(from: Node, to: Node, transition: FlowReport.TransitionFigure, width: Double) -> String {
        let (fromX, fromY) = origin(of: from)
        let (toX, toY) = origin(of: to)
        let points: [(Double, Double)]
        if to.column > from.column {
            let start = (fromX + SVGFlowGraph.nodeWidth, fromY + SVGFlowGraph.nodeHeight / 2)
            let end = (toX, toY + SVGFlowGraph.nodeHeight / 2)
            let bend = (end.0 - start.0) / 2
            points = [start, (start.0 + bend, start.1), (end.0 - bend, end.1), end]
        } else {
            // Backward, same column or self: an arc over the top, higher for longer jumps.
            let lift = 30 + 20 * Double(abs(from.column - to.column)) + (from.screen == to.screen ? 0 : 10)
            let start = (fromX + SVGFlowGraph.nodeWidth * 0.65, fromY)
            let end = (toX + SVGFlowGraph.nodeWidth * 0.35, toY)
            let top = min(start.1, end.1) - lift
            points = [start, (start.0, top), (end.0, top), end]
        }
        let (p0, p1, p2, p3) = (points[0], points[1], points[2], points[3])
        let labelX = (p0.0 + 3 * p1.0 + 3 * p2.0 + p3.0) / 8
        let labelY = (p0.1 + 3 * p1.1 + 3 * p2.1 + p3.1) / 8
        let path = "M\(number(p0.0)),\(number(p0.1)) C\(number(p1.0)),\(number(p1.1)) \(number(p2.0)),\(number(p2.1)) \(number(p3.0)),\(number(p3.1))"
        let text = "\(transition.count) · \(ReportSection.percent(transition.share))"
        return "<g class=\"edge\"><title>\(HTMLRenderer.escape(transition.from)) → \(HTMLRenderer.escape(transition.to)): \(text)</title>"
            + "<path d=\"\(path)\" fill=\"none\" stroke=\"#5b6b82\" stroke-opacity=\"0.55\" stroke-width=\"\(number(width))\" marker-end=\"url(#arrow)\"/>"
            + "<text x=\"\(number(labelX))\" y=\"\(number(labelY - 4))\" text-anchor=\"middle\" class=\"label\">\(HTMLRenderer.escape(text))</text></g>\n"
    }

    private func number(_ value: Double) -> String { ReportSection.decimal(value, places: 1) }
}
