import Foundation
import NavlogEvents

/// A baseline file: one ``DiffSide`` saved by `navlog baseline save`, small enough to commit.
///
/// It is JSON, laid out so that a change to one event is a change to one line:
///
/// ```json
/// {
///   "format": "navlog-baseline",
///   "settings": {"expected_endings": [], "funnels": [], "ignore_fields": [], "sample_limit": 2000},
///   "side": {
///     "sequences": [
///       {
///         "events": [
///           {"k":"session.start","n":1,"p":{…},"s":"Session#1"},
///           …
/// ```
///
/// The events of seeded walks and of sequences longer than ``packingThreshold`` events are
/// packed instead, all together in `packed_events` (``PackedEvents``); such a sequence has
/// `events_packed`, its number of events, in place of `events`. Everything else is the
/// `Codable` form of ``DiffSide``, so fields added to it are saved and read back without a
/// change here. `docs/DIFF.md` describes every field.
public struct DiffBaseline: Sendable, Equatable {
    /// The value of `format`.
    public static let format = "navlog-baseline"
    /// The version this build writes. Version 2 added packed sequences; version 1 files,
    /// which hold every event inline, are read as they are.
    public static let version = 2
    /// The versions this build reads.
    public static let readableVersions: ClosedRange<Int64> = 1...2
    /// Sequences longer than this many events are packed when written.
    public static let packingThreshold = 1000
    /// How the scenario of a seeded walk begins (`explore APP seed N`): walks are packed
    /// whatever their length, as no one reviews a random walk event by event.
    static let walkPrefix = "explore "

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

    // MARK: - Reading

    /// A file that is not a baseline this build can read.
    public struct FormatError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Whether `data`, a file's first bytes, looks like a baseline rather than a journal file:
    /// JSON, whose first byte past white space is `{` or `[`. (A JSON array is no baseline, but
    /// reading it as one says so, where reading it as a journal said "not an SQLite database".)
    public static func isBaseline(_ data: Data) -> Bool {
        guard !data.starts(with: Data("SQLite format 3".utf8)) else { return false }
        let first = data.first { ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains($0) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// Reads a baseline from its JSON text, version 1 or 2.
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
        guard DiffBaseline.readableVersions.contains(version) else {
            throw FormatError(description: "baseline version \(version) is not supported (this navlog reads versions \(DiffBaseline.readableVersions.lowerBound) to \(DiffBaseline.readableVersions.upperBound))")
        }
        let settings = json["settings"] ?? .object([:])
        do {
            ignoredFields = try (settings["ignore_fields"] ?? .array([])).decode([String].self)
            let funnelList = try (settings["funnels"] ?? .array([])).decode([[String: JSONValue]].self)
            funnels = funnelList.map { Funnel(name: $0["name"]?.stringValue ?? "", steps: $0["steps"]?.arrayValue?.compactMap(\.stringValue) ?? []) }
            expectedEndings = try (settings["expected_endings"] ?? .array([])).decode([String].self)
            sampleLimit = Int(settings["sample_limit"]?.intValue ?? 2000)
            side = try DiffBaseline.readSide(json["side"] ?? .null, packed: try json["packed_events"].map(DiffBaseline.readPack))
        } catch {
            throw FormatError(description: "damaged baseline: \(error)")
        }
    }

    /// Reads `side`: its sequences by hand, inline or packed (decoding hundreds of thousands
    /// of events through `Codable` takes minutes), and the rest through `Codable`.
    private static func readSide(_ json: JSONValue, packed: PackedEvents?) throws -> DiffSide {
        guard case .object(var members) = json else { throw FormatError(description: "\"side\" is not an object") }
        var sequences: [RecordedSequence] = []
        if let list = members["sequences"] {
            guard let items = list.arrayValue else { throw FormatError(description: "\"side.sequences\" is not an array") }
            var packedCounts: [(index: Int, count: Int)] = []
            for (index, item) in items.enumerated() {
                let (sequence, packedCount) = try readSequence(item, at: index)
                sequences.append(sequence)
                if let packedCount { packedCounts.append((index, packedCount)) }
            }
            if !packedCounts.isEmpty {
                guard let packed else { throw FormatError(description: "side.sequences[\(packedCounts[0].index)] has \"events_packed\" but there is no \"packed_events\"") }
                for (place, events) in zip(packedCounts, try packed.sequences(counts: packedCounts.map(\.count))) {
                    sequences[place.index].events = events
                }
            }
            members["sequences"] = .array([])
        }
        var side = try JSONValue.object(members).decode(DiffSide.self)
        side.sequences = sequences
        return side
    }

    /// Reads one sequence; for a packed one, its events are left empty and their number
    /// returned.
    private static func readSequence(_ json: JSONValue, at index: Int) throws -> (RecordedSequence, packedCount: Int?) {
        guard case .object(var members) = json else { throw FormatError(description: "side.sequences[\(index)] is not an object") }
        var events: [NormalizedEvent] = []
        var packedCount: Int?
        if let packed = members.removeValue(forKey: "events_packed") {
            guard let count = packed.intValue, count >= 0 else { throw FormatError(description: "side.sequences[\(index)].events_packed is not a count") }
            packedCount = Int(count)
        } else {
            guard let items = members["events"]?.arrayValue else { throw FormatError(description: "side.sequences[\(index)] has no \"events\" and no \"events_packed\"") }
            do {
                events = try items.map(NormalizedEvent.init(json:))
            } catch {
                throw FormatError(description: "side.sequences[\(index)]: \(error)")
            }
        }
        members["events"] = .array([])
        var sequence = try JSONValue.object(members).decode(RecordedSequence.self)
        sequence.events = events
        return (sequence, packedCount)
    }

    private static func readPack(_ json: JSONValue) throws -> PackedEvents {
        guard let count = json["count"]?.intValue, let byteCount = json["bytes"]?.intValue, let base64 = json["zlib_base64"]?.stringValue else {
            throw FormatError(description: "\"packed_events\" needs \"count\", \"bytes\" and \"zlib_base64\"")
        }
        return PackedEvents(count: Int(count), byteCount: Int(byteCount), base64: base64)
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
