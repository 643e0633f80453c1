import NavlogCommandLine

/// `navlog`: the root of the command tree.
struct NavlogCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "navlog",
        abstract: "Record, show and check how apps navigate.",
        discussion: """
            navlog runs Coordinator, MVP and VIPER apps headless, records every navigation event \
            into compressed SQLite journals, and reads them back.
            Exit codes: 0 success, 1 a finding (failed expectation, integrity problem, leak), \
            2 it could not run, 64 bad arguments.
            """,
        options: [.flag("version", help: "Print the version and exit.")],
        subcommands: [
            CommandNode(AppsCommand.self),
            CommandNode(RunCommand.self),
            CommandNode(ExploreCommand.self),
            CommandNode(ShowCommand.self),
            CommandNode(TailCommand.self),
            CommandNode(ReportCommand.self),
            CommandNode(DiffCommand.self),
            CommandNode(BaselineCommand.self),
            CommandNode(ExportCommand.self),
            CommandNode(VerifyCommand.self),
            CommandNode(SessionsCommand.self),
            CommandNode(PushCommand.self),
            CommandNode(DemoCommand.self),
            CommandNode(CompletionsCommand.self),
            CommandNode(ManPageCommand.self),
        ]
    )

    init(_ arguments: ParsedArguments) throws {}

    func run() async throws -> Int32 {
        Output.standardOutput("navlog \(navlogVersion)\n")
        return ExitCode.success
    }
}
