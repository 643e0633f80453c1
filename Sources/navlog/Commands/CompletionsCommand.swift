import NavlogCommandLine

/// `navlog completions SHELL`: the shell completion script for bash, zsh or fish.
struct CompletionsCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            Generated from the commands' own specs. Install with, for example: \
            navlog completions bash > /usr/share/bash-completion/completions/navlog; \
            navlog completions zsh > "${fpath[1]}/_navlog"; \
            navlog completions fish > ~/.config/fish/completions/navlog.fish (scripts/install does all three).
            """,
        arguments: [ArgumentSpec(name: "SHELL", help: "bash, zsh or fish.")]
    )

    let shell: ShellCompletion.Shell

    init(_ arguments: ParsedArguments) throws {
        // The parser has refused a missing or a second SHELL.
        let name = arguments.positional(0) ?? ""
        guard let shell = ShellCompletion.Shell(rawValue: name) else {
            throw UsageError("unknown shell '\(name)': bash, zsh or fish")
        }
        self.shell = shell
    }

    func run() async throws -> Int32 {
        Output.standardOutput(ShellCompletion.script(for: shell, root: NavlogCommand.spec))
        return ExitCode.success
    }
}

/// `navlog manpage`: the manual page navlog(1), in roff.
struct ManPageCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "manpage",
        abstract: "Print the manual page navlog(1) in roff.",
        discussion: "Generated from the commands' own specs: navlog manpage > /usr/local/share/man/man1/navlog.1 (scripts/install puts it there)."
    )

    init(_ arguments: ParsedArguments) throws {}

    func run() async throws -> Int32 {
        Output.standardOutput(ManPage.page(root: NavlogCommand.spec, version: navlogVersion))
        return ExitCode.success
    }
}
