import NavlogEvents

/// Counters a writer exposes for the daemon's `/metrics`.
public struct JournalMetrics: Sendable, Equatable {
    /// Events taken by ``JournalWriter/record(_:)`` and committed.
    public var eventsRecorded: UInt64 = 0
    /// Events that never reached a file: queue full, failed writes, or recorded after close.
    public var eventsDropped: UInt64 = 0
    /// Compressed block bytes committed.
    public var bytesWritten: UInt64 = 0
    /// Uncompressed block bytes committed; `uncompressedBytes / bytesWritten` is the ratio.
    public var uncompressedBytes: UInt64 = 0
    /// Events waiting in the queue right now.
    public var queueDepth: Int = 0
    /// Commits (one transaction each).
    public var flushes: UInt64 = 0
    /// Files closed by rotation.
    public var rotations: UInt64 = 0
    /// The highest seq committed.
    public var committedSeq: UInt64 = 0
    /// The last write or rotation error, if any, as a sentence naming the file.
    public var lastError: String?
    /// The file being written.
    public var currentFile: String = ""

    /// Uncompressed over compressed block bytes; 0 before anything was written.
    public var compressionRatio: Double {
        bytesWritten == 0 ? 0 : Double(uncompressedBytes) / Double(bytesWritten)
    }
}

/// Events lost between two commits, written as one `journal.dropped` record.
struct DropAccount {
    var count: UInt64
    var firstSeq: UInt64
    var lastSeq: UInt64
    var firstWallNanoseconds: Int64
    var lastWallNanoseconds: Int64
    var reasons: [String]

    /// Adds another loss to this one.
    mutating func merge(_ other: DropAccount) {
        count += other.count
        firstSeq = min(firstSeq, other.firstSeq)
        lastSeq = max(lastSeq, other.lastSeq)
        firstWallNanoseconds = min(firstWallNanoseconds, other.firstWallNanoseconds)
        lastWallNanoseconds = max(lastWallNanoseconds, other.lastWallNanoseconds)
        for reason in other.reasons where !reasons.contains(reason) { reasons.append(reason) }
    }

    /// The payload of the `journal.dropped` record.
    var payload: JSONValue {
        .object([
            "count": .int(Int64(count)),
            "first_seq": .int(Int64(firstSeq)),
            "last_seq": .int(Int64(lastSeq)),
            "first_time_ns": .int(firstWallNanoseconds),
            "last_time_ns": .int(lastWallNanoseconds),
            "reason": .string(reasons.joined(separator: "; ")),
        ])
    }
}
