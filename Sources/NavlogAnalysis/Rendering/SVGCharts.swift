/// Small inline SVG charts for the HTML report: funnels and dwell-time histograms.
enum SVGCharts {
    // MARK: - Funnel

    /// Returns a funnel as horizontal bars, one per step, widths by conversion from step 1,
    /// each with its sessions, conversion and where the drop-offs went.
    static func funnel(_ funnel: FunnelFigure) -> String {
        let barWidth = 420.0
        let rowHeight = 46.0
        // Room for the longest step name, so that none is clipped.
        let labelWidth = max(150, Double(funnel.steps.enumerated().map { "\($0.offset + 1). \($0.element.screen)".count }.max() ?? 0) * 8.4 + 16)
        let width = labelWidth + barWidth + 160
        let height = Double(funnel.steps.count) * rowHeight + 10
        var svg = "<svg class=\"chart\" viewBox=\"0 0 \(n(width)) \(n(height))\" width=\"\(n(width))\" height=\"\(n(height))\" style=\"max-width:100%;height:auto\" role=\"img\" aria-label=\"Funnel \(HTMLRenderer.escape(funnel.name))\">\n"
        for (index, step) in funnel.steps.enumerated() {
            let y = Double(index) * rowHeight + 5
            let width = max(1, barWidth * step.conversion)
            svg += "<text x=\"\(n(labelWidth - 8))\" y=\"\(n(y + 20))\" text-anchor=\"end\" class=\"name\">\(index + 1). \(HTMLRenderer.escape(step.screen))</text>"
            svg += "<rect x=\"\(n(labelWidth))\" y=\"\(n(y + 4))\" width=\"\(n(width))\" height=\"24\" rx=\"3\" fill=\"#1f6feb\" fill-opacity=\"\(n(0.35 + 0.6 * step.conversion))\"/>"
            svg += "<text x=\"\(n(labelWidth + width + 6))\" y=\"\(n(y + 20))\" class=\"detail\">\(HumanFormat.count(step.sessions)) (\(ReportSection.percent(step.conversion)))</text>"
            if step.dropOff > 0 {
                let went = step.wentInstead.prefix(3).map { "\($0.name) \(HumanFormat.count($0.count))" }.joined(separator: ", ")
                svg += "<text x=\"\(n(labelWidth))\" y=\"\(n(y + 41))\" class=\"drop\">drop-off \(HumanFormat.count(step.dropOff))\(went.isEmpty ? "" : ": " + HTMLRenderer.escape(went))</text>"
            }
            svg += "\n"
        }
        return svg + "</svg>"
    }

    // MARK: - Histogram

    /// Returns the histogram of one screen's dwell times, with the median marked.
    static func histogram(_ figure: FlowReport.DwellFigure) -> String {
        histogram(screen: figure.screen, summary: figure.summary, bins: figure.histogram, measure: "Dwell time")
    }

    /// Returns the histogram of one screen's load times, with the median marked.
    static func histogram(_ figure: FlowReport.LoadFigure) -> String {
        histogram(screen: figure.screen, summary: figure.summary, bins: figure.histogram, measure: "Load time")
    }

    /// The share of the visits the x axis may leave out on the right: the longest 1% at most.
    static let clippedShare = 0.01

    /// Returns the bins an axis shows: the last bins together holding at most `clippedShare`
    /// of the count are left out, and their count returned.
    static func clipped(_ bins: [HistogramBin]) -> (shown: [HistogramBin], beyond: Int) {
        let total = bins.reduce(0) { $0 + $1.count }
        var shown = bins
        var beyond = 0
        while shown.count > 1, let last = shown.last, Double(beyond + last.count) <= clippedShare * Double(total) {
            beyond += last.count
            shown.removeLast()
        }
        return (shown, beyond)
    }

