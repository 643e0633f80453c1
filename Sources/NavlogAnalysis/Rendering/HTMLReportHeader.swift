import Foundation
import NavlogEvents

/// What the HTML report's header says beyond the report itself: which navlog wrote it, from
/// which journals, and the filters applied.
///
/// NavlogAnalysis does not depend on NavlogCommandLine, where the version lives, so the
/// `navlog report` command passes the version in here.
public struct HTMLReportHeader: Sendable, Equatable {
    /// The navlog version that wrote the report, such as `0.1.0`.
    public var version: String?
    /// The journal directories and files read.
    public var journals: [String]
    /// The filters applied, as the user gave them: `label app_version=2.1`, `app shop`.
    public var filters: [String]

    /// Creates a header.
    public init(version: String? = nil, journals: [String] = [], filters: [String] = []) {
        self.version = version
        self.journals = journals
        self.filters = filters
    }

    /// Returns the header's definition list for `report`: time range, runs, journals, filters
    /// and version, each only when known.
    func render(_ report: FlowReport) -> String {
        var rows: [(String, String)] = []
        if let first = report.summary.firstWall, let last = report.summary.lastWall {
            let span = HumanFormat.duration(milliseconds: Double(last - first) / 1_000_000)
            rows.append(("time", "\(HTMLReportHeader.time(first)) – \(HTMLReportHeader.time(last)) (\(span))"))
        }
        let runs = report.summary.runs
        if !runs.isEmpty {
            let shown = runs.prefix(3).joined(separator: ", ") + (runs.count > 3 ? " and \(HumanFormat.count(runs.count - 3)) more" : "")
            rows.append((runs.count == 1 ? "run" : "runs (\(HumanFormat.count(runs.count)))", shown))
        }
        if !journals.isEmpty { rows.append((journals.count == 1 ? "journal" : "journals", journals.joined(separator: ", "))) }
        rows.append(("filters", filters.isEmpty ? "none: every session read" : filters.joined(separator: ", ")))
        if let version { rows.append(("navlog", version)) }
        return "<dl class=\"header\">" + rows.map { "<dt>\(HTMLRenderer.escape($0.0))</dt><dd>\(HTMLRenderer.escape($0.1))</dd>" }.joined() + "</dl>\n"
    }

    /// `2026-12-02 17:34:42 UTC`: the wall time to the second.
    static func time(_ nanoseconds: Int64) -> String {
        let text = Event.formatTime(nanoseconds, fractionDigits: 0)
        return text.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC")
    }
}
