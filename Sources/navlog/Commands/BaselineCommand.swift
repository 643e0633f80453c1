import Foundation
import NavlogAnalysis

/// `navlog baseline`: baseline files for `navlog diff`.
struct BaselineCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "baseline",
        abstract: "Save what 'navlog diff' compares into a small file to commit.",
        subcommands: [CommandNode(BaselineSaveCommand.self)]
    )

    init(_ arguments: ParsedArguments) throws {}

    func run() async throws -> Int32 {
        Output.standardError(CommandRunner.helpText(for: Self.spec, path: ["navlog", "baseline"]))
        return ExitCode.usage
    }
}

/// `navlog baseline save`: journals into a baseline file.
struct BaselineSaveCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "save",
        abstract: "Read journals and save a baseline file for 'navlog diff'.",
        discussion: """
            The file holds the exact normalized event sequence of each scenario session, the \
            structural figures, and per-metric samples (at most --sample-limit each, a seeded \
            reservoir beyond). Its format is versioned JSON, described in docs/DIFF.md. \
            --funnel, --ending and --ignore-field are stored with it and apply when diffing.
            """,
        options: [
            .value("journal", short: "j", "DIR", help: "A journal directory or file to read.", repeatable: true),
            .value("output", short: "o", "FILE", help: "The baseline file to write."),
        ] + DiffOptions.settingSpecs
    )

    let paths: [String]
    let outputPath: String
    let settings: DiffSettings

    init(_ arguments: ParsedArguments) throws {
        paths = arguments.values("journal")
        guard !paths.isEmpty else { throw UsageError("option '--journal' is required") }
        outputPath = try arguments.require("output")
        settings = try DiffOptions.settings(arguments)
    }

    func run() async throws -> Int32 {
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw CommandFailure("journal '\(path)' does not exist")
        }
        try EventQuery.refuseDirectoriesWithoutFiles(paths)
        try DiffOptions.checkBaselinePath(outputPath)
        let (side, gapStatus) = try DiffOptions.readJournals(paths, settings: settings, command: "navlog baseline save")
        guard side.sessions > 0 else { throw CommandFailure("no session in \(paths.joined(separator: ", ")); nothing to save") }
        try DiffOptions.write(DiffBaseline(side: side, settings: settings), to: outputPath)
        Output.standardOutput("saved baseline \(outputPath): \(side.sequences.count) scenario sessions, \(side.sessions) sessions, \(side.events) events\n")
        return gapStatus
    }
}
