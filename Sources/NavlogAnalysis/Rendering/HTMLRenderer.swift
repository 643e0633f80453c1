import Foundation

/// Renders a report as one self-contained HTML file: inline CSS and SVG, no scripts, fonts,
/// images or links to anywhere else, so it opens the same offline or as a CI artifact.
///
/// It shows, top to bottom: a header (time range, runs, journals, filters, version), the
/// figures at a glance, the layered flow graph, the journeys by step (a Sankey), each funnel
/// once (bars, time to convert, table), dwell-time and load-time histograms, the tables
/// (transitions, dead ends, loops, leaks, churn, smells) and the coordinator trees. Counts have
/// thousands separators and durations human units (`HumanFormat`); the text, Markdown and JSON
/// renderers keep plain numbers.
public enum HTMLRenderer {
    /// How many dwell histograms the page shows, busiest screens first.
    static let histogramLimit = 12
    /// The top paths table is folded away unless its first path is taken by this share of sessions (and two at least).
    static let commonPathShare = 0.2

    /// Returns the HTML page of `report`, under a header that names the time range, runs,
    /// journals, filters and version.
    public static func render(_ report: FlowReport, title: String = "navlog report", header: HTMLReportHeader = HTMLReportHeader()) -> String {
        var body = "<h1>\(escape(title))</h1>\n"
        body += header.render(report)
        body += overview(report)
        body += flows(report)
        if let journey = SVGJourney(report: report).render() {
            body += "<h2>Journeys</h2>\n<p class=\"note\">The sessions step by step, as in Amplitude's Journeys: column n holds the screen each session showed n-th, so loops unroll to the right. Each step keeps its \(SVGJourney.screensPerStep) busiest screens and merges the rest as other; the first \(SVGJourney.stepLimit) steps are drawn. Where fewer bands leave a bar than reach it, sessions ended there.</p>\n<div class=\"scroll\">\(journey)</div>\n"
        }
        if !report.funnels.isEmpty {
            body += "<h2>Funnels</h2>\n"
            let tables = Dictionary(ReportSection.sections(of: report).filter { $0.title.hasPrefix("Funnel ") }.map { ($0.title, $0.tables) }, uniquingKeysWith: { first, _ in first })
            for funnel in report.funnels {
                body += "<h3>\(escape(funnel.name))</h3>\n<div class=\"scroll\">\(SVGCharts.funnel(funnel))</div>\n"
                body += "<p class=\"note\">Time to convert: \(escape(HumanFormat.durationLine(funnel.timeToConvert)))</p>\n"
                for table in tables["Funnel \(funnel.name)"] ?? [] { body += render(table) }
            }
        }
        body += "<h2>Dwell time</h2>\n<p class=\"note\">Time on each screen per visit, busiest screens first; the dashed line is the median.</p>\n<div class=\"charts\">\n"
        body += report.dwell.prefix(histogramLimit).map(SVGCharts.histogram).joined(separator: "\n")
        body += "\n</div>\n"
        // Screens ready as they appear take no time to load: charts only for those that do.
        let loading = report.load.filter { ($0.summary.p90Milliseconds ?? 0) >= 1 || $0.abandoned > 0 || $0.failed > 0 }
        if !loading.isEmpty {
            body += "<h2>Load time</h2>\n<p class=\"note\">From a screen's first appearance until its content is fully displayed (screen.ready); screens ready as they appear are in the table below.</p>\n<div class=\"charts\">\n"
            body += loading.prefix(histogramLimit).map(SVGCharts.histogram).joined(separator: "\n")
            body += "\n</div>\n"
        }
        // The summary is the header and figures above; each funnel's table is under its chart.
        for section in ReportSection.sections(of: report).dropFirst() where !section.title.hasPrefix("Funnel ") {
            let isDuration = section.title.hasSuffix(" (ms)")
            body += "<h2>\(escape(isDuration ? section.title.dropLast(5) + " figures" : section.title))</h2>\n"
            for line in section.lines { body += "<p>\(escape(humanized(line)))</p>\n" }
            // Long sessions make whole paths (nearly) unique: say so, and fold the table away.
            let paths = report.paths.sessionPaths
            let common = paths.first?.sessions ?? 0
            if section.title == "Top paths", paths.count > 1, Double(common) < max(2, commonPathShare * Double(report.summary.sessions)) {
                body += "<p class=\"note\">No whole path is common (the most common is taken by \(HumanFormat.count(common)) of \(HumanFormat.count(report.summary.sessions)) sessions): see the journeys above and the subpaths below.</p>\n"
                body += "<details><summary>\(HumanFormat.count(paths.count)) paths</summary>\n" + section.tables.map { render($0) }.joined() + "</details>\n"
                continue
            }
            for table in section.tables { body += render(table, hasDurations: isDuration) }
            for line in section.footer { body += "<p class=\"note\">\(escape(section.isFooterNames ? line : humanized(line)))</p>\n" }
        }
        body += lifecycleTrees(report.lifecycles)
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            <style>\(style)</style>
            </head>
            <body>
            \(body)</body>
            </html>

            """
    }

    // MARK: - Parts

    private static func overview(_ report: FlowReport) -> String {
        let figures: [(String, String)] = [
            ("sessions", HumanFormat.count(report.summary.sessions)), ("events", HumanFormat.count(report.summary.events)),
            ("screens", HumanFormat.count(report.screens.count)), ("transitions", HumanFormat.count(report.transitions.reduce(0) { $0 + $1.count })),
            ("dead-end sessions", HumanFormat.count(report.deadEnds.reduce(0) { $0 + $1.sessions })), ("leaks", HumanFormat.count(report.leaks.count)),
        ]
        return "<div class=\"figures\">" + figures.map { "<div><b>\(escape($0.1))</b><span>\(escape($0.0))</span></div>" }.joined() + "</div>\n"
    }

    /// The flow graph with its legend, which names the thresholds it applies.
    private static func flows(_ report: FlowReport) -> String {
        let html = "<h2>Flows</h2>\n"
        guard !report.screens.isEmpty else { return html + "<p>(no screens)</p>\n" }
        let graph = SVGFlowGraph(report: report)
        var legend = "Boxes are screens (visits · median dwell), in columns by their typical depth: the steps on the most likely path from where sessions start (blue border). "
        legend += "One line per pair of screens: → is the left (↓ the upper) screen to the other, ← and ↑ back; each with its count · share of the departing screen's departures. "
        legend += "Red: a dead end that matters, where at least \(ReportSection.percent(SVGFlowGraph.deadEndShare)) of visits end the session (not at an --ending screen)."
        if graph.hiddenPairs > 0 {
            legend += " Not drawn: \(HumanFormat.count(graph.hiddenPairs)) minor pair\(graph.hiddenPairs == 1 ? "" : "s") under \(ReportSection.percent(SVGFlowGraph.minorShare)) of all transitions (\(HumanFormat.count(graph.hiddenTransitions)) transitions; see the table below)."
        }
        return html + "<p class=\"note\">\(escape(legend))</p>\n<div class=\"scroll\">\(graph.render())</div>\n"
    }

    /// Returns `table` as HTML: whole numbers with thousands separators and, in a table of
    /// milliseconds, durations in human units; names as they are.
    static func render(_ table: ReportTable, hasDurations: Bool = false) -> String {
        let durationColumns = hasDurations ? Set(table.headers.enumerated().filter { ["median", "95% CI", "p90"].contains($0.element) }.map(\.offset)) : []
        func cell(_ text: String, column: Int) -> String {
            if table.nameColumns.contains(column) { return text }
            if durationColumns.contains(column) { return humanDuration(text) }
            if table.numericColumns.contains(column), let value = Int(text) { return HumanFormat.count(value) }
            return humanized(text)
        }
        var html = "<table><thead><tr>"
        html += table.headers.enumerated().map { "<th\(table.numericColumns.contains($0.offset) ? " class=\"num\"" : "")>\(escape($0.element))</th>" }.joined()
        html += "</tr></thead><tbody>\n"
        for row in table.rows {
            html += "<tr>" + row.enumerated().map { "<td\(table.numericColumns.contains($0.offset) ? " class=\"num\"" : "")>\(escape(cell($0.element, column: $0.offset)))</td>" }.joined() + "</tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    private static func lifecycleTrees(_ lifecycles: LifecycleFigures) -> String {
        guard !lifecycles.trees.isEmpty else { return "" }
        var html = "<h2>Coordinator trees</h2>\n<p class=\"note\">The first sessions' coordinators: ✓ finished, ♻ deallocated; <span class=\"bad\">leak?</span> finished but never deallocated, <span class=\"bad\">unbalanced</span> start without finish.</p>\n"
        for tree in lifecycles.trees {
            html += "<details><summary>\(escape(tree.session)) (\(tree.nodes.count) coordinators)</summary>\n<ul class=\"tree\">"
            // Children by name once per tree: a long session has a coordinator per screen shown.
            let nodes = Dictionary(tree.nodes.map { ($0.coordinator, $0) }, uniquingKeysWith: { first, _ in first })
            for root in tree.roots { html += item(root, in: nodes, depth: 0) }
            html += "</ul></details>\n"
        }
        return html
    }

    private static func item(_ node: LifecycleTree.Node, in nodes: [String: LifecycleTree.Node], depth: Int) -> String {
        var badges: [String] = []
        if node.isFinished { badges.append("✓") }
        if node.isDeallocated { badges.append("♻") }
        var html = "<li>\(escape(node.coordinator)) \(badges.joined(separator: " "))"
        if node.isFinished && !node.isDeallocated { html += " <span class=\"bad\">leak?</span>" }
        if node.isUnbalanced { html += " <span class=\"bad\">unbalanced</span>" }
        let children = node.children.compactMap { nodes[$0] }
        if !children.isEmpty, depth < 32 {
            html += "<ul>" + children.map { item($0, in: nodes, depth: depth + 1) }.joined() + "</ul>"
        }
        return html + "</li>"
    }

    /// Milliseconds written as `724.21 ms` in a sentence.
    private static let millisecondsPattern = try! NSRegularExpression(pattern: "(?<![\\w.])([0-9]+(?:\\.[0-9]+)?) ms\\b")
    /// A whole number of four digits or more that is not part of a name such as `s-1234`.
    private static let countPattern = try! NSRegularExpression(pattern: "(?<![\\w.\\-/#:])([0-9]{4,})(?![\\w.])")

    /// Returns a line of text with its `ms` durations in human units and its counts grouped:
    /// `83 in 20 sessions, shortest 630.76 ms` → `…, shortest 631 ms`; `leaks: 12345` → `leaks: 12,345`.
    static func humanized(_ text: String) -> String {
        var result = text
        for (pattern, format) in [(millisecondsPattern, { HumanFormat.duration(milliseconds: Double($0)) }), (countPattern, { Int($0).map(HumanFormat.count) ?? $0 })] {
            let whole = NSRange(result.startIndex..., in: result)
            for match in pattern.matches(in: result, range: whole).reversed() {
                guard let range = Range(match.range, in: result), let number = Range(match.range(at: 1), in: result) else { continue }
                result.replaceSubrange(range, with: format(String(result[number])))
            }
        }
        return result
    }

    /// `1662.1` → `1.7 s`, `1290.2–2297.5` → `1.3–2.3 s`; other text as it is.
    private static func humanDuration(_ text: String) -> String {
        let parts = text.split(separator: "–").map { Double($0) }
        if parts.count == 1, let value = parts[0] { return HumanFormat.duration(milliseconds: value) }
        if parts.count == 2, let low = parts[0], let high = parts[1] { return HumanFormat.durationRange(low: low, high: high) }
        return text
    }

    /// Escapes text for HTML content and attribute values.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    private static let style = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1200px;padding:0 16px;color:#1d2633}
        h1{font-size:22px}h2{font-size:17px;margin-top:32px;border-bottom:1px solid #d6dde8;padding-bottom:4px}h3{font-size:15px}
        .figures{display:flex;flex-wrap:wrap;gap:12px}.figures div{background:#f3f6fa;border-radius:8px;padding:10px 16px;min-width:110px}
        .figures b{display:block;font-size:22px}.figures span{color:#5b6b82}
        .scroll{overflow-x:auto}.charts{display:flex;flex-wrap:wrap;gap:12px}
        table{border-collapse:collapse;margin:8px 0}th,td{padding:3px 10px;border-bottom:1px solid #e4e9f0;text-align:left}
        .num{text-align:right;font-variant-numeric:tabular-nums}.note{color:#5b6b82}.bad{color:#c0392b;font-weight:600}
        svg text{font-family:system-ui,sans-serif}svg .name{font-size:13px;font-weight:600;fill:#1d2633}
        svg .detail,svg .label,svg .tick{font-size:11px;fill:#42526b}svg .tick{font-size:10px}
        dl.header{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:0 0 16px;color:#42526b}dl.header dt{font-weight:600}dl.header dd{margin:0;overflow-wrap:anywhere}svg .label{paint-order:stroke;stroke:#fff;stroke-width:3px}svg .drop{font-size:11px;fill:#c0392b}
        ul.tree,ul.tree ul{list-style:none;padding-left:18px;border-left:1px dotted #b5c0d0}
        """
}
