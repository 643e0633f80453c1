import Foundation
import NavlogCommandLine

/// Walks the command tree, prints help, parses arguments and runs the chosen command,
/// turning every error into one line on stderr and the right exit code.
enum CommandRunner {
    static func main(root: CommandNode, arguments: [String]) async -> Int32 {
        var command = root
        var path = [root.spec.name]
        var remaining = arguments
        while let first = remaining.first, !command.spec.subcommands.isEmpty, !first.hasPrefix("-") {
            if first == "help" {
                remaining.removeFirst()
                // `navlog help run` prints the help of `navlog run`.
                for name in remaining {
                    guard let sub = command.spec.subcommands.first(where: { $0.spec.name == name }) else { break }
                    command = sub
                    path.append(name)
                }
                Output.standardOutput(helpText(for: command.spec, path: path))
                return ExitCode.success
            }
            guard let sub = command.spec.subcommands.first(where: { $0.spec.name == first }) else {
                let names = command.spec.subcommands.map(\.spec.name)
                var message = "unknown command '\(first)'"
                if let close = names.min(by: { editDistance($0, first) < editDistance($1, first) }), editDistance(close, first) <= 2 {
                    message += "; did you mean '\(close)'?"
                }
                return usageFailure(message, path: path)
            }
            command = sub
            path.append(first)
            remaining.removeFirst()
        }
        let pathText = path.joined(separator: " ")
        if remaining.contains("--help") || remaining.contains("-h") {
            Output.standardOutput(helpText(for: command.spec, path: path))
            return ExitCode.success
        }
        if !command.spec.subcommands.isEmpty, remaining.isEmpty || remaining.first?.hasPrefix("-") == true {
            if remaining == ["--version"] {
                Output.standardOutput("navlog \(navlogVersion)\n")
                return ExitCode.success
            }
            if remaining.isEmpty {
                Output.standardError(helpText(for: command.spec, path: path))
                return ExitCode.usage
            }
        }
        do {
            let parsed = try ParsedArguments(remaining, spec: command.spec, commandPath: pathText)
            return try await command.run(parsed)
        } catch let error as UsageError {
            return usageFailure(error.message, path: path)
        } catch let failure as CommandFailure {
            Output.standardError("\(pathText): \(failure.message)\n")
            return failure.exitCode
        } catch {
            Output.standardError("\(pathText): \(error)\n")
            return ExitCode.trouble
        }
    }

    private static func usageFailure(_ message: String, path: [String]) -> Int32 {
        let pathText = path.joined(separator: " ")
        Output.standardError("\(pathText): \(message)\nSee '\(pathText) --help'.\n")
        return ExitCode.usage
    }

    /// Returns the help text of a command: usage, abstract, arguments, options, subcommands.
    static func helpText(for spec: CommandSpec, path: [String]) -> String {
        let usage = ([path.dropLast().joined(separator: " ")].filter { !$0.isEmpty } + [spec.usageLine]).joined(separator: " ")
        return HelpLayout(
            abstract: spec.abstract,
            discussion: spec.discussion,
            usage: usage,
            arguments: spec.arguments.map { HelpLayout.Row($0.name, $0.help) },
            options: spec.options.map { HelpLayout.Row($0.displayName, $0.fullHelp) },
            subcommands: spec.subcommands.map { HelpLayout.Row($0.spec.name, $0.spec.abstract) },
            commandPath: path.joined(separator: " ")
        ).rendered()
    }
}

/// Writes to the standard streams through `FileHandle` (Swift 6: `stdout` is not concurrency-safe).
enum Output {
    static func standardOutput(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func standardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
