import Foundation
import NavlogEvents

extension DiffBaseline {
    /// Returns the baseline file's bytes: JSON with keys sorted, one event or figure per line;
    /// the events of seeded walks, and of sequences longer than `threshold` events, packed
    /// together in `packed_events` (see ``PackedEvents``).
    ///
    /// The file is written as it is laid out, straight into bytes: only the side without its
    /// sequences, and each sequence without its events, go through `Codable`.
    ///
    /// ```swift
    /// try baseline.serialized().write(to: url, options: .atomic)
    /// ```
    public func serialized(packingSequencesLongerThan threshold: Int = DiffBaseline.packingThreshold) throws -> Data {
        let isPacked = side.sequences.map { $0.events.count > threshold || $0.scenario.hasPrefix(DiffBaseline.walkPrefix) }
        var bare = side
        bare.sequences = []
        var members = try DiffBaseline.members(of: bare, leaving: "sequences", objectDepth: 1)
        let sequences = try zip(side.sequences, isPacked).map { try DiffBaseline.members(of: $0, isPacked: $1) }
        members.append(Member(key: "sequences") { writer in
            writer.writeArray(sequences, depth: 2) { writer, sequence in writer.writeObject(sequence, depth: 3) }
        })
        let settings: JSONValue = .object([
            "ignore_fields": .array(ignoredFields.map(JSONValue.string)),
            "funnels": .array(funnels.map { .object(["name": .string($0.name), "steps": .array($0.steps.map(JSONValue.string))]) }),
            "expected_endings": .array(expectedEndings.map(JSONValue.string)),
            "sample_limit": .int(Int64(sampleLimit)),
        ])
        var root = [
            Member(key: "format") { $0.write(.string(DiffBaseline.format), depth: 1) },
            Member(key: "settings") { $0.write(settings, depth: 1) },
            Member(key: "side") { $0.writeObject(members, depth: 1) },
            Member(key: "version") { $0.write(.int(Int64(DiffBaseline.version)), depth: 1) },
        ]
        if isPacked.contains(true) {
            let packed = try PackedEvents(zip(side.sequences, isPacked).filter(\.1).map(\.0.events))
            let pack: JSONValue = ["bytes": .int(Int64(packed.byteCount)), "count": .int(Int64(packed.count)), "zlib_base64": .string(packed.base64)]
            root.append(Member(key: "packed_events") { $0.write(pack, depth: 1) })
        }
        var writer = LayoutWriter()
        writer.writeObject(root, depth: 0)
        writer.bytes.append(UInt8(ascii: "\n"))
        return Data(writer.bytes)
    }

    /// The members of one sequence, an object at depth 3: its `Codable` fields, then its
    /// events inline (one per line) or, packed, how many of the packed events are its own.
    private static func members(of sequence: RecordedSequence, isPacked: Bool) throws -> [Member] {
        var bare = sequence
        bare.events = []
        var members = try DiffBaseline.members(of: bare, leaving: "events", objectDepth: 3)
        if isPacked {
            members.append(Member(key: "events_packed") { $0.write(.int(Int64(sequence.events.count)), depth: 4) })
        } else {
            members.append(Member(key: "events") { writer in
                writer.writeArray(sequence.events, depth: 4) { writer, event in event.write(to: &writer.bytes) }
            })
        }
        return members
    }

    /// The members of `value`'s `Codable` form, an object at `objectDepth`, all but `left`,
    /// which the caller empties before and writes itself.
    private static func members(of value: some Encodable, leaving left: String, objectDepth: Int) throws -> [Member] {
        guard case .object(let members) = try JSONValue(encoding: value) else { return [] }
        return members.filter { $0.key != left }.map { key, value in Member(key: key) { $0.write(value, depth: objectDepth + 1) } }
    }
}

// MARK: - Layout

/// One member of an object being written: its key, and what writes its value.
private struct Member {
    var key: String
    var write: (inout LayoutWriter) -> Void
}

/// Writes JSON laid out for review: objects down to depth 4 one member per line, keys sorted;
/// arrays of objects down to depth 4 one item per line; anything deeper, and arrays of plain
/// values, on one line.
private struct LayoutWriter {
    var bytes: [UInt8] = []

    mutating func write(_ value: JSONValue, depth: Int) {
        switch value {
        case .object(let members) where depth <= 4 && !members.isEmpty:
            writeObject(members.map { key, member in Member(key: key) { $0.write(member, depth: depth + 1) } }, depth: depth)
        case .array(let items) where depth <= 4 && items.contains(where: { $0.objectValue != nil }):
            writeArray(items, depth: depth) { writer, item in writer.write(item, depth: depth + 1) }
        default:
            value.write(to: &bytes)
        }
    }

    mutating func writeObject(_ members: [Member], depth: Int) {
        guard !members.isEmpty else { return bytes += "{}".utf8 }
        bytes += "{\n".utf8
        for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
            indent(depth + 1)
            JSONValue.writeString(member.key, to: &bytes)
            bytes += ": ".utf8
            member.write(&self)
            bytes += (index + 1 < members.count ? ",\n" : "\n").utf8
        }
        indent(depth)
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func writeArray<Item>(_ items: [Item], depth: Int, _ writeItem: (inout LayoutWriter, Item) -> Void) {
        guard !items.isEmpty else { return bytes += "[]".utf8 }
        bytes += "[\n".utf8
        for (index, item) in items.enumerated() {
            indent(depth + 1)
            writeItem(&self, item)
            bytes += (index + 1 < items.count ? ",\n" : "\n").utf8
        }
        indent(depth)
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func indent(_ depth: Int) {
        bytes += repeatElement(UInt8(ascii: " "), count: 2 * depth)
    }
}
