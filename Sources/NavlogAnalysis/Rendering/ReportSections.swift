import Foundation
import NavlogEvents

/// A table in a report section: a header, rows of cells and which columns are numbers.
struct ReportTable {
    var headers: [String]
    var rows: [[String]]
    /// Columns aligned to the right.
    var numericColumns: Set<Int>
    /// Columns that hold names (screens, sessions, label values): shown as they are, never
    /// aligned or rewritten as figures, whatever digits they have.
    var nameColumns: Set<Int> = []
}

/// One titled part of a report as tables and lines, shared by the text and Markdown
/// renderers so both say the same things.
struct ReportSection {
    var title: String
    var lines: [String] = []
    var tables: [ReportTable] = []
    /// Lines shown after the tables.
    var footer: [String] = []
    /// Whether the footer lines are made of names (such as a leak's session and subject), to be
    /// shown as they are.
    var isFooterNames = false

    /// Every section of `report`, in reading order. Empty lists say `(none)`.
    static func sections(of report: FlowReport) -> [ReportSection] {
        var sections: [ReportSection] = []
        let summary = report.summary
        var overview = ReportSection(title: "Summary")
        overview.lines = [
            "sessions: \(summary.sessions) (\(summary.completeSessions) complete), events: \(summary.events), runs: \(summary.runs.count)",
        ]
        if let first = summary.firstWall, let last = summary.lastWall {
            overview.lines.append("from \(Event.formatTime(first)) to \(Event.formatTime(last))")
        }
        sections.append(overview)
        sections.append(section("Screens", ["screen", "visits", "sessions", "entries", "exits"], report.screens.map {
            [$0.screen, "\($0.visits)", "\($0.sessions)", "\($0.entries)", "\($0.exits)"]
        }))
        sections.append(section("Transitions", ["from", "to", "count", "share"], names: [0, 1], report.transitions.map {
            [$0.from, $0.to, "\($0.count)", percent($0.share)]
        }))
        sections.append(section("Top paths", ["path", "sessions"], report.paths.sessionPaths.map { [arrow($0.screens), "\($0.sessions)"] }))
        sections.append(section("Top subpaths", ["subpath", "sessions", "total"], report.paths.subpaths.map(pathRow)))
        for anchored in report.paths.from {
            sections.append(section("Paths from \(anchored.screen)", ["path", "sessions", "total"], anchored.paths.map(pathRow)))
        }
        for anchored in report.paths.to {
            sections.append(section("Paths to \(anchored.screen)", ["path", "sessions", "total"], anchored.paths.map(pathRow)))
        }
        for funnel in report.funnels {
            var part = section("Funnel \(funnel.name)", ["step", "sessions", "conversion", "step conv.", "drop-off", "went instead"], names: [0, 5], funnel.steps.map { step in
                [step.screen, "\(step.sessions)", percent(step.conversion), percent(step.stepConversion), "\(step.dropOff)",
                 step.wentInstead.map { "\($0.name) \($0.count)" }.joined(separator: ", ")]
            })
            part.footer.append("time to convert: \(durationLine(funnel.timeToConvert))")
            sections.append(part)
        }
        var dwell = section("Dwell time (ms)", ["screen", "n", "median", "95% CI", "p90", "censored"], report.dwell.map { figure in
            let summary = figure.summary
            return [figure.screen, "\(summary.count)", milliseconds(summary.medianMilliseconds), interval(summary), milliseconds(summary.p90Milliseconds), "\(figure.censored)"]
        })
        if !report.dwell.isEmpty { dwell.footer = ["Censored: each session's last visit, cut off by its end, is left out."] }
        sections.append(dwell)
        var loads = section("Load time (ms)", ["screen", "n", "median", "95% CI", "p90", "abandoned", "failed", "empty"], report.load.map { figure in
            let summary = figure.summary
            return [figure.screen, "\(summary.count)", milliseconds(summary.medianMilliseconds), interval(summary), milliseconds(summary.p90Milliseconds),
                    "\(figure.abandoned) (\(percent(figure.abandonedShare)))", "\(figure.failed) (\(percent(figure.failedShare)))", "\(figure.empty)"]
        })
        loads.footer = ["From a screen's first appearance to its screen.ready; abandoned: left before it was ready."]
        if report.load.isEmpty { loads.footer = [] }
        sections.append(loads)
        sections.append(section("Loops", ["round trip", "sessions", "total"], report.loops.cycles.map { [arrow($0.screens), "\($0.sessions)", "\($0.total)"] }))
        sections.append(section("Repeated screens", ["screen", "sessions", "extra visits"], report.loops.repeats.map { [$0.screen, "\($0.sessions)", "\($0.extraVisits)"] }))
        sections.append(section("Dead ends", ["screen", "sessions", "examples"], names: [0, 2], report.deadEnds.map { [$0.screen, "\($0.sessions)", $0.examples.joined(separator: " ")] }))
        var lifecycles = section("Coordinator lifecycles", ["coordinator", "started", "finished", "deallocated", "unbalanced"], report.lifecycles.types.map {
            [$0.coordinator, "\($0.started)", "\($0.finished)", "\($0.deallocated)", "\($0.unbalanced)"]
        })
        lifecycles.lines = ["unbalanced instances: \(report.lifecycles.unbalanced)"]
        sections.append(lifecycles)
        var leaks = section("Leaks", ["kind", "subject", "count", "sessions"], names: [0, 1], report.leaks.groups.map { [$0.kind, $0.subjectType, "\($0.count)", "\($0.sessions)"] })
        leaks.lines = ["leaks: \(report.leaks.count)"]
        leaks.footer = report.leaks.examples.map { "\($0.session): \($0.description)" }
        leaks.isFooterNames = true
        sections.append(leaks)
        sections.append(section("View-model churn", ["screen", "visits", "changes", "per visit", "reverted", "non-rendered", "hidden"], report.churn.map {
            [$0.screen, "\($0.visits)", "\($0.changes)", decimal($0.changesPerVisit), "\($0.reverted)", "\($0.nonRendered)", "\($0.hidden)"]
        }))
        sections.append(smells(report.smells))
        for figure in report.breakdown {
            sections.append(section("Breakdown by \(figure.label)", ["value", "sessions", "events", "transitions", "dead ends", "leaks", "top transition"], names: [0, 6], figure.values.map { value in
                let top = value.transitions.first.map { "\($0.from) → \($0.to) \($0.count)" } ?? ""
                return [value.value, "\(value.sessions)", "\(value.events)", "\(value.transitions.reduce(0) { $0 + $1.count })", "\(value.deadEndSessions)", "\(value.leaks)", top]
            }))
        }
        return sections
    }

