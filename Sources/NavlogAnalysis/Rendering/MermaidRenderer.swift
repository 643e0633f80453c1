import Foundation

/// Renders a report's flows as Mermaid diagrams: a flowchart of screens and transitions, and
/// a sankey of the same flows unrolled by step.
///
/// A sankey cannot contain loops, so its nodes are `step:Screen` (`1:Home`, `2:Detail`): the
/// n-th screen of the sessions' paths, up to ``ReportOptions/maxPathLength``.
public enum MermaidRenderer {
    /// Returns both diagrams as fenced ```` ```mermaid ```` blocks, as Markdown renderers expect.
    public static func render(_ report: FlowReport) -> String {
        "```mermaid\n\(flowchart(report))```\n\n```mermaid\n\(sankey(report))```\n"
    }

    /// Returns a `flowchart LR` with a node per screen type and an edge per transition,
    /// labelled with its count and share.
    public static func flowchart(_ report: FlowReport) -> String {
        var identifiers: [String: String] = [:]
        var lines = ["flowchart LR"]
        for (index, screen) in report.screens.enumerated() {
            identifiers[screen.screen] = "s\(index)"
            lines.append("    s\(index)[\"\(label(screen.screen))\"]")
        }
        for transition in report.transitions {
            guard let from = identifiers[transition.from], let to = identifiers[transition.to] else { continue }
            let text = "\(transition.count) (\(ReportSection.percent(transition.share)))"
            lines.append("    \(from) -->|\"\(label(text))\"| \(to)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Returns a `sankey-beta` diagram: one `source,target,value` row per step flow.
    public static func sankey(_ report: FlowReport) -> String {
        var lines = ["sankey-beta", ""]
        for flow in report.paths.steps {
            lines.append("\(field("\(flow.step):\(flow.from)")),\(field("\(flow.step + 1):\(flow.to)")),\(flow.count)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text safe inside a quoted Mermaid label: quotes become `#quot;`.
    static func label(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "#quot;")
    }

    /// A CSV field for the sankey: quoted when it holds a comma or a quote.
    static func field(_ text: String) -> String {
        guard text.contains(",") || text.contains("\"") else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
