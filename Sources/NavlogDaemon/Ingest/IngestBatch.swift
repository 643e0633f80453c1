import Foundation
import NavlogEvents
import NavlogJournal

/// The body of one `POST /v1/ingest` read into events: NDJSON in the form `navlog show -o json`
/// prints, one event a line, each line taken or refused on its own with its number and reason.
struct IngestBatch {
    /// A line that is not an event, numbered from 1 as the body's lines are.
    struct Refusal: Equatable {
        var line: Int
        var reason: String
    }

    var events: [Event] = []
    var refusals: [Refusal] = []

    /// The keys an event line may hold (`seq`, `subject_type` and `cursor` are read and ignored:
    /// the journal assigns the first, derives the second, and `navlog show -o json` prints the
    /// third, a position in the journal the line came from).
    static let knownKeys: Set<String> = [
        "seq", "time", "mono_ns", "run", "session", "session_seq", "kind", "subject", "subject_type", "screen", "cause", "parent", "payload",
        "cursor",
    ]

    /// Reads `body` (inflated already); `ownRun` is the daemon's run, which no line may claim.
    init(body: [UInt8], ownRun: String, maximumLineBytes: Int) {
        var lineNumber = 0
        var start = 0
        body.withUnsafeBufferPointer { bytes in
            while start < bytes.count {
                lineNumber += 1
                let base = bytes.baseAddress!
                var end = bytes.count
                if let found = memchr(base + start, 0x0A, bytes.count - start) {
                    end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                }
                var last = end
                if last > start && bytes[last - 1] == UInt8(ascii: "\r") { last -= 1 }
                let line = UnsafeBufferPointer(rebasing: bytes[start..<last])
                start = end + 1
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                if line.count > maximumLineBytes {
                    refusals.append(Refusal(line: lineNumber, reason: "the line is \(line.count) bytes, longer than ingest.max_line_bytes (\(maximumLineBytes))"))
                    continue
                }
                // The one-pass reading takes well-formed lines; the thorough one says what is
                // wrong with the others (and reads the forms the first leaves to it).
                if let event = Event.strictlyDecoded(jsonLine: line, previousRun: events.last?.run), event.run != ownRun {
                    events.append(event)
                    continue
                }
                do {
                    events.append(try Self.event(from: line, ownRun: ownRun))
                } catch let error as IngestLineError {
                    refusals.append(Refusal(line: lineNumber, reason: error.reason))
                } catch {
                    refusals.append(Refusal(line: lineNumber, reason: "\(error)"))
                }
            }
        }
    }

    /// One line's event, or the reason it is not one.
    static func event(from line: UnsafeBufferPointer<UInt8>, ownRun: String) throws -> Event {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: Data(buffer: line), maximumDepth: 64)
        } catch {
            throw IngestLineError(reason: "not JSON: \(error)")
        }
        guard case .object(let members) = value else { throw IngestLineError(reason: "not a JSON object") }
        if let unknown = members.keys.filter({ !knownKeys.contains($0) }).min() {
            throw IngestLineError(reason: "unknown key '\(unknown)'")
        }
        func text(_ key: String, isEmptyAllowed: Bool = false) throws -> String {
            guard let raw = members[key] else { throw IngestLineError(reason: "key '\(key)' is missing") }
            guard let text = raw.stringValue else { throw IngestLineError(reason: "key '\(key)' must be a string, got \(describe(raw))") }
            guard isEmptyAllowed || !text.isEmpty else { throw IngestLineError(reason: "key '\(key)' must not be empty") }
            return text
        }
        func number(_ key: String, minimum: Int64) throws -> Int64 {
            guard let raw = members[key] else { throw IngestLineError(reason: "key '\(key)' is missing") }
            guard let number = raw.intValue, number >= minimum else {
                throw IngestLineError(reason: "key '\(key)' must be an integer of at least \(minimum), got \(describe(raw))")
            }
            return number
        }
        func optionalText(_ key: String) throws -> String? {
            guard let raw = members[key], raw != .null else { return nil }
            guard let text = raw.stringValue else { throw IngestLineError(reason: "key '\(key)' must be a string, got \(describe(raw))") }
            return text
        }
        let run = try text("run")
        guard run != ownRun else { throw IngestLineError(reason: "key 'run' names the daemon's own run \(run)") }
        let time = try text("time")
        guard let wall = Event.parseTime(time) else { throw IngestLineError(reason: "key 'time' is not an RFC 3339 time: \(time)") }
        if let seq = members["seq"], seq.intValue == nil { throw IngestLineError(reason: "key 'seq' must be an integer, got \(describe(seq))") }
        _ = try optionalText("subject_type")
        _ = try optionalText("cursor")
        var cause: UInt64?
        if let raw = members["cause"], raw != .null { cause = UInt64(try number("cause", minimum: 0)) }
        let payload = members["payload"] ?? .object([:])
        guard case .object = payload else { throw IngestLineError(reason: "key 'payload' must be an object, got \(describe(payload))") }
        return Event(
            wallNanoseconds: wall, monotonicNanoseconds: UInt64(try number("mono_ns", minimum: 0)), run: run,
            session: try text("session"), sessionSeq: UInt64(try number("session_seq", minimum: 1)),
            kind: EventKind(rawValue: try text("kind")), subject: try text("subject", isEmptyAllowed: true),
            screen: try optionalText("screen"), cause: cause, parent: try optionalText("parent"), payload: payload
        )
    }

    /// A short description of a JSON value for a refusal: its type and, when short, itself.
    static func describe(_ value: JSONValue) -> String {
        let text = value.serialized()
        return text.count <= 40 ? text : String(text.prefix(37)) + "..."
    }

    /// The answer's JSON: counts, and each refusal with its line (the first 1000).
    func answer() -> JSONValue {
        [
            "accepted": .int(Int64(events.count)),
            "refused": .int(Int64(refusals.count)),
            "refusals": .array(refusals.prefix(1000).map { ["line": .int(Int64($0.line)), "reason": .string($0.reason)] }),
        ]
    }
}

/// Why one ingest line is not an event.
struct IngestLineError: Error {
    var reason: String
}
