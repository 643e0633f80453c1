import NavlogEvents

/// What a writer does when its queue is full.
public enum BackpressurePolicy: String, Sendable {
    /// The caller waits until the writer has taken the queue.
    case block
    /// The event is dropped, counted, and later written as one `journal.dropped` record.
    case drop
}

/// Settings of a ``JournalWriter``.
public struct JournalConfiguration: Sendable {
    /// The journal directory; created when missing.
    public var directory: String
    /// Labels of this writer run (app version, git sha, scenario, host, ...).
    public var labels: [String: String]
    /// The run id; a fresh `r-…` id when nil.
    public var runID: String?

    // MARK: - Batching

    /// Longest time an event waits in the queue before a commit.
    public var flushInterval: Duration
    /// Queue length that triggers a commit before the interval is up.
    public var batchSize: Int
    /// Events per compressed block, at most; one commit writes one or more blocks. The
    /// default, 8192, gives deflate more of each column to find repeats in: on the benchmark's
    /// workload 13.6 bytes/event against 16.9 for 2048 blocks at level 5 (16384 gave 13.1, but
    /// readers then hold twice the events per block; docs/PERFORMANCE.md). A live session's
    /// commits every `flushInterval` write smaller ones.
    public var blockSize: Int
    /// zlib level for blocks, 1 (fast) to 9 (small). The default, 6, with 8192-event blocks:
    /// 13.6 bytes/event at 1.96x plain SQLite rows' ingest; level 9 saved 1-2% more for two
    /// thirds of the ingest speed.
    public var compressionLevel: Int32

    // MARK: - Backpressure

    /// Longest queue; beyond it ``backpressure`` applies.
    public var queueCapacity: Int
    public var backpressure: BackpressurePolicy

    // MARK: - Rotation and retention

    /// A file is closed and a new one started once it grows past this size (database plus WAL).
    public var maximumFileBytes: Int64
    /// A file is closed and a new one started once it is this old.
    public var maximumFileAge: Duration
    /// Closed files are deleted, oldest first, while all files together exceed this; nil keeps all.
    public var retentionBytes: Int64?
    /// Closed files closed longer ago than this are deleted; nil keeps all.
    public var retentionAge: Duration?

    /// The clock for run times, file ages and `journal.dropped` records.
    public var clock: any EventClock

    // MARK: - Privacy

    /// What to redact beyond what app code marks private, and whether to hash or remove.
    public var privacy: PrivacyPolicy
    /// The key file for hashing private values; nil keeps it in the directory
    /// (`.navlog.privacy-key`). Journals that must compare hashes (a diff's base and
    /// candidate) can share one.
    public var privacyKeyFile: String?

    /// Creates a configuration; every setting but the directory has a default.
    public init(
        directory: String,
        labels: [String: String] = [:],
        runID: String? = nil,
        flushInterval: Duration = .milliseconds(200),
        batchSize: Int = 16384,
        blockSize: Int = 8192,
        compressionLevel: Int32 = 6,
        queueCapacity: Int = 65_536,
        backpressure: BackpressurePolicy = .block,
        maximumFileBytes: Int64 = 64 << 20,
        maximumFileAge: Duration = .seconds(3600),
        retentionBytes: Int64? = nil,
        retentionAge: Duration? = nil,
        clock: any EventClock = SystemEventClock(),
        privacy: PrivacyPolicy = PrivacyPolicy(),
        privacyKeyFile: String? = nil
    ) {
        self.directory = directory
        self.labels = labels
        self.runID = runID
        self.flushInterval = flushInterval
        self.batchSize = max(1, batchSize)
        self.blockSize = max(1, blockSize)
        self.compressionLevel = min(9, max(1, compressionLevel))
        self.queueCapacity = max(1, queueCapacity)
        self.backpressure = backpressure
        self.maximumFileBytes = maximumFileBytes
        self.maximumFileAge = maximumFileAge
        self.retentionBytes = retentionBytes
        self.retentionAge = retentionAge
        self.clock = clock
        self.privacy = privacy
        self.privacyKeyFile = privacyKeyFile
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
