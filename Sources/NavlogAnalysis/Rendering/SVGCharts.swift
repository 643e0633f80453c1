/// Small inline SVG charts for the HTML report: funnels and dwell-time histograms.
enum SVGCharts {
    // MARK: - Funnel

    /// Returns a funnel as horizontal bars, one per step, widths by conversion from step 1,
    /// each with its sessions, conversion and where the drop-offs went.
    static func funnel(_ funnel: FunnelFigure) -> String {
        let barWidth = 420.0
        let rowHeight = 46.0
        let labelWidth = 150.0
        let height = Double(funnel.steps.count) * rowHeight + 10
        var svg = "<svg class=\"chart\" viewBox=\"0 0 \(n(labelWidth + barWidth + 260)) \(n(height))\" width=\"\(n(labelWidth + barWidth + 260))\" height=\"\(n(height))\" role=\"img\" aria-label=\"Funnel \(HTMLRenderer.escape(funnel.name))\">\n"
        for (index, step) in funnel.steps.enumerated() {
            let y = Double(index) * rowHeight + 5
            let width = max(1, barWidth * step.conversion)
            svg += "<text x=\"\(n(labelWidth - 8))\" y=\"\(n(y + 20))\" text-anchor=\"end\" class=\"name\">\(index + 1). \(HTMLRenderer.escape(step.screen))</text>"
            svg += "<rect x=\"\(n(labelWidth))\" y=\"\(n(y + 4))\" width=\"\(n(width))\" height=\"24\" rx=\"3\" fill=\"#1f6feb\" fill-opacity=\"\(n(0.35 + 0.6 * step.conversion))\"/>"
            svg += "<text x=\"\(n(labelWidth + width + 6))\" y=\"\(n(y + 20))\" class=\"detail\">\(step.sessions) (\(ReportSection.percent(step.conversion)))</text>"
            if step.dropOff > 0 {
                let went = step.wentInstead.prefix(3).map { "\($0.name) \($0.count)" }.joined(separator: ", ")
                svg += "<text x=\"\(n(labelWidth))\" y=\"\(n(y + 41))\" class=\"drop\">drop-off \(step.dropOff)\(went.isEmpty ? "" : ": " + HTMLRenderer.escape(went))</text>"
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

    private static func histogram(screen: String, summary: DurationSummary, bins: [HistogramBin], measure: String) -> String {
        let width = 300.0
        let height = 150.0
        let plotTop = 24.0
        let plotBottom = height - 26
        let maximum = Double(max(1, bins.map(\.count).max() ?? 1))
        let barWidth = (width - 20) / Double(max(1, bins.count))
        var svg = "<svg class=\"chart\" viewBox=\"0 0 \(n(width)) \(n(height))\" width=\"\(n(width))\" height=\"\(n(height))\" role=\"img\" aria-label=\"\(measure) of \(HTMLRenderer.escape(screen))\">\n"
        svg += "<text x=\"10\" y=\"15\" class=\"name\">\(HTMLRenderer.escape(screen))</text>"
        svg += "<text x=\"\(n(width - 10))\" y=\"15\" text-anchor=\"end\" class=\"detail\">median \(ReportSection.milliseconds(summary.medianMilliseconds)) ms, n \(summary.count)</text>\n"
        for (index, bin) in bins.enumerated() {
            let barHeight = (plotBottom - plotTop) * Double(bin.count) / maximum
            let x = 10 + Double(index) * barWidth
            svg += "<rect x=\"\(n(x + 1))\" y=\"\(n(plotBottom - barHeight))\" width=\"\(n(max(1, barWidth - 2)))\" height=\"\(n(barHeight))\" fill=\"#2da44e\" fill-opacity=\"0.7\">"
            svg += "<title>\(ReportSection.milliseconds(bin.lowMilliseconds))–\(ReportSection.milliseconds(bin.highMilliseconds)) ms: \(bin.count)</title></rect>\n"
        }
        svg += "<line x1=\"10\" y1=\"\(n(plotBottom))\" x2=\"\(n(width - 10))\" y2=\"\(n(plotBottom))\" stroke=\"#8a99ad\"/>"
        if let first = bins.first, let last = bins.last {
            svg += "<text x=\"10\" y=\"\(n(height - 8))\" class=\"detail\">\(ReportSection.milliseconds(first.lowMilliseconds)) ms</text>"
            svg += "<text x=\"\(n(width - 10))\" y=\"\(n(height - 8))\" text-anchor=\"end\" class=\"detail\">\(ReportSection.milliseconds(last.highMilliseconds)) ms</text>"
        }
        return svg + "\n</svg>"
    }

    private static func n(_ value: Double) -> String { ReportSection.decimal(value, places: 1) }
}
