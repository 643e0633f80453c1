import Foundation
import NavlogEvents

/// A request's JSON object body, read strictly: wrong types and unknown keys are refused
/// with the field's path, as 400 errors.
struct RequestBody {
    private let members: [String: JSONValue]
    /// The fields asked for; a few, so an array beats hashing into a set.
    private var known: [String] = []

    /// Parses `bytes` as one JSON object; an empty body reads as `{}` when `isEmptyAllowed`.
    init(_ bytes: [UInt8], isEmptyAllowed: Bool = false) throws {
        if bytes.isEmpty {
            guard isEmptyAllowed else { throw APIError(status: 400, code: "missing_body", detail: "the request needs a JSON object body") }
            members = [:]
            return
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: Data(bytes), maximumDepth: 32)
        } catch {
            throw APIError.malformedJSON("\(error)")
        }
        guard case .object(let members) = value else {
            throw APIError.invalidField("body", "a JSON object", got: value)
        }
        self.members = members
    }

    /// The string field `key`; nil when absent and not `isRequired`.
    mutating func string(_ key: String, isRequired: Bool = false) throws -> String? {
        known.append(key)
        guard let value = members[key] else {
            if isRequired { throw missing(key, "a string (required)") }
            return nil
        }
        guard let text = value.stringValue else { throw APIError.invalidField(key, "a string", got: value) }
        return text
    }

    /// The field `key` as raw JSON, nil when absent.
    mutating func value(_ key: String) -> JSONValue? {
        known.append(key)
        return members[key]
    }

    /// The error for a required field that is absent: it lists the fields the body has, since
    /// a misspelt or misplaced one (`target` for `element`) is the likely cause, and the
    /// unknown-field check comes only after the required ones.
    private func missing(_ key: String, _ expectation: String) -> APIError {
        var error = APIError.invalidField(key, expectation, got: nil)
        if !members.isEmpty { error.detail += " (the body's fields: \(members.keys.sorted().joined(separator: ", ")))" }
        return error
    }

    /// Refuses the fields nobody asked for.
    func finish() throws {
        guard let unknown = members.keys.filter({ !known.contains($0) }).min() else { return }
        throw APIError(status: 400, code: "unknown_field",
                       detail: "unknown field '\(unknown)'; fields: \(Set(known).sorted().joined(separator: ", "))")
    }
}
