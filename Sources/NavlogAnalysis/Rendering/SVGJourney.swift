/// Draws the sessions' journeys step by step as a Sankey diagram, as Amplitude's Journeys
/// does: column n holds the screens sessions showed n-th, so loops unroll into later columns.
///
/// Each column keeps its `screensPerStep` busiest screens and merges the rest into `other`;
/// the first `stepLimit` steps are drawn. A bar's height is the sessions at that screen and
/// step; the part of it no band leaves from is the sessions that ended there. Built from
/// `report.paths.steps`, the flows the Mermaid sankey shows.
struct SVGJourney {
    static let stepLimit = 6
    static let screensPerStep = 5
    static let other = "other"

    static let barWidth = 112.0
    static let gap = 72.0
    static let plotHeight = 320.0
    static let nodeGap = 10.0
    static let top = 8.0

    /// One bar: a screen (or `other`) at a step.
    struct Bar {
        var step: Int
        var name: String
        var sessions: Int
    }

    /// The sessions that went from one bar to one in the next column.
    struct Band {
        var step: Int
        var from: String
        var to: String
        var count: Int
    }

    let columns: [[Bar]]
    let bands: [Band]

    init(report: FlowReport) {
        let flows = report.paths.steps.filter { $0.step < SVGJourney.stepLimit }
        var sessions: [Int: [String: (in: Int, out: Int)]] = [:]
        for flow in flows {
            sessions[flow.step, default: [:]][flow.from, default: (0, 0)].out += flow.count
            sessions[flow.step + 1, default: [:]][flow.to, default: (0, 0)].in += flow.count
        }
        var kept: [Int: Set<String>] = [:]
        var columns: [[Bar]] = []
        for step in sessions.keys.sorted() {
            let totals = sessions[step]!.map { (name: $0.key, sessions: max($0.value.in, $0.value.out)) }
                .sorted { ($1.sessions, $0.name) < ($0.sessions, $1.name) }
            kept[step] = Set(totals.prefix(SVGJourney.screensPerStep).map(\.name))
            var bars = totals.prefix(SVGJourney.screensPerStep).map { Bar(step: step, name: $0.name, sessions: $0.sessions) }
            let rest = totals.dropFirst(SVGJourney.screensPerStep).reduce(0) { $0 + $1.sessions }
            if rest > 0 { bars.append(Bar(step: step, name: SVGJourney.other, sessions: rest)) }
            columns.append(bars)
        }
        func name(_ screen: String, at step: Int) -> String { kept[step]?.contains(screen) == true ? screen : SVGJourney.other }
        var merged: [String: Band] = [:]
        for flow in flows {
            let band = Band(step: flow.step, from: name(flow.from, at: flow.step), to: name(flow.to, at: flow.step + 1), count: flow.count)
            merged["\(band.step)\u{0}\(band.from)\u{0}\(band.to)", default: Band(step: band.step, from: band.from, to: band.to, count: 0)].count += band.count
        }
        self.columns = columns
        self.bands = merged.values.sorted { ($0.step, $1.count, $0.from, $0.to) < ($1.step, $0.count, $1.from, $1.to) }
    }

    // MARK: - Drawing

    private var scale: Double {
        let busiest = columns.map { column in Double(column.reduce(0) { $0 + $1.sessions }) + SVGJourney.nodeGap * Double(column.count - 1) }.max() ?? 1
        let gaps = Double((columns.map(\.count).max() ?? 1) - 1) * SVGJourney.nodeGap
        return (SVGJourney.plotHeight - gaps) / max(1, busiest - gaps)
    }

