import Foundation
import NavlogEvents

// MARK: - The writer thread

extension JournalWriter {
    /// The session name of the writer's own bookkeeping records.
    public static let bookkeepingSession = "navlog.journal"

    /// The seqs the payload of a `journal.dropped` record accounts for (its `first_seq` and
    /// `last_seq`), nil when it names no valid range.
    public static func droppedSeqs(inRecord payload: JSONValue) -> ClosedRange<UInt64>? {
        guard let low = payload["first_seq"]?.intValue, let high = payload["last_seq"]?.intValue, low >= 0, low <= high else { return nil }
        return UInt64(low)...UInt64(high)
    }

    /// What the writer thread takes in one turn beside the queued events.
    struct Turn {
        var flushWaiters: [FlushWaiter]
        var rotationWaiters: [FlushWaiter]
        var isClosing: Bool
        /// The losses to report in a `journal.dropped` record: the queue's and failed writes'.
        var drops: DropAccount?
        /// The seq of that record, when there is one.
        var dropRecordSeq: UInt64?
    }

    /// Takes the queue, commits it, rotates when due, and wakes waiters; until closed.
    ///
    /// The lock is held only to take a turn's work and to publish its outcome, never during I/O.
    func runLoop() {
        let interval = UInt64(max(1_000_000, configuration.flushInterval.nanoseconds))
        while true {
            // The batch travels apart from the turn so that it is its array's only reference,
            // and redacting or appending to it does not copy it.
            var (batch, turn) = lock.withLock { takeTurn(interval: interval) }

            // Private values are hashed or removed here, on the writer thread, before encoding.
            // The check reads each event in place (through the buffer): passing `batch[index]`
            // copied every event, retaining and releasing all its strings and its payload.
            // Events whose payload was encoded when recorded are the ones redaction leaves alone.
            let toRedact = batch.withUnsafeBufferPointer { queued in
                queued.indices.filter {
                    queued[$0].encodedPayload == nil
                        && redactor.mayRedact(kind: queued[$0].event.kind, isMarked: !queued[$0].event.privatePaths.isEmpty)
                }
            }
            for index in toRedact { batch[index].event = redactor.redact(batch[index].event) }
            let eventCount = UInt64(batch.count)
            if let account = turn.drops, let recordSeq = turn.dropRecordSeq {
                batch.append(QueuedEvent(event: makeDropRecord(account, seq: recordSeq)))
            }
            var outcome = commit(batch, eventCount: eventCount, carried: turn.drops)
            lastCommitMonotonic = monotonicNow()
            var rotationError: JournalError?
            if !turn.isClosing, !turn.rotationWaiters.isEmpty || isRotationDue() {
                do {
                    if try rotateFile() { outcome.rotations += 1 }
                } catch {
                    rotationError = JournalError.wrapping(error, path: configuration.directory)
                }
            }
            var finalError: JournalError?
            if turn.isClosing {
                finalError = outcome.error ?? closeFile(isRunEnding: true)
            }

            let isFinished = lock.withLock {
                publish(outcome, of: turn, batch: batch, rotationError: rotationError, finalError: finalError)
            }
            if isFinished { return }
        }
    }

    /// Waits for work and takes it: the queue, the waiters and the losses to report. Call it
    /// holding the lock.
    private func takeTurn(interval: UInt64) -> (batch: [QueuedEvent], turn: Turn) {
        waitForWork(interval: interval)
        let batch = pending
        var turn = Turn(flushWaiters: flushWaiters, rotationWaiters: rotationWaiters, isClosing: isClosing, drops: writeDrops)
        pending = []
        pending.reserveCapacity(min(configuration.batchSize, configuration.queueCapacity))
        flushWaiters = []
        rotationWaiters = []
        if let drops = queueDrops {
            if turn.drops == nil { turn.drops = drops } else { turn.drops!.merge(drops) }
        }
        queueDrops = nil
        if turn.drops != nil {
            turn.dropRecordSeq = nextSeq
            nextSeq += 1
        }
        lock.broadcast(Self.spaceAvailable)
        return (batch, turn)
    }

