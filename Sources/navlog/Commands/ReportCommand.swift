import Foundation
import NavlogAnalysis
import NavlogCommandLine
import NavlogJournal

/// `navlog report`: flows, funnels, dwell times, lifecycles and leaks from journals.
struct ReportCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "report",
        abstract: "Report how people move through the app: transitions, paths, funnels, dwell, leaks.",
        discussion: """
            Reads journal files and directories as a stream (memory stays flat in the number of \
            events) and prints a report. --output json follows the schema in docs/REPORT.md; \
            html is one self-contained file with the flow graph, funnels and dwell histograms. \
            Progress (the file, events read out of those the files hold) goes to stderr when it \
            is a terminal.
            """,
        arguments: [EventQuery.argument],
        options: [
            .value("journal", short: "j", "DIR", help: "A journal directory or file to read; same as a PATH argument.", repeatable: true),
            .value("output", short: "o", "FORMAT", help: "text, json, markdown, dot, mermaid or html.", default: "text"),
            .value("label", "KEY=VALUE", help: "Only runs with this label.", repeatable: true),
            .value("app", "NAME", help: "Only sessions of this app.", repeatable: true),
            EventQuery.sessionSpec,
            EventQuery.runSpec,
            .value("since", "TIME", help: "Only sessions starting at or after TIME (RFC 3339, or --since=-1h)."),
            .value("until", "TIME", help: "Only sessions starting before TIME."),
            .value("funnel", "[NAME=]A,B,C", help: "A funnel over these screens, in order.", repeatable: true),
            .value("from", "SCREEN", help: "Show the paths that start at SCREEN.", repeatable: true),
            .value("to", "SCREEN", help: "Show the paths that end at SCREEN.", repeatable: true),
            .value("ending", "SCREEN", help: "A screen where a session may end without being a dead end.", repeatable: true),
            .value("breakdown", "LABEL", help: "Break the core figures down by this run label, such as app_version.", repeatable: true),
            .value("top", "N", help: "How many paths to list.", in: 1...10_000, default: "10"),
            .value("width", "COLUMNS", help: "Text width.", in: 40...1000, default: "the terminal's, or 100"),
            .value("double-push-ms", "MS", help: "Pushing the same screen twice within this is a smell.", in: 1...3_600_000, default: "1000"),
            .flag("strict", help: "Exit 1 when --app, --funnel, --from, --to or --ending names something no session read shows."),
        ]
    )

    let paths: [String]
    let format: ReportFormat
    let options: ReportOptions
    let width: Int
    let isStrict: Bool
    /// The filters as given, for the HTML header.
    let filters: [String]

    init(_ arguments: ParsedArguments) throws {
        paths = try EventQuery.journalPaths(arguments)
        let name = try arguments.choice("output", ReportFormat.allCases.map(\.rawValue), default: "text")
        format = ReportFormat(rawValue: name)!
        var options = ReportOptions()
        options.labelFilter = Dictionary(try arguments.keyValues("label"), uniquingKeysWith: { $1 })
        options.apps = Set(arguments.values("app"))
        let selection = try EventQuery.selection(arguments, paths: paths)
        options.runs = selection.runs ?? []
        options.runSessions = selection.sessions?.identities ?? []
        options.sessions = selection.sessions?.unknownNames ?? []
        options.since = try arguments.value("since").map { try EventQuery.parseTime($0, option: "since") }
        options.until = try arguments.value("until").map { try EventQuery.parseTime($0, option: "until") }
        options.funnels = try DiffOptions.funnels(arguments)
        options.pathsFrom = arguments.values("from")
        options.pathsTo = arguments.values("to")
        options.expectedEndings = Set(arguments.values("ending"))
        options.breakdownLabels = arguments.values("breakdown")
        options.topCount = try arguments.integer("top") ?? 10
        options.doublePushInterval = UInt64(try arguments.integer("double-push-ms") ?? 1000) * 1_000_000
        self.options = options
        width = try arguments.integer("width") ?? ReportCommand.terminalWidth()
        isStrict = arguments.flag("strict")
        filters = ["label", "app", "session", "run", "since", "until"].flatMap { name in arguments.values(name).map { "--\(name) \($0)" } }
        try EventQuery.refuseDirectoriesWithoutFiles(paths)
    }

    func run() async throws -> Int32 {
        var progress = ProgressLine()
        let analysis: JournalAnalysis<FlowReport>
        do {
            let shown = progress.isShown
            analysis = try FlowReport.read(journals: paths, options: options, progress: shown ? { read in
                progress.updateNow {
                    "reading \(read.fileIndex + 1)/\(read.fileCount) \(read.file): \(ProgressLine.events(read.eventCount, of: read.totalEvents)) read"
                }
            } : nil)
        } catch {
            progress.clear()
            throw CommandFailure("\(error)")
        }
        progress.clear()
        var text = analysis.value.rendered(as: format, width: width, header: HTMLReportHeader(version: navlogVersion, journals: paths, filters: filters))
        if !text.hasSuffix("\n") { text += "\n" }
        Output.standardOutput(text)
        let gapStatus = GapWarnings.report(analysis.gaps, command: "navlog report")
        let unseen = analysis.value.unseenNames(in: options)
        guard !unseen.isEmpty else { return gapStatus }
        Output.standardError(unseen.map { "navlog report: warning: \($0)\n" }.joined())
        return isStrict ? ExitCode.finding : gapStatus
    }

    /// The width of the terminal on stdout, else `COLUMNS`, else 100.
    static func terminalWidth() -> Int {
        var size = winsize()
        if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 40 {
            return Int(size.ws_col)
        }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns >= 40 { return columns }
        return 100
    }
}
