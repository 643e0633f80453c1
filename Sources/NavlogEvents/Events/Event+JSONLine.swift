import Foundation

// MARK: - Reading one event line, fast

extension Event {
    /// Decodes one line of the documented JSON form (``jsonLine()``) read strictly, in one pass
    /// over its bytes without building the outer object: nil when the line is anything but a
    /// well-formed event, so that the caller's thorough reading can say what is wrong with it.
    ///
    /// A line it takes: one JSON object whose keys are the documented ones, each at most once;
    /// `run`, `session`, `kind` non-empty strings, `subject` a string, `time` an RFC 3339 time,
    /// `mono_ns` an integer of at least 0, `session_seq` one of at least 1; `seq` (ignored) an
    /// integer, `subject_type` and `cursor` (ignored: `navlog show -o json` prints a cursor)
    /// strings; `screen` and `parent` strings or null, `cause` an integer of at least 0 or
    /// null, `payload` an object (`{}` when absent). The
    /// event's seq is 0. `POST /v1/ingest` reads each line this way first.
    ///
    /// `previousRun`, the run of the line before, is reused when this line's run is the same:
    /// one string for a batch's run instead of one per event.
    public static func strictlyDecoded(jsonLine bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = 64,
                                       previousRun: String? = nil) -> Event? {
        var parser = JSONByteParser(bytes: bytes, maximumDepth: maximumDepth)
        parser.skipWhitespace()
        guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "{") else { return nil }
        parser.index += 1
        var fields = LineFields(previousRun: previousRun)
        parser.skipWhitespace()
        if parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "}") { return nil }
        do {
            while true {
                parser.skipWhitespace()
                guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "\"") else { return nil }
                guard let key = LineFields.key(at: &parser) else { return nil }
                parser.skipWhitespace()
                guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: ":") else { return nil }
                parser.index += 1
                parser.skipWhitespace()
                guard try fields.read(key, from: &parser) else { return nil }
                parser.skipWhitespace()
                guard parser.index < bytes.count else { return nil }
                if bytes[parser.index] == UInt8(ascii: ",") { parser.index += 1; continue }
                guard bytes[parser.index] == UInt8(ascii: "}") else { return nil }
                parser.index += 1
                break
            }
        } catch {
            return nil
        }
        parser.skipWhitespace()
        guard parser.index == bytes.count else { return nil }
        return fields.event()
    }
}

/// The members of one event line as ``Event/strictlyDecoded(jsonLine:maximumDepth:)`` reads them.
private struct LineFields {
    /// A bit per key read (its position in ``keys``), so a repeated key is caught without hashing.
    var seen: UInt16 = 0
    var previousRun: String?
    var wall: Int64?
    var monotonic: Int64?
    var run: String?
    var session: String?
    var sessionSeq: Int64?
    var kind: String?
    var subject: String?
    var screen: String?
    var cause: Int64?
    var parent: String?
    var payload: JSONValue?

    /// The documented keys; a key's bit in ``seen`` is its position here.
    static let keys: [[UInt8]] = ["seq", "time", "mono_ns", "run", "session", "session_seq", "kind", "subject", "subject_type",
                                  "screen", "cause", "parent", "payload", "cursor"].map { Array($0.utf8) }

    /// The position in ``keys`` of the key the parser is at (its opening quote), compared as
    /// bytes without making a string; nil for any other key, or one with escapes.
    static func key(at parser: inout JSONByteParser) -> Int? {
        let start = parser.index + 1
        var end = start
        while end < parser.bytes.count, parser.bytes[end] != UInt8(ascii: "\""), parser.bytes[end] != UInt8(ascii: "\\") { end += 1 }
        guard end < parser.bytes.count, parser.bytes[end] == UInt8(ascii: "\"") else { return nil }
        let length = end - start
        let base = parser.bytes.baseAddress! + start
        for (position, key) in keys.enumerated() where key.count == length {
            if key.withUnsafeBufferPointer({ memcmp($0.baseAddress!, base, length) == 0 }) {
                parser.index = end + 1
                return position
            }
        }
        return nil
    }

    /// Reads the value of key `key` (its position in ``keys``) at the parser; false when the key
    /// is repeated or its value of the wrong type.
    mutating func read(_ key: Int, from parser: inout JSONByteParser) throws -> Bool {
        let bit = UInt16(1) << UInt16(key)
        guard seen & bit == 0 else { return false }
        seen |= bit
        switch key {
        case 1:
            guard let bytes = Self.plainString(at: &parser) else { return false }
            wall = Event.parseTime(utf8: bytes)
        case 3:
            if let previousRun, let bytes = Self.plainString(at: &parser) {
                var previous = previousRun
                let isSame = previous.withUTF8 { $0.count == bytes.count && memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
                run = isSame ? previousRun : String(decoding: bytes, as: UTF8.self)
            } else {
                run = try string(&parser)
            }
        case 4: session = try string(&parser)
        case 6: kind = try string(&parser)
        case 7: subject = try string(&parser)
        case 8, 13: guard try string(&parser) != nil else { return false }
        case 9: guard try optionalString(&parser, into: &screen) else { return false }
        case 11: guard try optionalString(&parser, into: &parent) else { return false }
        case 0: guard try parser.parseValue(depth: 1).intValue != nil else { return false }
        case 2: monotonic = try parser.parseValue(depth: 1).intValue
        case 5: sessionSeq = try parser.parseValue(depth: 1).intValue
        case 10:
            let value = try parser.parseValue(depth: 1)
            if value == .null { return true }
            guard let number = value.intValue, number >= 0 else { return false }
            cause = number
        case 12:
            let value = try parser.parseValue(depth: 1)
            guard case .object = value else { return false }
            payload = value
        default: return false
        }
        return true
    }

    /// The bytes of the string the parser is at, when it has no escapes (the parser moves past
    /// it); nil otherwise, the parser left where it was.
    static func plainString(at parser: inout JSONByteParser) -> UnsafeBufferPointer<UInt8>? {
        guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"") else { return nil }
        let start = parser.index + 1
        var end = start
        while end < parser.bytes.count, parser.bytes[end] != UInt8(ascii: "\""), parser.bytes[end] != UInt8(ascii: "\\"),
              parser.bytes[end] >= 0x20 { end += 1 }
        guard end < parser.bytes.count, parser.bytes[end] == UInt8(ascii: "\"") else { return nil }
        parser.index = end + 1
        return UnsafeBufferPointer(rebasing: parser.bytes[start..<end])
    }

    private func string(_ parser: inout JSONByteParser) throws -> String? {
        guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"") else { return nil }
        return try parser.parseString()
    }

    private func optionalString(_ parser: inout JSONByteParser, into field: inout String?) throws -> Bool {
        if parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"") {
            field = try parser.parseString()
            return true
        }
        return try parser.parseValue(depth: 1) == .null
    }

    /// The event, nil when a required member is missing or out of range.
    func event() -> Event? {
        guard let wall, let monotonic, monotonic >= 0, let run, !run.isEmpty,
              let session, !session.isEmpty, let sessionSeq, sessionSeq >= 1, let kind, !kind.isEmpty, let subject
        else { return nil }
        return Event(wallNanoseconds: wall, monotonicNanoseconds: UInt64(monotonic), run: run, session: session,
                     sessionSeq: UInt64(sessionSeq), kind: EventKind(rawValue: kind), subject: subject, screen: screen,
                     cause: cause.map { UInt64($0) }, parent: parent, payload: payload ?? .object([:]))
    }
}
