import Foundation
import NavlogEvents

/// How far an upload of a journal has come, kept in a small JSON file so that it resumes:
/// `{"after": SEQ, "inflight": [FIRST, LAST], "run": RUN}`.
///
/// `after` is the last seq the daemon acknowledged. `inflight` is the seq range of the batch
/// posted and not yet acknowledged, and `run` the run of its first event, which its
/// `Idempotency-Key` names: they are written before the post, so that a retry after a crash
/// sends that range again under the same key, even when files of it are gone, and the daemon
/// answers it from its receipt instead of journaling it twice. (A state saved before `run` was
/// kept takes the run of the first event found in the range.)
public struct UploadState: Sendable, Equatable {
    public var after: UInt64 = 0
    public var inflight: ClosedRange<UInt64>? {
        didSet { if inflight == nil { inflightRun = nil } }
    }
    /// The run of the first event of the batch in flight; nil with no batch in flight.
    public var inflightRun: String?

    public init(after: UInt64 = 0, inflight: ClosedRange<UInt64>? = nil, inflightRun: String? = nil) {
        self.after = after
        self.inflight = inflight
        self.inflightRun = inflight == nil ? nil : inflightRun
    }

    /// Reads the state at `path`; a missing file is the start of the journal.
    public static func load(path: String) throws -> UploadState {
        guard FileManager.default.fileExists(atPath: path) else { return UploadState() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RemoteError.state(path: path, reason: "cannot be read")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let after = (object["after"] as? NSNumber)?.uint64Value
        else { throw RemoteError.state(path: path, reason: "is not {\"after\": SEQ, \"inflight\": [FIRST, LAST]}") }
        var state = UploadState(after: after)
        if let range = object["inflight"] as? [NSNumber], range.count == 2, range[0].uint64Value <= range[1].uint64Value {
            state.inflight = range[0].uint64Value...range[1].uint64Value
            state.inflightRun = object["run"] as? String
        }
        return state
    }

    /// Writes the state to `path` atomically (a temporary file renamed over it, synced first).
    public func save(path: String) throws {
        var text = "{\"after\": \(after)"
        if let inflight { text += ", \"inflight\": [\(inflight.lowerBound), \(inflight.upperBound)]" }
        if let inflightRun { text += ", \"run\": " + JSONValue.string(inflightRun).serialized() }
        text += "}\n"
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw RemoteError.state(path: path, reason: "cannot be written: \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, synced == 0, rename(temporary, path) == 0 else {
            throw RemoteError.state(path: path, reason: "cannot be written: \(String(cString: strerror(errno)))")
        }
    }
}
