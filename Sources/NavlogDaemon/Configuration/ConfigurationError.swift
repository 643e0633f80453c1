import NavlogEvents

/// A configuration the daemon refuses, with the key path at fault.
///
/// Its description is one line an operator can act on:
/// `journal.flush_interval_ms: must be a positive integer, got "fast"`.
public struct ConfigurationError: Error, Equatable, CustomStringConvertible {
    /// The dotted key path, such as `limits.max_sessions`; empty for the whole document.
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

// MARK: - Reading a JSON object strictly

/// Reads the members of one JSON object by key, remembering which keys were read so that
/// ``finish()`` can refuse the others.
struct ConfigurationReader {
    let path: String
    private let members: [String: JSONValue]
    private var known: [String] = []

    /// Creates a reader of `value`, which must be an object.
    init(_ value: JSONValue, path: String) throws {
        guard case .object(let members) = value else {
            throw ConfigurationError(path: path, message: "must be an object, got \(Self.describe(value))")
        }
        self.path = path
        self.members = members
    }

    /// The key path of `key` in this object.
    func path(of key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The raw value of `key`, nil when absent; marks the key as known.
    mutating func value(_ key: String) -> JSONValue? {
        known.append(key)
        return members[key]
    }

    /// The member keys, sorted.
    var keys: [String] { members.keys.sorted() }

    /// An integer in `range`; `null` is refused unless `isNullable`, in which case it yields nil.
    /// A number past the range's end is told that end, unless `expectation` already states the
    /// range (`statesRange`).
    mutating func integer(_ key: String, in range: ClosedRange<Int64>, expectation: String, statesRange: Bool = false) throws -> Int64?? {
        guard let raw = value(key) else { return .none }
        if case .null = raw { return .some(nil) }
        guard case .int(let number) = raw, range.contains(number) else {
            // Past the largest allowed, say where the range ends when the expectation does not:
            // "a positive integer" alone reads as if the number were fine.
            let bound = if case .int(let number) = raw, number > range.upperBound, !statesRange { " (at most \(range.upperBound))" } else { "" }
            throw ConfigurationError(path: path(of: key), message: "must be \(expectation)\(bound), got \(Self.describe(raw))")
        }
        return .some(number)
    }

    /// A positive integer no larger than `maximum`, or the current value when absent.
    mutating func positive(_ key: String, _ current: Int, maximum: Int64 = Int64(Int32.max)) throws -> Int {
        switch try integer(key, in: 1...maximum, expectation: "a positive integer") {
        case .none: return current
        case .some(nil): throw ConfigurationError(path: path(of: key), message: "must be a positive integer, got null")
        case .some(let number?): return Int(number)
        }
    }

    /// A string, or `null` when `isNullable`; the current value when absent.
    mutating func string(_ key: String, _ current: String?, isNullable: Bool, expectation: String = "a non-empty string") throws -> String? {
        guard let raw = value(key) else { return current }
        switch raw {
        case .null where isNullable: return nil
        case .string(let text) where !text.isEmpty: return text
        default:
            throw ConfigurationError(path: path(of: key), message: "must be \(expectation)\(isNullable ? " or null" : ""), got \(Self.describe(raw))")
        }
    }

    /// Refuses the keys nobody asked for.
    func finish() throws {
        let unknown = Set(members.keys).subtracting(known).sorted()
        guard let first = unknown.first else { return }
        throw ConfigurationError(
            path: path(of: first),
            message: "unknown key; known keys here: \(Array(Set(known)).sorted().joined(separator: ", "))"
        )
    }

    /// A short rendering of a JSON value for messages: strings quoted, long values cut.
    static func describe(_ value: JSONValue) -> String {
        let text = value.serialized()
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }
}