    /// Counts a turn's outcome in the metrics and wakes its waiters (all of them when closing);
    /// returns whether the writer is finished. Call it holding the lock.
    private func publish(_ outcome: CommitOutcome, of turn: Turn, batch: [QueuedEvent],
                         rotationError: JournalError?, finalError: JournalError?) -> Bool {
        state.eventsRecorded += outcome.committedEvents
        state.eventsDropped += outcome.droppedEvents
        state.bytesWritten += outcome.result.compressedBytes
        state.uncompressedBytes += outcome.result.uncompressedBytes
        state.rotations += outcome.rotations
        if outcome.committedEvents > 0 || turn.dropRecordSeq != nil, outcome.error == nil { state.flushes += 1 }
        if let last = outcome.committedSeq { state.committedSeq = max(state.committedSeq, last) }
        if let error = outcome.error ?? rotationError ?? finalError { state.lastError = error.description }
        state.currentFile = fileWriter?.path ?? ""
        let failedSeqs = outcome.error == nil ? nil : batch.first.flatMap { first in
            batch.last.map { last in min(first.event.seq, last.event.seq)...max(first.event.seq, last.event.seq) }
        }
        if let error = outcome.error, let failedSeqs {
            failedWrites.append((failedSeqs, error))
            if failedWrites.count > Self.failedWriteMemory { failedWrites.removeFirst(failedWrites.count - Self.failedWriteMemory) }
        }
        for waiter in turn.flushWaiters {
            // A waiter that names its seqs fails only when they were lost: its events may have
            // committed in an earlier turn, and failing it for others' would have a
            // `flush_per_request` daemon release an ingest key whose events are journaled.
            let failed = outcome.error.flatMap { error in
                guard let covered = waiter.covered, let failedSeqs, !failedSeqs.overlaps(covered) else { return error }
                return nil
            }
            finish(waiter, failure: failed ?? earlierFailure(covering: waiter.covered))
        }
        for waiter in turn.rotationWaiters { finish(waiter, failure: outcome.error ?? rotationError) }
        if turn.isClosing {
            closeError = finalError
            isFinished = true
            for waiter in flushWaiters + rotationWaiters {
                finish(waiter, failure: JournalError.closed(path: configuration.directory))
            }
            flushWaiters = []
            rotationWaiters = []
        }
        lock.broadcast(Self.progressMade)
        return turn.isClosing
    }

    /// Waits, holding the lock, until a batch is full or due, or a caller asks for something.
    private func waitForWork(interval: UInt64) {
        while true {
            if isClosing || !flushWaiters.isEmpty || !rotationWaiters.isEmpty || pending.count >= configuration.batchSize {
                return
            }
            let due = lastCommitMonotonic + interval
            let now = monotonicNow()
            if now >= due {
                if !pending.isEmpty || queueDrops != nil || writeDrops != nil { return }
                if isRotationDue() { return }
                lastCommitMonotonic = now
                continue
            }
            lock.wait(Self.workAvailable, untilMonotonic: due)
        }
    }

    /// The error of a failed batch that held an event of `seqs`, if any.
    private func earlierFailure(covering seqs: ClosedRange<UInt64>?) -> JournalError? {
        guard let seqs else { return nil }
        return failedWrites.last { $0.seqs.overlaps(seqs) }?.error
    }

    private func finish(_ waiter: FlushWaiter, failure: JournalError?) {
        waiter.isDone = true
        waiter.failure = failure
        waiter.committedSeq = state.committedSeq
        if let continuation = waiter.continuation {
            waiter.continuation = nil
            if let failure { continuation.resume(throwing: failure) } else { continuation.resume(returning: state.committedSeq) }
        }
    }

    // MARK: - Committing

    struct CommitOutcome {
        var result = JournalFileWriter.BatchResult()
        var committedEvents: UInt64 = 0
        var droppedEvents: UInt64 = 0
        var committedSeq: UInt64?
        var rotations: UInt64 = 0
        var error: JournalError?
    }

    /// Writes `batch`; `eventCount` of its events came from callers, the rest is the drop record
    /// for `carried`. On failure every event becomes part of the next drop record.
    private func commit(_ batch: [QueuedEvent], eventCount: UInt64, carried: DropAccount?) -> CommitOutcome {
        var outcome = CommitOutcome()
        guard let first = batch.first?.event, let last = batch.last?.event else { return outcome }
        do {
            if let current = fileWriter, !current.isStillLinked {
                // The file (or its directory) was removed: what is committed there is gone with
                // it, so close it and commit into a new file instead of into a deleted inode.
                _ = closeFile(isRunEnding: false)
                isDirectoryLost = true
            }
            if isDirectoryLost {
                // Until the directory is this writer's again, nothing is written into it.
                try restoreDirectory()
                isDirectoryLost = false
            }
            if fileWriter == nil { try openNewFile() }
            outcome.result = try fileWriter!.write(batch)
            outcome.committedEvents = eventCount
            outcome.committedSeq = last.seq
            lastCommittedSeq = last.seq
            writeDrops = nil
        } catch {
            let path = fileWriter?.path ?? configuration.directory
            let reason = (error as? JournalError).map { "\($0)" } ?? "\(error)"
            outcome.error = JournalError.writeFailed(path: path, firstSeq: first.seq, lastSeq: last.seq, underlying: reason)
            outcome.droppedEvents = eventCount
            var loss = DropAccount(count: eventCount, firstSeq: first.seq, lastSeq: last.seq,
                                   firstWallNanoseconds: first.wallNanoseconds, lastWallNanoseconds: last.wallNanoseconds,
                                   reasons: ["write failed: \(reason)"])
            if let carried { loss.merge(carried) }
            writeDrops = loss
        }
        return outcome
    }

    /// Returns the `journal.dropped` record for `account`.
    private func makeDropRecord(_ account: DropAccount, seq: UInt64) -> Event {
        dropRecordCount += 1
        let now = configuration.clock.now()
        return Event(seq: seq, wallNanoseconds: now.wall, monotonicNanoseconds: now.monotonic, run: runID,
                     session: Self.bookkeepingSession, sessionSeq: dropRecordCount, kind: .journalDropped,
                     subject: "JournalWriter#1", payload: account.payload)
    }
}
