import Foundation

/// What a ``RemoteEventSink`` has done so far.
public struct RemoteSinkStatistics: Sendable, Equatable {
    /// Events the daemon acknowledged (replayed batches included).
    public var eventsSent: UInt64 = 0
    /// Requests the daemon answered from an earlier commit of their key.
    public var batchesReplayed: UInt64 = 0
    /// Lines the daemon refused, and events of batches it refused whole.
    public var eventsRefused: UInt64 = 0
    /// Requests that failed and were retried.
    public var failedAttempts: UInt64 = 0
    /// Events lost before upload: removed with the spool's oldest files, or dropped by its queue.
    public var eventsLostFromSpool: UInt64 = 0
    public var droppedBySpool: UInt64 = 0
    /// The spool seq through which everything is delivered.
    public var deliveredSeq: UInt64 = 0
    /// The last failure, if any.
    public var lastError: String?
}
