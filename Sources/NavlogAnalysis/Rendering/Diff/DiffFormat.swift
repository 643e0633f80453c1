/// The output formats of `navlog diff` on standard output.
public enum DiffFormat: String, CaseIterable, Sendable {
    case text, json, markdown
}

extension FlowDiff {
    /// Returns the diff in `format`; `style` colours the text format for a terminal.
    public func rendered(as format: DiffFormat, title: String = "navlog diff", style: TerminalStyle = .plain) -> String {
        switch format {
        case .text: DiffTextRenderer.render(self, style: style)
        case .json: jsonText()
        case .markdown: DiffMarkdownRenderer.render(self, title: title)
        }
    }

    /// Returns the diff as JUnit XML: one testcase per scenario session, structural check
    /// and metric.
    public func junitXML() -> String {
        DiffJUnitRenderer.render(self)
    }

    /// Returns the JUnit XML of a run that recorded a baseline at `path` instead of comparing:
    /// one `<skipped>` testcase saying so.
    public static func junitXMLForRecordedBaseline(at path: String) -> String {
        DiffJUnitRenderer.renderRecordedBaseline(at: path)
    }

    /// Returns GitHub Actions `::error` and `::warning` lines, one per finding.
    public func githubAnnotations() -> String {
        DiffAnnotationRenderer.render(self)
    }
}
