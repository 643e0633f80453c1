/// Renders a report as plain text for a terminal: titled sections with tables fitted to a
/// width.
///
/// When a table is wider than the width, its widest text columns are narrowed, and cells
/// that no longer fit end in `…`. Numbers are never cut.
public enum TextRenderer {
    /// Returns the text of `report`, with no line longer than `width` (at least 40).
    public static func render(_ report: FlowReport, width: Int = 100) -> String {
        let width = max(40, width)
        var output = ""
        for section in ReportSection.sections(of: report) {
            output += section.title + "\n"
            output += String(repeating: "─", count: min(width, section.title.count)) + "\n"
            for line in section.lines { output += fit(line, to: width) + "\n" }
            for table in section.tables { output += render(table, width: width) }
            for line in section.footer { output += fit(line, to: width) + "\n" }
            output += "\n"
        }
        return output
    }

    // MARK: - Tables

    /// Returns the table's lines, fitted to `width`.
    static func render(_ table: ReportTable, width: Int) -> String {
        let separator = "  "
        var widths = table.headers.indices.map { column in
            ([table.headers[column]] + table.rows.map { $0[column] }).map(\.count).max() ?? 0
        }
        let budget = width - separator.count * (widths.count - 1)
        // Narrow the widest text column, one character at a time, down to 6 characters.
        while widths.reduce(0, +) > budget {
            let candidates = widths.indices.filter { !table.numericColumns.contains($0) && widths[$0] > 6 }
            guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { break }
            widths[widest] -= 1
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.indices.map { column -> String in
                let cell = fit(cells[column], to: widths[column])
                let padding = String(repeating: " ", count: max(0, widths[column] - cell.count))
                return table.numericColumns.contains(column) ? padding + cell : cell + padding
            }
            var text = padded.joined(separator: separator)
            while text.hasSuffix(" ") { text.removeLast() }
            return fit(text, to: width)
        }
        var output = line(table.headers) + "\n"
        output += line(widths.map { String(repeating: "─", count: $0) }) + "\n"
        for row in table.rows { output += line(row) + "\n" }
        return output
    }

    /// Cuts `text` to `width` characters, ending in `…` when cut.
    static func fit(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(width)) }
        return String(text.prefix(width - 1)) + "…"
    }
}
