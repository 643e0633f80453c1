/// Renders a report as GitHub-flavoured Markdown: a heading per section and pipe tables,
/// suitable for a CI step summary.
public enum MarkdownRenderer {
    /// Returns the Markdown of `report` under a level-1 `title`.
    public static func render(_ report: FlowReport, title: String = "navlog report") -> String {
        var output = "# \(escape(title))\n\n"
        for section in ReportSection.sections(of: report) {
            output += "## \(escape(section.title))\n\n"
            for line in section.lines { output += escape(line) + "\n\n" }
            for table in section.tables { output += render(table) + "\n" }
            for line in section.footer { output += escape(line) + "\n\n" }
        }
        return output
    }

    /// Returns a pipe table; numeric columns are right-aligned.
    static func render(_ table: ReportTable) -> String {
        var output = "| " + table.headers.map(escape).joined(separator: " | ") + " |\n"
        output += "|" + table.headers.indices.map { table.numericColumns.contains($0) ? " ---: " : " --- " }.joined(separator: "|") + "|\n"
        for row in table.rows {
            output += "| " + row.map(escape).joined(separator: " | ") + " |\n"
        }
        return output
    }

    /// Escapes the characters that would break a table cell or start Markdown formatting.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "|\\*_`<>[]#".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
