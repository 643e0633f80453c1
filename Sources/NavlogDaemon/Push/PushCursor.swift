import Foundation
import NavlogEvents

/// A session's identity across runs: session ids such as `s-1` repeat in every run.
struct PushSessionKey: Hashable, Sendable {
    var run: String
    var session: String
}

/// A place to read the journal from: after the event with `seq`, or from the start when
/// `cursor` is nil.
struct ReplayPoint: Equatable, Sendable {
    /// The seq of the event the cursor follows; 0 for the start of the journal.
    var seq: UInt64
    /// The `JournalCursor` text (`nl1-…`), nil for the start.
    var cursor: String?

    static let start = ReplayPoint(seq: 0, cursor: nil)
}

/// How far the push got, persisted next to the journal so a restarted daemon resumes without
/// losing spans and without sending again what the collector acknowledged.
///
/// Spans finish only when later events close them, so the position is two-sided:
/// - ``replayFrom`` is where reading resumes: before the first event of every session whose
///   spans are not all acknowledged (``liveSessions``), so their state can be rebuilt;
/// - events up to ``consumedSeq`` were read before; on replay only the live sessions' events
///   among them are fed again;
/// - spans finished by events up to ``acknowledgedSeq`` were acknowledged (or skipped and
///   reported); of the spans finished by event ``partialSeq``, those in ``partialSpanIDs``
///   were too (a batch may end in the middle of one event's spans).
struct PushCursor: Equatable, Sendable {
    var replayFrom = ReplayPoint.start
    var consumedSeq: UInt64 = 0
    var acknowledgedSeq: UInt64 = 0
    var partialSeq: UInt64 = 0
    /// `traceId/spanId` of the acknowledged spans of event `partialSeq`.
    var partialSpanIDs: Set<String> = []
    var liveSessions: Set<PushSessionKey> = []

    /// The file name of the cursor, in the journal directory.
    static let fileName = "otlp-push.cursor.json"

    // MARK: - JSON

    /// Returns the cursor as one JSON object, keys and sets in a stable order.
    func jsonObject() -> JSONValue {
        [
            "version": 1,
            "replay_after": replayFrom.cursor.map { ["cursor": .string($0), "seq": .int(Int64(replayFrom.seq))] } ?? .null,
            "consumed_seq": .int(Int64(consumedSeq)),
            "acknowledged_seq": .int(Int64(acknowledgedSeq)),
            "partial_seq": .int(Int64(partialSeq)),
            "partial_span_ids": .array(partialSpanIDs.sorted().map { .string($0) }),
            "live_sessions": .array(liveSessions.sorted { ($0.run, $0.session) < ($1.run, $1.session) }.map {
                ["run": .string($0.run), "session": .string($0.session)]
            }),
        ]
    }

    /// Reads a cursor written by ``jsonObject()``; throws a sentence naming what is wrong.
    init(json value: JSONValue) throws {
        func count(_ key: String) throws -> UInt64 {
            guard let number = value[key]?.intValue, number >= 0 else { throw PushCursorError(detail: "\(key) is missing or not a count") }
            return UInt64(number)
        }
        guard value["version"]?.intValue == 1 else { throw PushCursorError(detail: "version is not 1") }
        if let replay = value["replay_after"], replay != .null {
            guard let cursor = replay["cursor"]?.stringValue, let seq = replay["seq"]?.intValue, seq >= 0 else {
                throw PushCursorError(detail: "replay_after needs a cursor and a seq")
            }
            replayFrom = ReplayPoint(seq: UInt64(seq), cursor: cursor)
        }
        consumedSeq = try count("consumed_seq")
        acknowledgedSeq = try count("acknowledged_seq")
        partialSeq = try count("partial_seq")
        partialSpanIDs = Set((value["partial_span_ids"]?.arrayValue ?? []).compactMap(\.stringValue))
        for item in value["live_sessions"]?.arrayValue ?? [] {
            guard let run = item["run"]?.stringValue, let session = item["session"]?.stringValue else {
                throw PushCursorError(detail: "live_sessions holds an entry without run and session")
            }
            liveSessions.insert(PushSessionKey(run: run, session: session))
        }
    }

    init() {}

    // MARK: - File

    /// Reads the cursor file at `path`; nil when there is none.
    static func load(path: String) throws -> PushCursor? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do {
            return try PushCursor(json: JSONValue(parsing: data))
        } catch let error as PushCursorError {
            throw PushCursorError(detail: "\(path): \(error.detail)")
        } catch {
            throw PushCursorError(detail: "\(path): \(error)")
        }
    }

    /// Writes the cursor to `path` atomically: a temporary file, `fsync`, then `rename`.
    func save(path: String) throws {
        let bytes = Array((jsonObject().serialized() + "\n").utf8)
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw PushCursorError(detail: "cannot create \(temporary): \(String(cString: strerror(errno)))") }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw PushCursorError(detail: "cannot write \(temporary): \(reason)")
            }
            offset += written
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard synced, rename(temporary, path) == 0 else {
            throw PushCursorError(detail: "cannot replace \(path): \(String(cString: strerror(errno)))")
        }
    }
}

/// A push cursor that cannot be read or written, with the file and why.
struct PushCursorError: Error, CustomStringConvertible {
    var detail: String
    var description: String { detail }
}
