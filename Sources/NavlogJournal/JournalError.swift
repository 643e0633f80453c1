/// What went wrong with a journal; every description names the file.
public enum JournalError: Error, CustomStringConvertible, Sendable {
    /// An SQLite call failed on a journal file.
    case sqlite(SQLiteError)
    /// The file exists but is not a navlog journal (empty, garbage, or missing its tables).
    case notAJournal(path: String, reason: String)
    /// The file was written by a newer navlog with a schema this version cannot read.
    case newerSchema(path: String, found: Int, supported: Int)
    /// A compressed block does not inflate, or its contents fail their checks.
    case damagedBlock(path: String, firstSeq: UInt64, lastSeq: UInt64, reason: String)
    /// Writing a batch failed; its events were counted as dropped.
    case writeFailed(path: String, firstSeq: UInt64, lastSeq: UInt64, underlying: String)
    /// Another writer holds the journal directory.
    case directoryLocked(path: String)
    /// A file-system operation failed.
    case fileSystem(path: String, operation: String, reason: String)
    /// The writer was closed.
    case closed(path: String)
    /// A cursor string that no navlog produced.
    case invalidCursor(String)

    public var description: String {
        switch self {
        case .sqlite(let error):
            return error.description
        case .notAJournal(let path, let reason):
            return "\(path) is not a navlog journal: \(reason)"
        case .newerSchema(let path, let found, let supported):
            return "\(path) has journal schema version \(found), newer than the \(supported) this navlog reads; upgrade navlog"
        case .damagedBlock(let path, let firstSeq, let lastSeq, let reason):
            return "\(path) is damaged: the block holding seq \(firstSeq)...\(lastSeq) is unreadable (\(reason))"
        case .writeFailed(let path, let firstSeq, let lastSeq, let underlying):
            return "writing \(path) failed; events seq \(firstSeq)...\(lastSeq) were dropped: \(underlying)"
        case .directoryLocked(let path):
            return "journal directory \(path) is in use by another writer"
        case .fileSystem(let path, let operation, let reason):
            return "\(operation) \(path) failed: \(reason)"
        case .closed(let path):
            return "the journal writer for \(path) is closed"
        case .invalidCursor(let text):
            return "'\(text)' is not a navlog journal cursor"
        }
    }

    /// Whether the volume (or the file-size limit) was full.
    public var isDiskFull: Bool {
        if case .sqlite(let error) = self { return error.isDiskFull }
        return false
    }

    /// The journal file the error concerns.
    public var path: String {
        switch self {
        case .sqlite(let error): return error.path
        case .notAJournal(let path, _), .newerSchema(let path, _, _), .damagedBlock(let path, _, _, _),
             .writeFailed(let path, _, _, _), .directoryLocked(let path), .fileSystem(let path, _, _),
             .closed(let path):
            return path
        case .invalidCursor: return ""
        }
    }
}

extension JournalError {
    /// Wraps any error raised while working on `path` so its description names the file.
    static func wrapping(_ error: any Error, path: String) -> JournalError {
        switch error {
        case let error as JournalError: return error
        case let error as SQLiteError: return .sqlite(error)
        default: return .fileSystem(path: path, operation: "reading", reason: "\(error)")
        }
    }
}
