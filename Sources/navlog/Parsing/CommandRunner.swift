import Foundation

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
        var lines = ["OVERVIEW: \(spec.abstract)", ""]
        if !spec.discussion.isEmpty { lines += [spec.discussion, ""] }
        var usage = spec.usageLine
        usage = ([path.dropLast().joined(separator: " ")].filter { !$0.isEmpty } + [usage]).joined(separator: " ")
        lines += ["USAGE: \(usage)", ""]
        func row(_ left: String, _ right: String) -> String {
            let padded = left.count < 26 ? left + String(repeating: " ", count: 26 - left.count) : left + "\n" + String(repeating: " ", count: 28)
            return "  " + padded + right
        }
        if !spec.arguments.isEmpty {
            lines.append("ARGUMENTS:")
            for argument in spec.arguments { lines.append(row(argument.name, argument.help)) }
            lines.append("")
        }
        lines.append("OPTIONS:")
        for option in spec.options {
            var help = option.help
            if let value = option.defaultValue { help += " (default: \(value))" }
            if option.isRepeatable { help += " (repeatable)" }
            lines.append(row(option.displayName, help))
        }
        lines.append(row("-h, --help", "Show help information."))
        if !spec.subcommands.isEmpty {
            lines += ["", "SUBCOMMANDS:"]
            for sub in spec.subcommands { lines.append(row(sub.spec.name, sub.spec.abstract)) }
            lines += ["", "  See '\(path.joined(separator: " ")) help <subcommand>' for detailed help."]
        }
        return lines.joined(separator: "\n") + "\n"
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

let navlogVersion = "0.1.0"