    /// Returns the `<svg>` element, or nil when there are no steps to draw.
    func render() -> String? {
        guard columns.count > 1 else { return nil }
        let scale = self.scale
        let width = Double(columns.count) * SVGJourney.barWidth + Double(columns.count - 1) * SVGJourney.gap
        let height = SVGJourney.plotHeight + 2 * SVGJourney.top + 18
        // Where each bar starts, and how far down its bands have filled it on either side.
        var tops: [String: Double] = [:]
        for (index, column) in columns.enumerated() {
            var y = SVGJourney.top + 18
            for bar in column {
                tops["\(index + 1)\u{0}\(bar.name)"] = y
                y += Double(bar.sessions) * scale + SVGJourney.nodeGap
            }
        }
        var outgoing = tops
        var incoming = tops
        var svg = "<svg class=\"journey\" viewBox=\"0 0 \(n(width)) \(n(height))\" width=\"\(n(width))\" height=\"\(n(height))\" style=\"max-width:100%;height:auto\" role=\"img\" aria-label=\"Journeys by step\">\n"
        for index in columns.indices {
            let x = Double(index) * (SVGJourney.barWidth + SVGJourney.gap)
            svg += "<text x=\"\(n(x))\" y=\"12\" class=\"tick\">step \(index + 1)</text>"
        }
        svg += "\n"
        for band in bands {
            let fromKey = "\(band.step)\u{0}\(band.from)"
            let toKey = "\(band.step + 1)\u{0}\(band.to)"
            guard let y0 = outgoing[fromKey], let y1 = incoming[toKey] else { continue }
            let thickness = Double(band.count) * scale
            outgoing[fromKey] = y0 + thickness
            incoming[toKey] = y1 + thickness
            let x0 = Double(band.step - 1) * (SVGJourney.barWidth + SVGJourney.gap) + SVGJourney.barWidth
            let x1 = x0 + SVGJourney.gap
            let middle = (x0 + x1) / 2
            let path = "M\(n(x0)),\(n(y0)) C\(n(middle)),\(n(y0)) \(n(middle)),\(n(y1)) \(n(x1)),\(n(y1)) L\(n(x1)),\(n(y1 + thickness)) C\(n(middle)),\(n(y1 + thickness)) \(n(middle)),\(n(y0 + thickness)) \(n(x0)),\(n(y0 + thickness)) Z"
            svg += "<path d=\"\(path)\" fill=\"#1f6feb\" fill-opacity=\"0.18\"><title>\(HTMLRenderer.escape("step \(band.step) \(band.from) → \(band.to): \(HumanFormat.count(band.count)) sessions"))</title></path>\n"
        }
        for (index, column) in columns.enumerated() {
            let x = Double(index) * (SVGJourney.barWidth + SVGJourney.gap)
            for bar in column {
                let y = tops["\(index + 1)\u{0}\(bar.name)"]!
                let barHeight = max(1, Double(bar.sessions) * scale)
                let ended = bar.sessions - bands.filter { $0.step == index + 1 && $0.from == bar.name }.reduce(0) { $0 + $1.count }
                var tooltip = "step \(index + 1) \(bar.name): \(HumanFormat.count(bar.sessions)) sessions"
                if ended > 0, index + 1 < columns.count { tooltip += ", \(HumanFormat.count(ended)) ended here" }
                let fill = bar.name == SVGJourney.other ? "#c5cedb" : "#dbe6f7"
                svg += "<g><title>\(HTMLRenderer.escape(tooltip))</title><rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(SVGJourney.barWidth))\" height=\"\(n(barHeight))\" rx=\"3\" fill=\"\(fill)\" stroke=\"#8a99ad\"/>"
                // A label only where the bar is tall enough to hold it.
                if barHeight >= 15 {
                    let label = SVGJourney.fitted("\(bar.name) \(HumanFormat.count(bar.sessions))")
                    svg += "<text x=\"\(n(x + 5))\" y=\"\(n(y + min(barHeight / 2, 14) + 4))\" class=\"detail\">\(HTMLRenderer.escape(label))</text>"
                }
                svg += "</g>\n"
            }
        }
        return svg + "</svg>"
    }

    /// Cuts a label to the width of a bar, ending it in `…`.
    static func fitted(_ text: String) -> String {
        let limit = Int((barWidth - 10) / 6.6)
        return text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    private func n(_ value: Double) -> String { ReportSection.decimal(value, places: 1) }
}
