import Foundation

/// One option of a command: a flag (`--follow`) or an option with a value (`--journal DIR`).
struct OptionSpec: Sendable {
    /// The long name without dashes, such as `journal`.
    var name: String
    /// A one-letter short name, such as `j` for `-j`.
    var short: Character?
    /// The placeholder for the value in help, such as `DIR`; nil for a flag.
    var valueName: String?
    var help: String
    /// Whether the option may be given many times (`--label k=v --label k2=v2`).
    var isRepeatable = false
    /// The default, shown in help.
    var defaultValue: String?
    /// The integers the option accepts: ``ParsedArguments/integer(_:)`` refuses others, and
    /// help shows the range, so the limits have this one home.
    var range: ClosedRange<Int>?

    static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help)
    }

    /// An option with a value; with `range`, an integer that must lie in it.
    static func value(
        _ name: String, short: Character? = nil, _ valueName: String, help: String,
        repeatable: Bool = false, in range: ClosedRange<Int>? = nil, default defaultValue: String? = nil
    ) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: valueName, help: help, isRepeatable: repeatable, defaultValue: defaultValue, range: range)
    }

    /// The help as `--help` shows it: the text, then the default and whether it repeats.
    var fullHelp: String {
        var text = help
        if let range { text += " (\(Self.describe(range)))" }
        if let defaultValue { text += " (default: \(defaultValue))" }
        if isRepeatable { text += " (repeatable)" }
        return text
    }

    /// Returns a range as help and errors show it, such as `from 1 to 1,000,000`.
    static func describe(_ range: ClosedRange<Int>) -> String {
        "from \(range.lowerBound.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) to \(range.upperBound.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US"))))"
    }

    var displayName: String {
        var text = (short.map { "-\($0), " } ?? "") + "--\(name)"
        if let valueName { text += " \(valueName)" }
        return text
    }
}

/// One positional argument of a command.
struct ArgumentSpec: Sendable {
    var name: String
    var help: String
    var isOptional = false
    var isVariadic = false
}

/// What a command accepts and how its help reads.
struct CommandSpec: Sendable {
    var name: String
    var abstract: String
    var discussion: String = ""
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    var subcommands: [CommandNode] = []

    var usageLine: String {
        var parts = [name]
        if !subcommands.isEmpty { parts.append("<command>") }
        if !options.isEmpty { parts.append("[options]") }
        for argument in arguments {
            let text = argument.name + (argument.isVariadic ? "..." : "")
            parts.append(argument.isOptional ? "[\(text)]" : text)
        }
        return parts.joined(separator: " ")
    }
}

/// A command of the tree: it declares a spec, builds itself from parsed arguments (validating
/// them, throwing ``UsageError``) and runs, returning an exit code.
protocol ParsableCommand: SendableMetatype {
    static var spec: CommandSpec { get }
    init(_ arguments: ParsedArguments) throws
    func run() async throws -> Int32
}

/// A command of the tree as a value: its spec and how to build and run it.
///
/// (Existential metatypes, `any ParsableCommand.Type`, crash the 6.3 compiler inside async
/// `do` blocks; closures captured per concrete type avoid them.)
struct CommandNode: Sendable {
    let spec: CommandSpec
    let run: @Sendable (ParsedArguments) async throws -> Int32

    init<Command: ParsableCommand>(_ type: Command.Type) {
        spec = Command.spec
        run = { try await Command($0).run() }
    }
}

/// A command line that does not fit the command: exit code 64 (`EX_USAGE`).
struct UsageError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
    init(_ message: String) { self.message = message }
}

/// A failure while running, already explained; the exit code says what kind.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var exitCode: Int32
    var description: String { message }
    init(_ message: String, exitCode: Int32 = ExitCode.trouble) {
        self.message = message
        self.exitCode = exitCode
    }
}

/// The exit codes of STYLE.md.
enum ExitCode {
    static let success: Int32 = 0
    /// A finding: a regression, an integrity failure, a failed expectation.
    static let finding: Int32 = 1
    /// Trouble: it could not run.
    static let trouble: Int32 = 2
    /// Bad arguments (`EX_USAGE`).
    static let usage: Int32 = 64
}
