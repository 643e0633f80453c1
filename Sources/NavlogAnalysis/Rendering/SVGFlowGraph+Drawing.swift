/// Draws a laid-out flow graph: boxes for screens, one curve per pair with an arrowhead for
/// each direction taken, and labels placed along the curves clear of each other and the boxes.
extension SVGFlowGraph {
    static let nodeHeight = 50.0
    static let columnGap = 190.0
    static let rowGap = 64.0
    static let margin = 24.0
    /// Room above the boxes for arcs between columns that are not neighbours.
    static let arcHeight = 70.0

    /// The room kept above the boxes: none unless a pair skips a column.
    var arcRoom: Double {
        pairs.contains { pair in
            guard let first = nodes[pair.first], let second = nodes[pair.second] else { return false }
            return second.column > first.column + 1
        } ? SVGFlowGraph.arcHeight : 0
    }
    /// Estimated glyph widths (px) of the 13px bold names and the 11px labels.
    static let nameCharacterWidth = 8.4
    static let labelCharacterWidth = 6.6
    static let labelLineHeight = 14.0

    /// A rectangle in SVG units.
    struct Box {
        var left, top, right, bottom: Double

        func intersects(_ other: Box) -> Bool {
            left < other.right && other.left < right && top < other.bottom && other.top < bottom
        }
    }

    var nodeWidth: Double {
        max(160, (nodes.values.map { Double($0.screen.count) * SVGFlowGraph.nameCharacterWidth }.max() ?? 0) + 24)
    }

    private var rowsInTallestColumn: Int { (Dictionary(grouping: nodes.values, by: \.column).values.map(\.count).max() ?? 1) }

    /// The top-left corner of a screen's box; shorter columns are centred.
    func origin(of node: Node) -> (x: Double, y: Double) {
        let rowsInColumn = nodes.values.filter { $0.column == node.column }.count
        let pitch = SVGFlowGraph.nodeHeight + SVGFlowGraph.rowGap
        return (
            SVGFlowGraph.margin + Double(node.column) * (nodeWidth + SVGFlowGraph.columnGap),
            SVGFlowGraph.margin + arcRoom + Double(rowsInTallestColumn - rowsInColumn) * pitch / 2 + Double(node.row) * pitch
        )
    }

    var size: (width: Double, height: Double) {
        let columns = Double((nodes.values.map(\.column).max() ?? 0) + 1)
        let rows = Double(rowsInTallestColumn)
        return (
            2 * SVGFlowGraph.margin + columns * nodeWidth + (columns - 1) * SVGFlowGraph.columnGap,
            2 * SVGFlowGraph.margin + arcRoom + rows * SVGFlowGraph.nodeHeight + (rows - 1) * SVGFlowGraph.rowGap + 30
        )
    }

    private func box(of node: Node) -> Box {
        let (x, y) = origin(of: node)
        return Box(left: x, top: y, right: x + nodeWidth, bottom: y + SVGFlowGraph.nodeHeight)
    }

    // MARK: - Drawing

