/// Parses the scenario language. Every error names the file and line.
public enum ScenarioParser {
    static let commands = ["app", "tap", "enter", "back", "dismiss", "select", "deeplink", "wait", "expect"]

    /// Parses `text`, naming `source` in errors.
    public static func parse(_ text: String, source: String) throws -> Scenario {
        var app: Scenario.AppLine?
        var steps: [ScenarioStep] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            let line = rawLine.trimmingCharacters(in: " \t\r")
            if line.isEmpty || line.hasPrefix("#") { continue }
            func failure(_ message: String) -> ScenarioError {
                ScenarioError(source: source, line: lineNumber, message: message)
            }
            let words: [String]
            do {
                words = try tokenize(line)
            } catch let error as TokenizeError {
                throw failure(error.message)
            }
            let command = words[0]
            let arguments = Array(words.dropFirst())
            func expectCount(_ count: Int, _ usage: String) throws {
                guard arguments.count == count else {
                    throw failure("'\(command)' takes \(count == 0 ? "no arguments" : count == 1 ? "one argument" : "\(count) arguments"): \(usage)")
                }
            }
            let parsed: ScenarioCommand
            switch command {
            case "app":
                guard let name = arguments.first else { throw failure("'app' needs an app name: app NAME [key=value]...") }
                guard app == nil else { throw failure("a scenario names its app once; the first 'app' line is line \(app!.line)") }
                guard steps.isEmpty else { throw failure("the 'app' line must come before the first step") }
                var parameters: [String: String] = [:]
                for pair in arguments.dropFirst() {
                    guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                        throw failure("app parameters are key=value, not '\(pair)'")
                    }
                    parameters[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
                }
                app = .init(name: name, parameters: parameters, line: lineNumber)
                continue
            case "tap":
                try expectCount(1, "tap ELEMENT")
                parsed = .tap(arguments[0])
            case "enter":
                try expectCount(2, "enter ELEMENT \"TEXT\"")
                parsed = .enter(arguments[0], text: arguments[1])
            case "back":
                try expectCount(0, "back")
                parsed = .back
            case "dismiss":
                try expectCount(0, "dismiss")
                parsed = .dismiss
            case "select":
                try expectCount(1, "select TAB")
                parsed = .select(arguments[0])
            case "deeplink":
                try expectCount(1, "deeplink URL")
                parsed = .deepLink(arguments[0])
            case "wait":
                guard arguments.count <= 1 else { throw failure("'wait' takes at most one duration: wait [500ms|2s|1m]") }
                if let text = arguments.first {
                    guard let duration = parseDuration(text) else {
                        throw failure("'\(text)' is not a duration; write e.g. 250ms, 2s or 1.5m")
                    }
                    parsed = .wait(nanoseconds: duration)
                } else {
                    parsed = .wait(nanoseconds: nil)
                }
            case "expect":
                guard let what = arguments.first else { throw failure("'expect' needs what to check: screen, text, no-text or stack") }
                let rest = Array(arguments.dropFirst())
                switch what {
                case "screen":
                    guard rest.count == 1 else { throw failure("'expect screen' takes one screen name: expect screen NAME") }
                    parsed = .expectScreen(rest[0])
                case "text":
                    guard rest.count == 1 else { throw failure("'expect text' takes one text; quote it: expect text \"Hello there\"") }
                    parsed = .expectText(rest[0])
                case "no-text":
                    guard rest.count == 1 else { throw failure("'expect no-text' takes one text; quote it: expect no-text \"Error\"") }
                    parsed = .expectNoText(rest[0])
                case "stack":
                    guard !rest.isEmpty else { throw failure("'expect stack' takes the screens bottom to top: expect stack Master Detail") }
                    parsed = .expectStack(rest)
                default:
                    throw failure("unknown expectation '\(what)'; use screen, text, no-text or stack")
                }
            default:
                var message = "unknown command '\(command)'"
                // On a tie, the command that starts like the typo reads as the likelier intent.
                func rank(_ candidate: String) -> Int { 2 * distance(candidate, command) + (candidate.first == command.first ? 0 : 1) }
                if let close = commands.min(by: { rank($0) < rank($1) }), distance(close, command) <= 2 {
                    message += "; did you mean '\(close)'?"
                }
                throw failure(message + " (commands: \(commands.joined(separator: ", ")))")
            }
            steps.append(ScenarioStep(line: lineNumber, command: parsed, text: line))
        }
        return Scenario(source: source, app: app, steps: steps)
    }

    /// Parses `250ms`, `2s`, `1.5s`, `1m` into nanoseconds.
    public static func parseDuration(_ text: String) -> UInt64? {
        let units: [(String, Double)] = [("ms", 1e6), ("s", 1e9), ("m", 60e9)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            guard let value = Double(text.dropLast(suffix.count)), value.isFinite, value >= 0, value * scale < 1e18 else { return nil }
            return UInt64(value * scale)
        }
        return nil
    }

    // MARK: - Tokens

    struct TokenizeError: Error {
        var message: String
    }

    /// Splits a line into words; double quotes group words, with `\"` and `\\` escapes.
    static func tokenize(_ line: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inQuotes = false
        var hasWord = false
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            if inQuotes {
                if character == "\\" {
                    guard let next = iterator.next() else { throw TokenizeError(message: "a line cannot end with '\\' inside quotes") }
                    current.append(next)
                } else if character == "\"" {
                    inQuotes = false
                } else {
                    current.append(character)
                }
            } else if character == " " || character == "\t" {
                if hasWord { words.append(current); current = ""; hasWord = false }
            } else if character == "\"" {
                inQuotes = true
                hasWord = true
            } else {
                current.append(character)
                hasWord = true
            }
        }
        guard !inQuotes else { throw TokenizeError(message: "unterminated quote") }
        if hasWord { words.append(current) }
        return words
    }

    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}

extension StringProtocol {
    func trimmingCharacters(in characters: String) -> String {
        let set = Set(characters)
        var start = startIndex
        var end = endIndex
        while start < end, set.contains(self[start]) { start = index(after: start) }
        while end > start, set.contains(self[index(before: end)]) { end = index(before: end) }
        return String(self[start..<end])
    }
}