    private static func smells(_ smells: SmellFigures) -> ReportSection {
        var part = ReportSection(title: "Smells")
        let rows = smells.doublePushes.map { ["double push", $0.screen, "\($0.count) in \($0.sessions) sessions, shortest \(decimal($0.minimumIntervalMilliseconds)) ms"] }
            + smells.pingPongs.map { ["ping-pong", $0.screens.joined(separator: " ⇄ "), "\($0.sessions) sessions, up to \($0.maximumRoundTrips) round trips"] }
            + smells.changesAfterDismiss.map { ["change after dismiss", $0.screen, "\($0.count)"] }
        if rows.isEmpty {
            part.lines = ["(none)"]
        } else {
            part.tables = [ReportTable(headers: ["smell", "screens", "seen"], rows: rows, numericColumns: [], nameColumns: [1])]
        }
        return part
    }

    // MARK: - Formatting

    /// A section of one table whose columns `names` hold names (the first, by default: the
    /// screen or path the row is about).
    private static func section(_ title: String, _ headers: [String], names: Set<Int> = [0], _ rows: [[String]]) -> ReportSection {
        var part = ReportSection(title: title)
        if rows.isEmpty {
            part.lines = ["(none)"]
        } else {
            let numeric = Set(headers.indices.filter { column in !names.contains(column) && rows.allSatisfy { isNumeric($0[column]) } })
            part.tables = [ReportTable(headers: headers, rows: rows, numericColumns: numeric, nameColumns: names)]
        }
        return part
    }

    private static func isNumeric(_ cell: String) -> Bool {
        !cell.isEmpty && cell.allSatisfy { $0.isNumber || ".%–-".contains($0) || $0 == " " }
    }

    private static func pathRow(_ path: PathCount) -> [String] {
        [arrow(path.screens), "\(path.sessions)", "\(path.total)"]
    }

    static func arrow(_ screens: [String]) -> String { screens.joined(separator: " → ") }

    static func percent(_ ratio: Double) -> String { decimal(ratio * 100, places: 1) + "%" }

    static func milliseconds(_ value: Double?) -> String { value.map { decimal($0, places: 1) } ?? "–" }

    static func interval(_ summary: DurationSummary) -> String {
        guard let low = summary.ci95LowMilliseconds, let high = summary.ci95HighMilliseconds else { return "n < 6" }
        return "\(decimal(low, places: 1))–\(decimal(high, places: 1))"
    }

    static func durationLine(_ summary: DurationSummary) -> String {
        guard summary.count > 0 else { return "no conversions" }
        return "median \(milliseconds(summary.medianMilliseconds)) ms (95% CI \(interval(summary))), p90 \(milliseconds(summary.p90Milliseconds)) ms, n \(summary.count)"
    }

    /// Formats with a fixed number of decimals, trailing zeros removed.
    static func decimal(_ value: Double, places: Int = 2) -> String {
        var text = String(format: "%.\(places)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}