    /// Returns the `<svg>` element, scaled down to the width of its container when wider.
    func render() -> String {
        let (width, height) = size
        let maximum = Double(max(1, pairs.map(\.total).max() ?? 1))
        var svg = "<svg class=\"flow\" viewBox=\"0 0 \(number(width)) \(number(height))\" width=\"\(number(width))\" height=\"\(number(height))\" style=\"max-width:100%;height:auto\" role=\"img\" aria-label=\"Flow graph\">\n"
        svg += "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"12\" markerHeight=\"12\" orient=\"auto-start-reverse\">"
        svg += "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#5b6b82\"/></marker></defs>\n"
        var taken = nodes.values.map { box(of: $0) }.map { Box(left: $0.left - 4, top: $0.top - 4, right: $0.right + 4, bottom: $0.bottom + 4) }
        let canvas = Box(left: 0, top: 0, right: width, bottom: height)
        var labels = ""
        let ports = self.ports()
        for (index, pair) in pairs.enumerated() {
            guard let first = nodes[pair.first], let second = nodes[pair.second] else { continue }
            let curve = self.curve(from: first, to: second, ports: (ports[Port(pair: index, screen: first.screen)], ports[Port(pair: index, screen: second.screen)]))
            let path = "M\(number(curve[0].0)),\(number(curve[0].1)) C\(number(curve[1].0)),\(number(curve[1].1)) \(number(curve[2].0)),\(number(curve[2].1)) \(number(curve[3].0)),\(number(curve[3].1))"
            let markers = (pair.forward != nil ? " marker-end=\"url(#arrow)\"" : "") + (pair.backward != nil ? " marker-start=\"url(#arrow)\"" : "")
            let isVertical = first.column == second.column
            let isLoop = first.screen == second.screen
            let lines = [pair.forward.map { (isLoop ? "↻ " : isVertical ? "↓ " : "→ ") + SVGFlowGraph.figure($0) }, pair.backward.map { (isVertical ? "↑ " : "← ") + SVGFlowGraph.figure($0) }].compactMap { $0 }
            let tooltip = [pair.forward, pair.backward].compactMap { $0 }.map { "\($0.from) → \($0.to): \(SVGFlowGraph.figure($0))" }.joined(separator: "\n")
            svg += "<g class=\"edge\"><title>\(HTMLRenderer.escape(tooltip))</title>"
            svg += "<path d=\"\(path)\" fill=\"none\" stroke=\"#5b6b82\" stroke-opacity=\"0.5\" stroke-width=\"\(number(1.5 + 8 * Double(pair.total) / maximum))\"\(markers)/></g>\n"
            let label = place(lines, along: curve, avoiding: taken, within: canvas)
            taken.append(label)
            // On a white plate: a label sits on its own curve, and the thick curves of busy
            // pairs ran straight through the digits, its halo too thin to hide them.
            labels += "<rect class=\"plate\" x=\"\(number(label.left))\" y=\"\(number(label.top))\" width=\"\(number(label.right - label.left))\" "
                + "height=\"\(number(label.bottom - label.top))\" rx=\"3\" fill=\"#fff\" fill-opacity=\"0.88\"/>"
            labels += "<text class=\"label\" x=\"\(number((label.left + label.right) / 2))\" y=\"\(number(label.top + 11))\" text-anchor=\"middle\">"
            for (index, line) in lines.enumerated() {
                labels += "<tspan x=\"\(number((label.left + label.right) / 2))\" dy=\"\(index == 0 ? 0 : SVGFlowGraph.labelLineHeight)\">\(HTMLRenderer.escape(line))</tspan>"
            }
            labels += "</text>\n"
        }
        for node in nodes.values.sorted(by: { ($0.column, $0.row) < ($1.column, $1.row) }) {
            svg += draw(node)
        }
        return svg + labels + "</svg>"
    }

    private func draw(_ node: Node) -> String {
        let (x, y) = origin(of: node)
        let stroke = node.isDeadEnd ? "#c0392b" : node.isEntry ? "#1f6feb" : "#8a99ad"
        let fill = node.isDeadEnd ? "#fbeaea" : "#eef3fb"
        var tooltip = "\(node.screen): \(HumanFormat.count(node.visits)) visits"
        if node.deadEndSessions > 0 { tooltip += ", \(HumanFormat.count(node.deadEndSessions)) sessions ended here" }
        var svg = "<g class=\"node\"><title>\(HTMLRenderer.escape(tooltip))</title>"
        svg += "<rect x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(nodeWidth))\" height=\"\(number(SVGFlowGraph.nodeHeight))\" rx=\"8\" fill=\"\(fill)\" stroke=\"\(stroke)\" stroke-width=\"\(node.isEntry ? 2.5 : 1.5)\"/>"
        svg += "<text x=\"\(number(x + nodeWidth / 2))\" y=\"\(number(y + 20))\" text-anchor=\"middle\" class=\"name\">\(HTMLRenderer.escape(node.screen))</text>"
        var detail = "\(HumanFormat.count(node.visits)) visits"
        if let median = node.medianMilliseconds { detail += " · \(HumanFormat.duration(milliseconds: median))" }
        if node.isDeadEnd { detail += " · \(HumanFormat.count(node.deadEndSessions)) end" }
        svg += "<text x=\"\(number(x + nodeWidth / 2))\" y=\"\(number(y + 38))\" text-anchor=\"middle\" class=\"detail\">\(HTMLRenderer.escape(detail))</text></g>\n"
        return svg
    }

    /// `17,418 · 80.1%`: the count and its share of the departing screen's departures.
    static func figure(_ transition: FlowReport.TransitionFigure) -> String {
        "\(HumanFormat.count(transition.count)) · \(ReportSection.percent(transition.share))"
    }

    // MARK: - Geometry

