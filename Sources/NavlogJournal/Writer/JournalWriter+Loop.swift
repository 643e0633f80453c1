import Foundation
import NavlogEvents

// MARK: - The writer thread

extension JournalWriter {
    /// The session name of the writer's own bookkeeping records.
    public static let bookkeepingSession = "navlog.journal"

    /// Takes the queue, commits it, rotates when due, and wakes waiters; until closed.
    func runLoop() {
        let interval = UInt64(max(1_000_000, configuration.flushInterval.nanoseconds))
        lock.lock()
        while true {
            waitForWork(interval: interval)
            var batch = pending
            pending = []
            pending.reserveCapacity(min(configuration.batchSize, configuration.queueCapacity))
            let drops = queueDrops
            queueDrops = nil
            let waiters = flushWaiters
            flushWaiters = []
            let rotationRequests = rotationWaiters
            rotationWaiters = []
            let closing = isClosing
            var account = writeDrops
            if let drops {
                if account == nil { account = drops } else { account!.merge(drops) }
            }
            var recordSeq: UInt64?
            if account != nil {
                recordSeq = nextSeq
                nextSeq += 1
            }
            lock.broadcast(Self.spaceAvailable)
            lock.unlock()

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
            if let account, let recordSeq { batch.append(QueuedEvent(event: makeDropRecord(account, seq: recordSeq))) }
            var outcome = commit(batch, eventCount: eventCount, carried: account)
            lastCommitMonotonic = monotonicNow()
            var rotationError: JournalError?
            if !closing, !rotationRequests.isEmpty || isRotationDue() {
                do {
                    if try rotateFile() { outcome.rotations += 1 }
                } catch {
                    rotationError = JournalError.wrapping(error, path: configuration.directory)
                }
            }
            var finalError: JournalError?
            if closing {
                finalError = outcome.error ?? closeFile(isRunEnding: true)
            }

            lock.lock()
            state.eventsRecorded += outcome.committedEvents
            state.eventsDropped += outcome.droppedEvents
            state.bytesWritten += outcome.result.compressedBytes
            state.uncompressedBytes += outcome.result.uncompressedBytes
            state.rotations += outcome.rotations
            if outcome.committedEvents > 0 || recordSeq != nil, outcome.error == nil { state.flushes += 1 }
            if let last = outcome.committedSeq { state.committedSeq = max(state.committedSeq, last) }
            if let error = outcome.error ?? rotationError ?? finalError { state.lastError = error.description }
            state.currentFile = fileWriter?.path ?? ""
            if let error = outcome.error, let first = batch.first?.event.seq, let last = batch.last?.event.seq {
                failedWrites.append((min(first, last)...max(first, last), error))
                if failedWrites.count > Self.failedWriteMemory { failedWrites.removeFirst(failedWrites.count - Self.failedWriteMemory) }
            }
            for waiter in waiters { finish(waiter, failure: outcome.error ?? earlierFailure(covering: waiter.covered)) }
            for waiter in rotationRequests { finish(waiter, failure: outcome.error ?? rotationError) }
            if closing {
                closeError = finalError
                isFinished = true
                for waiter in flushWaiters + rotationWaiters {
                    finish(waiter, failure: JournalError.closed(path: configuration.directory))
                }
                flushWaiters = []
                rotationWaiters = []
                lock.broadcast(Self.progressMade)
                lock.unlock()
                return
            }
            lock.broadcast(Self.progressMade)
        }
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
