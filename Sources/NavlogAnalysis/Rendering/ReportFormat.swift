/// The output formats of `navlog report`.
public enum ReportFormat: String, CaseIterable, Sendable {
    case text, json, markdown, dot, mermaid, html
}

extension FlowReport {
    /// Returns the report in `format`.
    ///
    /// - Parameters:
    ///   - width: the terminal width text tables are fitted to.
    ///   - title: the heading of Markdown and HTML, and the graph name in DOT.
    ///   - header: what the HTML page's header says beyond the report (version, journals, filters).
    public func rendered(as format: ReportFormat, width: Int = 100, title: String = "navlog report", header: HTMLReportHeader = HTMLReportHeader()) -> String {
        switch format {
        case .text: TextRenderer.render(self, width: width)
        case .json: jsonText()
        case .markdown: MarkdownRenderer.render(self, title: title)
        case .dot: DOTRenderer.render(self, title: title)
        case .mermaid: MermaidRenderer.render(self)
        case .html: HTMLRenderer.render(self, title: title, header: header)
        }
    }
}
