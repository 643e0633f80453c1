import Foundation

/// Renders a ``FlowDiff`` as GitHub-flavoured Markdown for a CI job summary
/// (`>> $GITHUB_STEP_SUMMARY`): a verdict, exact diffs in `diff` blocks, structural findings
/// as a list and the statistical metrics as a table.
enum DiffMarkdownRenderer {
    static func render(_ diff: FlowDiff, title: String = "navlog diff") -> String {
        var lines = ["## \(title): \(diff.hasRegression ? "❌ regression" : "✅ no regression")", ""]
        let counts = diff.counts
        lines += ["\(counts.compared) checks: \(counts.failed) failed, \(counts.skipped) skipped. \(DiffTextRenderer.sides(diff)).", ""]
        lines += ["### Exact", ""]
        if diff.scenarios.isEmpty { lines += ["No scripted scenario on either side.", ""] }
        for scenario in diff.scenarios {
            lines.append("- **\(scenario.name)** \(DiffTextRenderer.mark(scenario).trimmingCharacters(in: .whitespaces)): \(DiffTextRenderer.summary(scenario))")
            for change in scenario.navigationChanges { lines.append("  - \(escape(change))") }
        }
        lines.append("")
        for scenario in diff.scenarios where scenario.diff != nil {
            lines += ["<details><summary>\(escape(scenario.name)) event diff</summary>", "", "```diff"]
            for hunk in scenario.diff!.hunks { lines += [hunk.header] + hunk.lines }
            lines += ["```", "", "</details>", ""]
        }
        lines += ["### Structural", ""]
        if diff.structural.isEmpty { lines.append("No change.") }
        for finding in diff.structural {
            let mark = finding.isFailure ? "FAIL" : finding.kind.isRegressionKind ? "warn" : "info"
            lines.append("- \(mark) \(finding.kind.rawValue.replacingOccurrences(of: "_", with: " ")): \(escape(finding.detail))")
        }
        lines += ["", "### Statistical", ""]
        lines.append("| | metric | base | candidate | change | p (Holm) | status |")
        lines.append("|---|---|---|---|---|---|---|")
        for metric in diff.metrics where !(metric.family == .transitionShare && metric.status == .unchanged) {
            let change = metric.relativeChange.map { ($0 >= 0 ? "+" : "") + DiffTextRenderer.percent($0) } ?? "–"
            let p = metric.pValue.map { p in "\(DiffTextRenderer.format(p)) (\(DiffTextRenderer.format(metric.adjustedPValue ?? p)))" } ?? "–"
            lines.append("| \(DiffTextRenderer.mark(metric).trimmingCharacters(in: .whitespaces)) | \(escape(metric.title)) | \(DiffTextRenderer.value(metric.base, metric.unit)) | \(DiffTextRenderer.value(metric.candidate, metric.unit)) | \(change) | \(p) | \(metric.status.rawValue.replacingOccurrences(of: "_", with: " ")) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "<", with: "&lt;")
    }
}
