/// The layout of a program's `--help`, shared by `navlog` and `navlogd` so that both read alike.
///
/// It knows nothing of parsing: each program describes its usage, arguments and options as rows,
/// and the layout renders them in the order OVERVIEW, discussion, USAGE, ARGUMENTS, OPTIONS
/// (always ending with `-h, --help`) and SUBCOMMANDS.
///
/// ```swift
/// let help = HelpLayout(
///     abstract: "Host sessions behind an HTTP API.",
///     usage: "navlogd [options]",
///     options: [HelpLayout.Row("--config FILE", "The JSON configuration.")]
/// )
/// print(help.rendered(), terminator: "")
/// ```
public struct HelpLayout: Sendable {
    /// One line of a section: a name on the left, its help on the right.
    public struct Row: Sendable {
        public var name: String
        public var help: String

        public init(_ name: String, _ help: String) {
            self.name = name
            self.help = help
        }
    }

    /// The width of the name column; a longer name puts its help on the next line.
    static let nameColumnWidth = 26

    public var abstract: String
    /// Paragraphs after the overview, or empty.
    public var discussion: String
    /// The usage line without `USAGE: `, such as `navlog run [options] [APP]`.
    public var usage: String
    public var arguments: [Row]
    public var options: [Row]
    public var subcommands: [Row]
    /// The command path named in the hint under the subcommands (`navlog`), when there are any.
    public var commandPath: String

    public init(
        abstract: String, discussion: String = "", usage: String, arguments: [Row] = [], options: [Row] = [],
        subcommands: [Row] = [], commandPath: String = ""
    ) {
        self.abstract = abstract
        self.discussion = discussion
        self.usage = usage
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
        self.commandPath = commandPath
    }

    /// Returns the help text, ending with a newline.
    public func rendered() -> String {
        var lines = ["OVERVIEW: \(abstract)", ""]
        if !discussion.isEmpty { lines += [discussion, ""] }
        lines += ["USAGE: \(usage)", ""]
        if !arguments.isEmpty {
            lines.append("ARGUMENTS:")
            lines += arguments.map(Self.line)
            lines.append("")
        }
        lines.append("OPTIONS:")
        lines += options.map(Self.line)
        lines.append(Self.line(Row("-h, --help", "Show help information.")))
        if !subcommands.isEmpty {
            lines += ["", "SUBCOMMANDS:"]
            lines += subcommands.map(Self.line)
            lines += ["", "  See '\(commandPath) help <subcommand>' for detailed help."]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Returns one row, its help aligned in the second column.
    static func line(_ row: Row) -> String {
        let width = nameColumnWidth
        let padded = row.name.count < width
            ? row.name + String(repeating: " ", count: width - row.name.count)
            : row.name + "\n" + String(repeating: " ", count: width + 2)
        return "  " + padded + row.help
    }
}
