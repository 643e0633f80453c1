import NavlogJournal

/// `navlog verify`: integrity of journals.
struct VerifyCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "verify",
        abstract: "Check journals: SQLite integrity, blocks, counts and seq continuity.",
        discussion: "Each problem names its file and seq range. Exit 1 when any is found.",
        arguments: [ArgumentSpec(name: "PATH", help: "Journal directories or .navlog files.", isVariadic: true)]
    )

    let paths: [String]

    init(_ arguments: ParsedArguments) throws {
        paths = arguments.positionals
    }

    func run() async throws -> Int32 {
        let report = JournalVerifier.verify(paths: paths)
        var lines = report.issues.map { "problem: \($0)" }
        lines.append("\(report.files.count) file(s), \(report.readableEvents) readable event(s), \(report.issues.count) problem(s)")
        Output.standardOutput(lines.joined(separator: "\n") + "\n")
        return report.isHealthy ? ExitCode.success : ExitCode.finding
    }
}
