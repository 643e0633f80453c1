import Foundation
import NavlogEvents
import NavlogJournal

/// An ``EventSink`` that ships events to a navlogd (`POST /v1/ingest`): the events wait in a
/// local journal, the spool, and a background thread uploads them in gzipped batches with
/// idempotency keys, retrying with backoff and jitter while the daemon is unreachable.
///
/// ``record(_:)`` only enqueues into the spool's writer (never waiting: a full queue drops
/// and counts, as a `journal.dropped` record); nothing on the recording thread touches the
/// network. The spool is bounded (``RemoteSinkConfiguration/spoolBytes``): past it the oldest
/// files go, and a `journal.dropped` record in session `navlog.remote` tells the daemon how
/// many events were lost. Delivered files are deleted. Events not delivered when the app
/// ends stay in the spool and go with the next run that opens it.
///
/// ```swift
/// let remote = try RemoteEventSink(configuration: RemoteSinkConfiguration(
///     url: "http://collector:7878", source: "ios-build-42", spoolDirectory: cachesPath + "/navlog-spool"))
/// runtime.sink = remote
/// remote.flush(timeout: .seconds(2))   // on demand; close() and the process's exit flush too
/// ```
///
/// `@unchecked Sendable`: the properties marked "guarded" are touched only under `condition`;
/// `uploader` only by the upload thread.
public final class RemoteEventSink: EventSink, @unchecked Sendable {
    public let configuration: RemoteSinkConfiguration
    /// The spool's writer; its run id is the ``Event/run`` of everything this sink sends.
    public let spool: JournalWriter
    let uploader: JournalUploader
    let condition = NSCondition()

    // MARK: Guarded by `condition`

    var isStopping = false
    var isStopped = false
    var isWakeRequested = false
    var statisticsNow = RemoteSinkStatistics()
    /// The seq through which the daemon has everything (or the spool had nothing more).
    var deliveredSeq: UInt64 = 0

    /// Opens (or creates) the spool and starts the upload thread.
    public init(configuration: RemoteSinkConfiguration) throws {
        self.configuration = configuration
        let client = try IngestClient(url: configuration.url, source: configuration.source, token: configuration.token)
        var labels = configuration.labels
        labels["source"] = configuration.source
        spool = try JournalWriter(configuration: JournalConfiguration(
            directory: configuration.spoolDirectory, labels: labels, flushInterval: configuration.flushInterval,
            batchSize: configuration.batchSize, blockSize: configuration.batchSize, backpressure: .drop,
            maximumFileBytes: max(256 << 10, configuration.spoolBytes / 8), maximumFileAge: .seconds(10),
            retentionBytes: configuration.spoolBytes))
        do {
            uploader = try JournalUploader(directory: configuration.spoolDirectory, client: client,
                                           statePath: configuration.spoolDirectory + "/.navlog-upload.json", batchSize: configuration.batchSize)
        } catch {
            try? spool.close()
            throw error
        }
        // Seqs missing from the spool and not dropped by its writer were removed unsent.
        uploader.reportsGaps = true
        deliveredSeq = uploader.state.after
        let thread = Thread { [self] in self.runUploads() }
        thread.name = "navlog-remote-upload"
        thread.start()
        ExitFlush.register(self)
    }

    // MARK: - Recording

    /// Enqueues `event` into the spool; never waits (a full queue drops and counts).
    public func record(_ event: Event) {
        spool.record(event)
    }

    // MARK: - Flushing and closing

    /// Waits until everything recorded before the call is in the daemon's journal, or
    /// `timeout` passes; returns whether it got there.
    @discardableResult
    public func flush(timeout: Duration = .seconds(5)) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout.seconds)
        guard let committed = try? spool.flush() else { return false }
        return condition.withLock {
            isWakeRequested = true
            condition.broadcast()
            while deliveredSeq < committed && !isStopped {
                if !condition.wait(until: deadline) { return deliveredSeq >= committed }
            }
            return deliveredSeq >= committed
        }
    }

    /// Flushes (waiting at most `timeout`), stops the upload thread and closes the spool;
    /// what was not delivered stays in the spool for the next run. Later calls do nothing.
    public func close(timeout: Duration = .seconds(5)) {
        let isFirst = condition.withLock { !isStopping }
        guard isFirst else { return }
        flush(timeout: timeout)
        condition.withLock {
            isStopping = true
            condition.broadcast()
            while !isStopped { condition.wait() }
        }
        try? spool.close()
        uploader.client.close()
        ExitFlush.unregister(self)
    }

    /// A snapshot of the sink's counters.
    public var statistics: RemoteSinkStatistics {
        condition.withLock {
            var snapshot = statisticsNow
            snapshot.deliveredSeq = deliveredSeq
            snapshot.droppedBySpool = spool.metrics.eventsDropped
            return snapshot
        }
    }
}
