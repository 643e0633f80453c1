import Foundation

/// Renders a ``FlowDiff`` as text for a terminal or a CI log: a verdict line, then the exact,
/// structural and statistical sections. Marks: `FAIL` fails the comparison, `warn` is worse
/// but does not gate, `skip` could not be judged, `ok` passed, `info` is neither.
///
/// With a coloured ``TerminalStyle``, `FAIL` and the verdict of a regression are red, `warn`
/// yellow, and the lines of exact diffs red (`-`) and green (`+`) under cyan hunk headers.
enum DiffTextRenderer {
    static func render(_ diff: FlowDiff, style: TerminalStyle = .plain) -> String {
        var lines = [style.isColored && diff.hasRegression ? style.failure(verdict(diff)) : verdict(diff), sides(diff)]
        lines += exactSection(diff, style: style)
        lines += structuralSection(diff, style: style)
        lines += statisticalSection(diff, style: style)
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Sections

    static func verdict(_ diff: FlowDiff) -> String {
        let counts = diff.counts
        return "navlog diff: \(diff.hasRegression ? "REGRESSION" : "no regression") (\(counts.failed) failed, \(counts.skipped) skipped, \(counts.compared) checks)"
    }

    static func sides(_ diff: FlowDiff) -> String {
        func text(_ side: FlowDiff.SideSummary) -> String { "\(side.sessions) sessions, \(side.events) events, \(side.runs) runs, \(side.scenarios) scenarios" }
        return "base: \(text(diff.base)); candidate: \(text(diff.candidate))"
    }

    private static func exactSection(_ diff: FlowDiff, style: TerminalStyle) -> [String] {
        guard !diff.scenarios.isEmpty else { return ["", "Exact: no scripted scenario on either side"] }
        let changed = diff.scenarios.filter { $0.status == .changed }.count
        var lines = ["", "Exact (\(changed) of \(diff.scenarios.count) scenario sessions changed)"]
        // Walks of other seeds on each side are hundreds of one-sided sessions: said once per side.
        let oneSided = [ScenarioComparison.Status.onlyInBase, .onlyInCandidate].filter { status in
            diff.scenarios.filter { $0.status == status }.count > 3
        }
        for status in oneSided {
            let sessions = diff.scenarios.filter { $0.status == status }
            let scenarios = Array(Set(sessions.map(\.scenario))).sorted()
            let listed = scenarios.prefix(3).joined(separator: ", ") + (scenarios.count > 3 ? ", …" : "")
            lines.append("  info \(sessions.count) scenario sessions \(status == .onlyInBase ? "only in the base" : "only in the candidate") (\(listed))")
        }
        for scenario in diff.scenarios where !oneSided.contains(scenario.status) {
            lines.append("  \(paint(mark(scenario), style)) \(scenario.name): \(summary(scenario))")
            for change in scenario.navigationChanges { lines.append("       \(change)") }
            for hunk in scenario.diff?.hunks ?? [] {
                lines.append("       " + style.landmark(hunk.header))
                lines += hunk.lines.map { "       " + paintDiffLine($0, style) }
            }
        }
        return lines
    }

    private static func structuralSection(_ diff: FlowDiff, style: TerminalStyle) -> [String] {
        guard !diff.structural.isEmpty else { return ["", "Structural: no change"] }
        var lines = ["", "Structural"]
        for finding in diff.structural {
            let mark = finding.isFailure ? "FAIL" : finding.kind.isRegressionKind ? "warn" : "info"
            lines.append("  \(paint(mark, style)) \(finding.kind.rawValue.replacingOccurrences(of: "_", with: " ")): \(finding.detail)")
        }
        return lines
    }

    private static func statisticalSection(_ diff: FlowDiff, style: TerminalStyle) -> [String] {
        let settings = diff.settings
        var lines = ["", "Statistical (alpha \(format(settings.alpha)) after Holm, noise \(percent(settings.noiseThreshold)), at least \(settings.minimumSamples) samples a side)"]
        let quietShares = diff.metrics.filter { $0.family == .transitionShare && ($0.status == .unchanged || $0.status == .tooFewSamples) }
        let shown = diff.metrics.filter { metric in !quietShares.contains(metric) }
        let width = min(48, shown.map(\.title.count).max() ?? 0)
        for metric in shown {
            let title = metric.title.padding(toLength: max(width, metric.title.count), withPad: " ", startingAt: 0)
            lines.append("  \(paint(mark(metric), style)) \(title)  \(describe(metric, minimumSamples: settings.minimumSamples))")
        }
        if !quietShares.isEmpty {
            let tooFew = quietShares.filter { $0.status == .tooFewSamples }.count
            lines.append("  ok   \(quietShares.count - tooFew) transition shares unchanged; \(tooFew) with too few samples")
        }
        return lines
    }

    // MARK: - Pieces

    /// A mark in its colour: `FAIL` red, `warn` yellow, the others as they are.
    static func paint(_ mark: String, _ style: TerminalStyle) -> String {
        switch mark {
        case "FAIL": style.failure(mark)
        case "warn": style.warning(mark)
        default: mark
        }
    }

    /// A line of a hunk (``SequenceDiff/Hunk/lines``): `- ` red, `+ ` green, and the field
    /// lines under a changed snapshot (`      - …`, `      + …`) the same.
    static func paintDiffLine(_ line: String, _ style: TerminalStyle) -> String {
        let content = line.drop { $0 == " " }
        guard line.hasPrefix("- ") || line.hasPrefix("+ ") || (line.hasPrefix("      ") && (content.hasPrefix("- ") || content.hasPrefix("+ "))) else {
            return line
        }
        return content.hasPrefix("-") ? style.removed(line) : style.added(line)
    }

    static func mark(_ scenario: ScenarioComparison) -> String {
        switch scenario.status {
        case .changed: scenario.isFailure ? "FAIL" : "warn"
        case .notDeterministic: "skip"
        case .same: "ok  "
        case .onlyInBase, .onlyInCandidate: "info"
        }
    }

    static func mark(_ metric: MetricComparison) -> String {
        if metric.isFailure { return "FAIL" }
        switch metric.status {
        case .regression, .changed: return "warn"
        case .tooFewSamples: return "skip"
        default: return "ok  "
        }
    }

    static func summary(_ scenario: ScenarioComparison) -> String {
        switch scenario.status {
        case .same: "identical event sequence"
        case .changed: "event sequence changed: \(scenario.diff?.removed ?? 0) removed, \(scenario.diff?.added ?? 0) added"
        case .notDeterministic: "runs of one side disagree among themselves; not compared exactly"
        case .onlyInBase: "only in the base"
        case .onlyInCandidate: "only in the candidate"
        }
    }

    /// `300.1 ms [299.8, 300.4] n=8 → 600.2 ms [599.9, 600.5] n=8, +100.0%, p=0.00016 (Holm 0.0023): regression`.
    static func describe(_ metric: MetricComparison, minimumSamples: Int) -> String {
        let sides = "\(value(metric.base, metric.unit)) → \(value(metric.candidate, metric.unit))"
        guard metric.status != .tooFewSamples else {
            return "\(sides): too few samples (base \(metric.base.count), candidate \(metric.candidate.count); need \(minimumSamples))"
        }
        var text = sides
        if let change = metric.relativeChange { text += ", \(change >= 0 ? "+" : "")\(percent(change))" }
        if let p = metric.pValue, let adjusted = metric.adjustedPValue { text += ", p=\(format(p)) (Holm \(format(adjusted)), \(metric.test ?? ""))" }
        return text + ": " + metric.status.rawValue.replacingOccurrences(of: "_", with: " ")
    }

    static func value(_ side: MetricComparison.Side, _ unit: String) -> String {
        guard let value = side.value else { return "– n=\(side.count)" }
        let interval = side.low.flatMap { low in side.high.map { "[\(number(low, unit)), \(number($0, unit))]" } } ?? "[no CI]"
        return "\(number(value, unit)) \(interval) n=\(side.count)"
    }

    private static func number(_ value: Double, _ unit: String) -> String {
        switch unit {
        case "ms": String(format: "%.1f ms", value)
        case "ratio": percent(value)
        default: String(format: "%g", value)
        }
    }

    static func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }

    /// p-values and alpha: four significant digits, scientific below 0.001.
    static func format(_ value: Double) -> String {
        value < 0.001 && value > 0 ? String(format: "%.2e", value) : String(format: "%.4g", value)
    }
}