    /// The cubic Bézier from the first screen to the second: side to side between neighbouring
    /// columns, an arc over the top between distant ones, a line or a bulge within a column.
    private func curve(from first: Node, to second: Node, ports: (Double?, Double?)) -> [(Double, Double)] {
        let a = box(of: first)
        let b = box(of: second)
        if first.screen == second.screen {
            // A screen shown again from itself: a loop out of the right side and back.
            let reach = SVGFlowGraph.columnGap * 0.3
            return [(a.right, a.top + 12), (a.right + reach, a.top - 16), (a.right + reach, a.bottom + 16), (a.right, a.bottom - 12)]
        }
        if second.column == first.column + 1 {
            let start = (a.right, ports.0 ?? (a.top + a.bottom) / 2)
            let end = (b.left, ports.1 ?? (b.top + b.bottom) / 2)
            let bend = (end.0 - start.0) / 2
            return [start, (start.0 + bend, start.1), (end.0 - bend, end.1), end]
        }
        if second.column > first.column {
            let lift = arcRoom * min(1, 0.5 + 0.25 * Double(second.column - first.column))
            let start = (a.left + nodeWidth * 0.7, a.top)
            let end = (b.left + nodeWidth * 0.3, b.top)
            let top = min(start.1, end.1) - lift - 20
            return [start, (start.0, top), (end.0, top), end]
        }
        if second.row == first.row + 1 {
            let x = (a.left + a.right) / 2
            return [(x, a.bottom), (x, a.bottom + 10), (x, b.top - 10), (x, b.top)]
        }
        let bulge = SVGFlowGraph.columnGap * 0.4
        let start = (a.right, ports.0 ?? (a.top + a.bottom) / 2)
        let end = (b.right, ports.1 ?? (b.top + b.bottom) / 2)
        return [start, (start.0 + bulge, start.1), (end.0 + bulge, end.1), end]
    }

    /// Where one pair's curve meets one screen's box.
    private struct Port: Hashable {
        var pair: Int
        var screen: String
    }

    /// Spreads the curves that meet one side of a box along it, ordered by where their other
    /// ends lie, so that arrowheads do not pile up at one point. Returns each port's y.
    private func ports() -> [Port: Double] {
        var sides: [String: [(port: Port, otherY: Double)]] = [:]
        for (index, pair) in pairs.enumerated() {
            guard let first = nodes[pair.first], let second = nodes[pair.second] else { continue }
            let isNeighbour = second.column == first.column + 1
            let isBulge = second.column == first.column && second.row > first.row + 1
            guard isNeighbour || isBulge else { continue }
            let (a, b) = (box(of: first), box(of: second))
            sides["\(first.screen)\u{0}right", default: []].append((Port(pair: index, screen: first.screen), b.top))
            sides["\(second.screen)\u{0}\(isNeighbour ? "left" : "right")", default: []].append((Port(pair: index, screen: second.screen), a.top))
        }
        var ports: [Port: Double] = [:]
        for (_, ends) in sides {
            let ordered = ends.sorted { ($0.otherY, $0.port.pair) < ($1.otherY, $1.port.pair) }
            for (rank, end) in ordered.enumerated() {
                guard let node = nodes[end.port.screen] else { continue }
                let top = origin(of: node).y + SVGFlowGraph.nodeHeight * 0.2
                ports[end.port] = top + SVGFlowGraph.nodeHeight * 0.6 * Double(rank + 1) / Double(ordered.count + 1)
            }
        }
        return ports
    }

    /// Finds a spot for a label near the curve that overlaps nothing placed before; tries
    /// points from the middle outwards, each nudged up and down.
    private func place(_ lines: [String], along curve: [(Double, Double)], avoiding taken: [Box], within canvas: Box) -> Box {
        let width = Double(lines.map(\.count).max() ?? 0) * SVGFlowGraph.labelCharacterWidth + 8
        let height = Double(lines.count) * SVGFlowGraph.labelLineHeight + 2
        func box(at point: (Double, Double)) -> Box {
            Box(left: point.0 - width / 2, top: point.1 - height / 2, right: point.0 + width / 2, bottom: point.1 + height / 2)
        }
        let middle = box(at: point(on: curve, at: 0.5))
        for nudge in [0.0, -1, 1, -2, 2, -3, 3, -4, 4, -6, 6] {
            for t in [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8] {
                let (x, y) = point(on: curve, at: t)
                let candidate = box(at: (x, y + nudge * SVGFlowGraph.labelLineHeight))
                let isInside = candidate.left >= canvas.left && candidate.right <= canvas.right && candidate.top >= canvas.top && candidate.bottom <= canvas.bottom
                if isInside, !taken.contains(where: { $0.intersects(candidate) }) { return candidate }
            }
        }
        return middle
    }

    private func point(on curve: [(Double, Double)], at t: Double) -> (Double, Double) {
        let u = 1 - t
        let weights = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t]
        return (zip(weights, curve).reduce(0) { $0 + $1.0 * $1.1.0 }, zip(weights, curve).reduce(0) { $0 + $1.0 * $1.1.1 })
    }

    private func number(_ value: Double) -> String { ReportSection.decimal(value, places: 1) }
}
