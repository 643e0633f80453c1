import NavlogEvents

// MARK: - The baseline's JSON form, without Codable

extension NormalizedEvent {
    /// Appends the event as one JSON object, exactly as its `Codable` form encodes it: keys
    /// sorted (`c`, `k`, `n`, `p`, `parent`, `s`, `screen`), absent optionals left out.
    ///
    /// A baseline of a long walk holds hundreds of thousands of events; writing them directly
    /// is many times faster than encoding each through `Codable` into a ``JSONValue`` tree.
    func write(to output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        if let cause {
            output += #""c":"#.utf8
            JSONValue.int(Int64(bitPattern: cause)).write(to: &output)
            output.append(UInt8(ascii: ","))
        }
        output += #""k":"#.utf8
        JSONValue.writeString(kind.rawValue, to: &output)
        output += #","n":"#.utf8
        JSONValue.int(Int64(bitPattern: sessionSeq)).write(to: &output)
        output += #","p":"#.utf8
        payload.write(to: &output)
        if let parent {
            output += #","parent":"#.utf8
            JSONValue.writeString(parent, to: &output)
        }
        output += #","s":"#.utf8
        JSONValue.writeString(subject, to: &output)
        if let screen {
            output += #","screen":"#.utf8
            JSONValue.writeString(screen, to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }

    /// Reads the JSON object ``write(to:)`` and the `Codable` form write; a missing `n`, `k`,
    /// `s` or `p` is an error naming it.
    init(json: JSONValue) throws {
        guard case .object(let members) = json else { throw NormalizedEventJSONError(description: "an event is not a JSON object") }
        func require<T>(_ key: String, _ read: (JSONValue) -> T?) throws -> T {
            guard let value = members[key].flatMap(read) else {
                throw NormalizedEventJSONError(description: "event n=\(members["n"]?.description ?? "?"): \"\(key)\" is missing or has the wrong type")
            }
            return value
        }
        func optional<T>(_ key: String, _ read: (JSONValue) -> T?) throws -> T? {
            guard let value = members[key], value != .null else { return nil }
            return try require(key, read)
        }
        sessionSeq = UInt64(bitPattern: try require("n") { $0.intValue })
        kind = EventKind(rawValue: try require("k") { $0.stringValue })
        subject = try require("s") { $0.stringValue }
        screen = try optional("screen") { $0.stringValue }
        cause = try optional("c") { $0.intValue }.map { UInt64(bitPattern: $0) }
        parent = try optional("parent") { $0.stringValue }
        payload = try require("p") { $0 }
    }
}

/// An event in a baseline file that is not a normalized event.
struct NormalizedEventJSONError: Error, CustomStringConvertible {
    var description: String
}