    private static func histogram(screen: String, summary: DurationSummary, bins allBins: [HistogramBin], measure: String) -> String {
        let width = 300.0
        let height = 176.0
        let left = 40.0
        let right = width - 12
        let plotTop = 44.0
        let plotBottom = height - 34
        let (bins, beyond) = clipped(allBins)
        let maximum = Double(max(1, bins.map(\.count).max() ?? 1))
        let barWidth = (right - left) / Double(max(1, bins.count))
        var svg = "<svg class=\"chart\" viewBox=\"0 0 \(n(width)) \(n(height))\" width=\"\(n(width))\" height=\"\(n(height))\" role=\"img\" aria-label=\"\(measure) of \(HTMLRenderer.escape(screen))\">\n"
        svg += "<text x=\"8\" y=\"15\" class=\"name\">\(HTMLRenderer.escape(screen))</text>"
        svg += "<text x=\"8\" y=\"31\" class=\"detail\">median \(HumanFormat.duration(milliseconds: summary.medianMilliseconds)) · n \(HumanFormat.count(summary.count))</text>\n"
        for (index, bin) in bins.enumerated() {
            let barHeight = (plotBottom - plotTop) * Double(bin.count) / maximum
            let x = left + Double(index) * barWidth
            svg += "<rect x=\"\(n(x + 1))\" y=\"\(n(plotBottom - barHeight))\" width=\"\(n(max(1, barWidth - 2)))\" height=\"\(n(barHeight))\" fill=\"#2da44e\" fill-opacity=\"0.7\">"
            svg += "<title>\(HumanFormat.durationRange(low: bin.lowMilliseconds, high: bin.highMilliseconds)): \(HumanFormat.count(bin.count))</title></rect>\n"
        }
        // The median, placed within the bin it falls in (the bins may be log-spaced).
        if let median = summary.medianMilliseconds,
           let index = bins.firstIndex(where: { median >= $0.lowMilliseconds && median <= $0.highMilliseconds }) {
            let bin = bins[index]
            let within = bin.highMilliseconds > bin.lowMilliseconds ? (median - bin.lowMilliseconds) / (bin.highMilliseconds - bin.lowMilliseconds) : 0.5
            let x = left + (Double(index) + within) * barWidth
            svg += "<line x1=\"\(n(x))\" y1=\"\(n(plotTop - 4))\" x2=\"\(n(x))\" y2=\"\(n(plotBottom))\" stroke=\"#1d2633\" stroke-dasharray=\"3 2\"><title>median</title></line>"
        }
        // Axes: the y axis with its top count, the x axis with a tick at every few bin edges.
        svg += "<line x1=\"\(n(left))\" y1=\"\(n(plotTop))\" x2=\"\(n(left))\" y2=\"\(n(plotBottom))\" stroke=\"#8a99ad\"/>"
        svg += "<text x=\"\(n(left - 4))\" y=\"\(n(plotTop + 8))\" text-anchor=\"end\" class=\"tick\">\(HumanFormat.count(Int(maximum)))</text>"
        svg += "<text x=\"\(n(left - 4))\" y=\"\(n(plotBottom))\" text-anchor=\"end\" class=\"tick\">0</text>"
        svg += "<line x1=\"\(n(left))\" y1=\"\(n(plotBottom))\" x2=\"\(n(right))\" y2=\"\(n(plotBottom))\" stroke=\"#8a99ad\"/>\n"
        let step = max(1, Int((Double(bins.count) / 3).rounded(.up)))
        var edges = Array(stride(from: 0, through: bins.count, by: step))
        if edges.last != bins.count {
            if let last = edges.last, bins.count - last < step { edges.removeLast() }
            edges.append(bins.count)
        }
        for edge in edges where !bins.isEmpty {
            let value = edge < bins.count ? bins[edge].lowMilliseconds : bins[bins.count - 1].highMilliseconds
            let x = left + Double(edge) * barWidth
            let anchor = edge == 0 ? "start" : edge == bins.count ? "end" : "middle"
            svg += "<line x1=\"\(n(x))\" y1=\"\(n(plotBottom))\" x2=\"\(n(x))\" y2=\"\(n(plotBottom + 4))\" stroke=\"#8a99ad\"/>"
            svg += "<text x=\"\(n(x))\" y=\"\(n(plotBottom + 15))\" text-anchor=\"\(anchor)\" class=\"tick\">\(HumanFormat.duration(milliseconds: value))</text>"
        }
        var caption = measure.lowercased()
        // Equal-width bins have one width; log-spaced ones widen to the right.
        if let first = bins.first, let last = bins.last, bins.count > 2,
           last.highMilliseconds - last.lowMilliseconds > 1.5 * (first.highMilliseconds - first.lowMilliseconds) { caption += ", log scale" }
        if beyond > 0 { caption += " · \(HumanFormat.count(beyond)) longer not shown" }
        svg += "\n<text x=\"\(n((left + right) / 2))\" y=\"\(n(height - 4))\" text-anchor=\"middle\" class=\"tick\">\(caption)</text>"
        return svg + "\n</svg>"
    }

    private static func n(_ value: Double) -> String { ReportSection.decimal(value, places: 1) }
}
