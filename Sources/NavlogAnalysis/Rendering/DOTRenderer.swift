/// Renders a report's flow graph in Graphviz DOT: one node per screen type, one edge per
/// transition, widths by count.
///
/// Sessions' first screens hang off a `(start)` point; dead ends are drawn red. Render it with
/// `dot -Tsvg report.dot > flows.svg`.
public enum DOTRenderer {
    /// Returns a `digraph` of `report`'s screens and transitions.
    public static func render(_ report: FlowReport, title: String = "navlog flows") -> String {
        let maximum = max(1, report.transitions.map(\.count).max() ?? 1)
        let deadEnds = Set(report.deadEnds.map(\.screen))
        let dwell = Dictionary(report.dwell.map { ($0.screen, $0.summary) }, uniquingKeysWith: { first, _ in first })
        var lines = [
            "digraph \(quote(title)) {",
            "  rankdir=LR;",
            "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#eef3fb\", fontname=\"Helvetica\"];",
            "  edge [fontname=\"Helvetica\", fontsize=10];",
            "  \"(start)\" [shape=point, width=0.15];",
        ]
        for screen in report.screens {
            var label = "\(screen.screen)\\n\(screen.visits) visits"
            if let median = dwell[screen.screen]?.medianMilliseconds {
                label += ", median \(ReportSection.milliseconds(median)) ms"
            }
            let colour = deadEnds.contains(screen.screen) ? ", color=\"#c0392b\", fillcolor=\"#fbeaea\"" : ""
            lines.append("  \(quote(screen.screen)) [label=\"\(escape(label))\"\(colour)];")
        }
        for screen in report.screens where screen.entries > 0 {
            lines.append("  \"(start)\" -> \(quote(screen.screen)) [style=dashed, label=\"\(screen.entries)\"];")
        }
        for transition in report.transitions {
            let width = 1 + 5 * Double(transition.count) / Double(maximum)
            let label = "\(transition.count) (\(ReportSection.percent(transition.share)))"
            lines.append(
                "  \(quote(transition.from)) -> \(quote(transition.to)) [label=\"\(escape(label))\", penwidth=\(ReportSection.decimal(width))];"
            )
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A DOT double-quoted id.
    static func quote(_ text: String) -> String {
        "\"\(escape(text))\""
    }

    /// Escapes quotes and backslashes for a DOT string (keeping `\n` line breaks we add).
    static func escape(_ text: String) -> String {
        var escaped = ""
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if character == "\\", characters.first == "n" {
                escaped += "\\n"
                characters.removeFirst()
            } else if character == "\\" || character == "\"" {
                escaped += "\\\(character)"
            } else if character == "\n" {
                escaped += "\\n"
            } else {
                escaped.append(character)
            }
        }
        return escaped
    }
}
