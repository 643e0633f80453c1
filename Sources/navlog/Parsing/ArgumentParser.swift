import Foundation

/// The options and positional arguments given to one command, checked against its spec.
struct ParsedArguments {
    let commandPath: String
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []
    /// The options the command declares, for what they say about their values (ranges).
    private let options: [OptionSpec]

    /// Parses `arguments` against `spec`: `--name value`, `--name=value`, `-n value`, flags,
    /// and `--` before positionals that start with a dash.
    init(_ arguments: [String], spec: CommandSpec, commandPath: String) throws {
        self.commandPath = commandPath
        self.options = spec.options
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name: String
            var inlineValue: String?
            if argument.hasPrefix("--") {
                name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
            } else {
                guard argument.count == 2 else {
                    throw UsageError("unknown option '\(argument)'; short options take one letter")
                }
                let letter = argument.last!
                guard let option = spec.options.first(where: { $0.short == letter }) else {
                    throw UsageError("unknown option '\(argument)'")
                }
                name = option.name
            }
            guard let option = spec.options.first(where: { $0.name == name }) else {
                let suggestion = spec.options.map(\.name).min { editDistance($0, name) < editDistance($1, name) }
                var message = "unknown option '--\(name)'"
                if let suggestion, editDistance(suggestion, name) <= 2 { message += "; did you mean '--\(suggestion)'?" }
                throw UsageError(message)
            }
            if option.valueName == nil {
                if inlineValue != nil { throw UsageError("option '--\(name)' takes no value") }
                flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw UsageError("option '--\(name)' needs a value (\(option.valueName!))")
                }
                value = arguments[index]
                index += 1
            }
            if !option.isRepeatable, values[name] != nil {
                throw UsageError("option '--\(name)' was given more than once")
            }
            values[name, default: []].append(value)
        }
        let required = spec.arguments.filter { !$0.isOptional }.count
        if positionals.count < required {
            let missing = spec.arguments.filter { !$0.isOptional }[positionals.count]
            throw UsageError("missing argument \(missing.name)")
        }
        if !spec.arguments.contains(where: \.isVariadic), positionals.count > spec.arguments.count {
            throw UsageError("unexpected argument '\(positionals[spec.arguments.count])'")
        }
    }

    // MARK: - Access

    func flag(_ name: String) -> Bool { flags.contains(name) }

    func value(_ name: String) -> String? { values[name]?.last }

    func values(_ name: String) -> [String] { values[name] ?? [] }

    func positional(_ index: Int) -> String? { positionals.indices.contains(index) ? positionals[index] : nil }

    /// The value of `name`, which must be given.
    func require(_ name: String) throws -> String {
        guard let value = value(name) else { throw UsageError("option '--\(name)' is required") }
        return value
    }

    /// The value of `name` as an integer in the range its ``OptionSpec`` declares.
    func integer(_ name: String) throws -> Int? {
        guard let range = options.first(where: { $0.name == name })?.range else {
            preconditionFailure("option '--\(name)' declares no range")
        }
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("option '--\(name)' must be an integer \(OptionSpec.describe(range)), not '\(text)'")
        }
        return number
    }

    /// The values of a repeatable `key=value` option, in order; a value without `=` is refused.
    func keyValues(_ name: String) throws -> [(key: String, value: String)] {
        try values(name).map { text in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw UsageError("option '--\(name)' takes key=value, not '\(text)'")
            }
            return (String(text[..<equals]), String(text[text.index(after: equals)...]))
        }
    }

    /// The value of `name`, which must be one of `choices`.
    func choice(_ name: String, _ choices: [String], default fallback: String) throws -> String {
        let text = value(name) ?? fallback
        guard choices.contains(text) else {
            throw UsageError("option '--\(name)' must be one of \(choices.joined(separator: ", ")), not '\(text)'")
        }
        return text
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
