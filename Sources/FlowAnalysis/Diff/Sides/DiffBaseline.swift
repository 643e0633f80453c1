import Foundation
import Navigation

/// A baseline file: one ``DiffSide`` saved by `navlog baseline save`, small enough to commit.
///
/// It is JSON, laid out so that a change to one event is a change to one line:
///
/// ```json
/// {
///   "format": "navlog-baseline",
///   "version": 1,
///   "settings": {"expected_endings": [], "funnels": [], "ignore_fields": [], "sample_limit": 2000},
///   "side": {
///     "sequences": [
///       {
///         "events": [
///           {"c":null,"k":"session.start","n":1,"p":{…},"parent":null,"s":"Session#1","screen":null},
///           …
/// ```
///
/// `docs/DIFF.md` describes every field.
public struct DiffBaseline: Sendable, Equatable {
    /// The value of `format`.
    public static let format = "navlog-baseline"
    /// The version this build writes and reads; older versions are read through named steps.
    public static let version = 1

    /// The settings that shaped the side: what was ignored, the funnels, the endings and the
    /// sample limit.
    public var ignoredFields: [String]
    public var funnels: [Funnel]
    public var expectedEndings: [String]
    public var sampleLimit: Int
    public var side: DiffSide

    public init(side: DiffSide, settings: DiffSettings) {
        self.side = side
        ignoredFields = settings.ignoredFields
        funnels = settings.funnels
        expectedEndings = settings.expectedEndings
        sampleLimit = settings.sampleLimit
    }

    // MARK: - Reading and writing

    /// A file that is not a baseline this build can read.
    public struct FormatError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Whether `data` looks like a baseline rather than a journal file.
    public static func isBaseline(_ data: Data) -> Bool {
        data.prefix(64).contains(UInt8(ascii: "{")) && !data.starts(with: Data("SQLite format 3".utf8))
    }

    /// Reads a baseline from its JSON text.
    public init(data: Data) throws {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: data)
        } catch {
            throw FormatError(description: "not a baseline: \(error)")
        }
        guard json["format"]?.stringValue == DiffBaseline.format else {
            throw FormatError(description: "not a baseline: \"format\" is not \"\(DiffBaseline.format)\"")
        }
        guard let version = json["version"]?.intValue else { throw FormatError(description: "no \"version\"") }
        guard version == Int64(DiffBaseline.version) else {
            throw FormatError(description: "baseline version \(version) is not supported (this navlog reads version \(DiffBaseline.version))")
        }
        let settings = json["settings"] ?? .object([:])
        do {
            ignoredFields = try (settings["ignore_fields"] ?? .array([])).decode([String].self)
            let funnelList = try (settings["funnels"] ?? .array([])).decode([[String: JSONValue]].self)
            funnels = funnelList.map { Funnel(name: $0["name"]?.stringValue ?? "", steps: $0["steps"]?.arrayValue?.compactMap(\.stringValue) ?? []) }
            expectedEndings = try (settings["expected_endings"] ?? .array([])).decode([String].self)
            sampleLimit = Int(settings["sample_limit"]?.intValue ?? 2000)
            side = try (json["side"] ?? .null).decode(DiffSide.self)
        } catch {
            throw FormatError(description: "damaged baseline: \(error)")
        }
    }

    /// The JSON text of the baseline, keys sorted, one event or figure per line.
    public func serialized() throws -> String {
        let root: JSONValue = .object([
            "format": .string(DiffBaseline.format),
            "version": .int(Int64(DiffBaseline.version)),
            "settings": .object([
                "ignore_fields": .array(ignoredFields.map(JSONValue.string)),
                "funnels": .array(funnels.map { .object(["name": .string($0.name), "steps": .array($0.steps.map(JSONValue.string))]) }),
                "expected_endings": .array(expectedEndings.map(JSONValue.string)),
                "sample_limit": .int(Int64(sampleLimit)),
            ]),
            "side": try JSONValue(encoding: side),
        ])
        var text = ""
        DiffBaseline.write(root, depth: 0, into: &text)
        return text + "\n"
    }

    /// Writes objects down to depth 4 and arrays of objects one member per line; anything
    /// deeper, and arrays of plain values, on one line.
    private static func write(_ value: JSONValue, depth: Int, into text: inout String) {
        let indent = String(repeating: "  ", count: depth + 1), closing = String(repeating: "  ", count: depth)
        switch value {
        case .object(let members) where depth <= 4 && !members.isEmpty:
            text += "{\n"
            for (index, key) in members.keys.sorted().enumerated() {
                text += indent + JSONValue.string(key).serialized() + ": "
                write(members[key]!, depth: depth + 1, into: &text)
                text += index + 1 < members.count ? ",\n" : "\n"
            }
            text += closing + "}"
        case .array(let items) where depth <= 4 && items.contains(where: { $0.objectValue != nil }):
            text += "[\n"
            for (index, item) in items.enumerated() {
                text += indent
                write(item, depth: depth + 1, into: &text)
                text += index + 1 < items.count ? ",\n" : "\n"
            }
            text += closing + "]"
        default:
            text += value.serialized()
        }
    }
}

extension DiffSide {
    /// The side with the payload fields at `paths` removed from every sequence's events too,
    /// for comparing a baseline under settings that ignore more than when it was saved.
    public func ignoring(_ paths: [String]) -> DiffSide {
        guard !paths.isEmpty else { return self }
        var side = self
        let split = paths.map { $0.split(separator: ".").map(String.init) }
        for index in side.sequences.indices {
            side.sequences[index].events = side.sequences[index].events.map { $0.ignoring(split) }
        }
        return side
    }
}
