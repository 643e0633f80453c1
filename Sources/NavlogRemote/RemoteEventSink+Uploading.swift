import Foundation
import NavlogEvents
import NavlogJournal

// MARK: - The upload thread

extension RemoteEventSink {
    /// The session of the sink's own `journal.dropped` records (spool files lost unsent).
    public static let bookkeepingSession = "navlog.remote"

    /// Uploads until stopped: a batch after another while there are some, a look every flush
    /// interval when idle, and a growing, jittered wait after each failure.
    func runUploads() {
        var failures = 0
        var lostRecords: UInt64 = 0
        while true {
            let isStopping = condition.withLock { self.isStopping }
            if isStopping { break }
            // Files lost to the spool's bound show as seqs missing between the events the
            // uploader sends (`Step.lost`), which it reports before it goes idle.
            // Read before the step: when it finds nothing to send, all of this is delivered.
            let committedBefore = spool.metrics.committedSeq
            let step: JournalUploader.Step
            do {
                step = try uploader.step()
            } catch let error as RemoteError {
                if case .refused(_, _, let seqs) = error {
                    // The daemon will never take these: count them and move on.
                    try? uploader.skip(through: seqs.upperBound)
                    condition.withLock {
                        statisticsNow.eventsRefused += seqs.upperBound - seqs.lowerBound + 1
                        statisticsNow.lastError = error.description
                    }
                    continue
                }
                step = .retry(reason: error.description, retryAfter: nil)
            } catch {
                step = .retry(reason: "\(error)", retryAfter: nil)
            }
            switch step {
            case .idle:
                failures = 0
                let delivered = uploader.state.after
                JournalSpoolFiles.deleteDelivered(in: configuration.spoolDirectory, through: delivered)
                condition.withLock {
                    deliveredSeq = max(deliveredSeq, delivered, committedBefore)
                    condition.broadcast()
                }
                waitForWork(seconds: configuration.flushInterval.seconds)
            case .lost(let seqs):
                // Recorded into the spool, so it is sent before anything counts as delivered.
                lostRecords += 1
                recordSpoolLoss(seqs, recordNumber: lostRecords)
            case .sent(let events, let refusedLines, let isReplayed):
                failures = 0
                condition.withLock {
                    statisticsNow.eventsSent += UInt64(events)
                    statisticsNow.eventsRefused += UInt64(refusedLines)
                    if isReplayed { statisticsNow.batchesReplayed += 1 }
                    deliveredSeq = max(deliveredSeq, uploader.state.after)
                    condition.broadcast()
                }
            case .retry(let reason, let retryAfter):
                failures += 1
                condition.withLock {
                    statisticsNow.failedAttempts += 1
                    statisticsNow.lastError = reason
                }
                waitForWork(seconds: retryAfter ?? backoff(failures: failures), isWakeIgnored: true)
            }
        }
        condition.withLock {
            isStopped = true
            condition.broadcast()
        }
    }

    /// The wait after `failures` failures in a row: `retryInitial` doubled each time up to
    /// `retryMaximum`, of which a random half is kept (jitter, so clients do not retry in step).
    func backoff(failures: Int) -> Double {
        let ceiling = min(configuration.retryMaximum.seconds, configuration.retryInitial.seconds * pow(2, Double(min(failures - 1, 30))))
        return ceiling * Double.random(in: 0.5...1.0)
    }

    /// Sleeps `seconds`, or until stopped, or (unless `isWakeIgnored`) until a flush asks.
    private func waitForWork(seconds: Double, isWakeIgnored: Bool = false) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.withLock {
            while !isStopping && (isWakeIgnored || !isWakeRequested) {
                if !condition.wait(until: deadline) { break }
            }
            isWakeRequested = false
        }
    }

    /// Records that the spool's retention removed seqs `seqs` before they were sent, as a
    /// `journal.dropped` record that travels to the daemon like any event.
    private func recordSpoolLoss(_ seqs: ClosedRange<UInt64>, recordNumber: UInt64) {
        let lost = UInt64(seqs.count)
        let now = SystemEventClock().now()
        spool.record(Event(wallNanoseconds: now.wall, monotonicNanoseconds: now.monotonic, session: Self.bookkeepingSession,
                           sessionSeq: recordNumber, kind: .journalDropped, subject: "RemoteEventSink#1",
                           payload: ["count": .int(Int64(lost)), "first_seq": .int(Int64(seqs.lowerBound)), "last_seq": .int(Int64(seqs.upperBound)),
                                     "reasons": ["spool full: its oldest files were removed before they were sent"]]))
        condition.withLock { statisticsNow.eventsLostFromSpool += lost }
    }
}
