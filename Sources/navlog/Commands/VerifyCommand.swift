import NavlogEvents
import NavlogJournal

/// `navlog verify`: integrity of journals.
struct VerifyCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "verify",
        abstract: "Check journals: SQLite integrity, blocks, counts and seq continuity.",
        discussion: """
            Each problem names its file and seq range; a directory with no .navlog file in it is \
            one too. Exit 1 when any is found. --output json \
            prints one object: files, readable_events, and problems, each with its file, \
            seq_first and seq_last (null when no seq is at fault) and message.
            """,
        arguments: [ArgumentSpec(name: "PATH", help: "Journal directories or .navlog files.", isVariadic: true)],
        options: [.value("output", short: "o", "FORMAT", help: "text or json.", default: "text")]
    )

    let paths: [String]
    let format: String

    init(_ arguments: ParsedArguments) throws {
        paths = arguments.positionals
        format = try arguments.choice("output", ["text", "json"], default: "text")
    }

    func run() async throws -> Int32 {
        let report = JournalVerifier.verify(paths: paths)
        if format == "json" {
            Output.standardOutput(Self.json(report).serialized() + "\n")
        } else {
            var lines = report.issues.map { "problem: \($0)" }
            lines.append("\(report.files.count) file(s), \(report.readableEvents) readable event(s), \(report.issues.count) problem(s)")
            Output.standardOutput(lines.joined(separator: "\n") + "\n")
        }
        return report.isHealthy ? ExitCode.success : ExitCode.finding
    }

    /// Returns `report` as `--output json` prints it.
    static func json(_ report: VerificationReport) -> JSONValue {
        [
            "files": .array(report.files.map { .string($0) }),
            "readable_events": .int(Int64(report.readableEvents)),
            "problems": .array(report.issues.map { issue in
                [
                    "file": .string(issue.path),
                    "seq_first": issue.seqRange.map { .int(Int64($0.lowerBound)) } ?? .null,
                    "seq_last": issue.seqRange.map { .int(Int64($0.upperBound)) } ?? .null,
                    "message": .string(issue.message),
                ]
            }),
        ]
    }
}
