import Foundation

// MARK: - The external JSON form (DESIGN.md, "Event model")

extension Event {
    /// Returns the event in its documented JSON form:
    /// `{"seq", "time", "mono_ns", "run", "session", "session_seq", "kind", "subject",
    /// "subject_type", "screen", "cause", "parent", "payload"}`. Absent optionals are omitted.
    public func jsonObject() -> JSONValue {
        var members: [String: JSONValue] = [
            "seq": .int(Int64(bitPattern: seq)),
            "time": .string(Event.formatTime(wallNanoseconds)),
            "mono_ns": .int(Int64(bitPattern: monotonicNanoseconds)),
            "run": .string(run),
            "session": .string(session),
            "session_seq": .int(Int64(bitPattern: sessionSeq)),
            "kind": .string(kind.rawValue),
            "subject": .string(subject),
            "subject_type": .string(subjectType),
            "payload": payload,
        ]
        if let screen { members["screen"] = .string(screen) }
        if let cause { members["cause"] = .int(Int64(bitPattern: cause)) }
        if let parent { members["parent"] = .string(parent) }
        return .object(members)
    }

    /// Returns the event as one line of JSON, keys sorted, without a trailing newline.
    public func jsonLine() -> String { jsonObject().serialized() }

    /// Creates an event from its documented JSON form; the inverse of ``jsonObject()``.
    public init(json: JSONValue) throws {
        func require<T>(_ key: String, _ read: (JSONValue) -> T?) throws -> T {
            guard let raw = json[key] else { throw EventDecodingError(key: key, reason: "missing") }
            guard let value = read(raw) else { throw EventDecodingError(key: key, reason: "has the wrong type") }
            return value
        }
        let seq: Int64 = try require("seq") { $0.intValue }
        let time: String = try require("time") { $0.stringValue }
        guard let wall = Event.parseTime(time) else {
            throw EventDecodingError(key: "time", reason: "is not an RFC 3339 UTC time: \(time)")
        }
        self.init(
            seq: UInt64(bitPattern: seq),
            wallNanoseconds: wall,
            monotonicNanoseconds: UInt64(bitPattern: try require("mono_ns") { $0.intValue }),
            run: json["run"]?.stringValue ?? "",
            session: try require("session") { $0.stringValue },
            sessionSeq: UInt64(bitPattern: json["session_seq"]?.intValue ?? 0),
            kind: EventKind(rawValue: try require("kind") { $0.stringValue }),
            subject: try require("subject") { $0.stringValue },
            screen: json["screen"]?.stringValue,
            cause: json["cause"]?.intValue.map { UInt64(bitPattern: $0) },
            parent: json["parent"]?.stringValue,
            payload: json["payload"] ?? .object([:])
        )
    }

    // MARK: - Time

    /// Formats nanoseconds since the epoch as RFC 3339 UTC with `fractionDigits` fractional
    /// digits (0 to 9, truncated; 0 writes no fraction): `2026-12-01T10:00:00.123456789Z`.
    public static func formatTime(_ nanoseconds: Int64, fractionDigits: Int = 9) -> String {
        let seconds = nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
        let fraction = Int(nanoseconds - seconds * 1_000_000_000)
        let time = UTCDateTime(secondsSince1970: seconds)
        let digits = min(max(fractionDigits, 0), 9)
        let length = 20 + (digits > 0 ? digits + 1 : 0)
        return String(unsafeUninitializedCapacity: length) { buffer in
            var index = 0
            func put(_ value: Int, width: Int) {
                var value = value
                for position in stride(from: index + width - 1, through: index, by: -1) {
                    buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                index += width
            }
            func put(_ character: Unicode.Scalar) {
                buffer[index] = UInt8(ascii: character)
                index += 1
            }
            put(time.year, width: 4)
            put("-")
            put(time.month, width: 2)
            put("-")
            put(time.day, width: 2)
            put("T")
            put(time.hour, width: 2)
            put(":")
            put(time.minute, width: 2)
            put(":")
            put(time.second, width: 2)
            if digits > 0 {
                put(".")
                var scaled = fraction
                for _ in digits..<9 { scaled /= 10 }
                put(scaled, width: digits)
            }
            put("Z")
            return index
        }
    }

    /// Parses an RFC 3339 time (`Z` or a numeric offset, any number of fractional digits)
    /// into nanoseconds since the epoch.
    public static func parseTime(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { parseTime(utf8: $0) }
    }

    /// ``parseTime(_:)`` of the time's UTF-8 bytes, read in place.
    static func parseTime(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes.count >= 20, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84 || bytes[10] == 116,
            bytes[13] == 58, bytes[16] == 58,
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction: Int64 = 0
        if index < bytes.count, bytes[index] == 46 {
            index += 1
            var digits = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                if digits < 9 { fraction = fraction * 10 + Int64(bytes[index] - 48) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 9) { fraction *= 10 }
        }
        guard index < bytes.count else { return nil }
        var offsetSeconds = 0
        if bytes[index] == 90 || bytes[index] == 122 {
            index += 1
        } else if bytes[index] == 43 || bytes[index] == 45, let hours = number(index + 1..<index + 3),
            bytes.count > index + 3, bytes[index + 3] == 58, let minutes = number(index + 4..<index + 6)
        {
            offsetSeconds = (hours * 3600 + minutes * 60) * (bytes[index] == 43 ? 1 : -1)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        // Days from civil (Howard Hinnant's algorithm).
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        return seconds * 1_000_000_000 + fraction
    }
}

/// An event's JSON form lacked a field or had one of the wrong type.
public struct EventDecodingError: Error, CustomStringConvertible {
    public var key: String
    public var reason: String
    public var description: String { "event JSON: key '\(key)' \(reason)" }
}
