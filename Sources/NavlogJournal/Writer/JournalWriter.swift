import Foundation
import NavlogEvents
import Synchronization

/// The journal writer: an ``EventSink`` that batches events into compressed `.navlog` files.
///
/// ``record(_:)`` only enqueues under a lock and assigns ``Event/seq``; a dedicated thread
/// commits one transaction per flush (every ``JournalConfiguration/flushInterval`` or
/// ``JournalConfiguration/batchSize`` events, whichever comes first), rotates files and applies
/// retention. Call ``close()`` to flush everything and end the run.
///
/// ```swift
/// let writer = try JournalWriter(configuration: JournalConfiguration(directory: "journal", labels: ["app": "tabs"]))
/// runtime.sink = writer
/// let committed = try await writer.flush()
/// try writer.close()
/// ```
///
/// `@unchecked Sendable`: every mutable property marked "guarded" is read and written only while
/// `lock` is held; the properties marked "writer thread" are touched only by the writer's thread
/// (and by `init` before that thread starts).
public final class JournalWriter: EventSink, @unchecked Sendable {
    public let configuration: JournalConfiguration
    /// This run's id, stored in every event's ``Event/run``.
    public let runID: String
    /// Files found not closed cleanly when the writer opened, after setting them aside.
    public let setAsideFiles: [String]
    /// Files in the directory the writer could not read when it opened, with the reason.
    public let unreadableFiles: [String]
    /// The one ``JournalObserver``, set at most once by ``observe(with:)``.
    let observer = AtomicLazyReference<ObserverBox>()
    /// The runs of foreign events (``recordForeign(_:receipt:)``) and their labels.
    let foreignRuns = ForeignRunRegistry()
    /// Protects private values with the journal's key; the writer thread applies it to every
    /// event before encoding. Other outputs of the same events (a live stream) use it too.
    public let redactor: Redactor

    static let workAvailable = 0
    static let spaceAvailable = 1
    static let progressMade = 2

    let lock = ConditionLock(conditions: 3)
    let run: RunInfo
    /// The directory's lock; the writer thread replaces it when the directory was removed and
    /// made again (``restoreDirectory()``), and nothing else touches it until it finished.
    var lockDescriptor: Int32
    /// The privacy key, written back if the directory (holding its file) is removed.
    let privacyKey: [UInt8]

    // MARK: Guarded by `lock`

    var pending: [QueuedEvent] = []
    var nextSeq: UInt64
    var queueDrops: DropAccount?
    var flushWaiters: [FlushWaiter] = []
    var rotationWaiters: [FlushWaiter] = []
    var isClosing = false
    var isFinished = false
    var closeError: JournalError?
    var state = JournalMetrics()
    /// The seq ranges of the latest batches whose commit failed, with the error (at most
    /// ``failedWriteMemory``): a flush fails when one of them holds an event it covers, even
    /// when the writer had taken that batch before the flush was asked for.
    var failedWrites: [(seqs: ClosedRange<UInt64>, error: JournalError)] = []
    static let failedWriteMemory = 1024

    // MARK: Writer thread

    var fileWriter: JournalFileWriter?
    var writeDrops: DropAccount?
    var dropRecordCount: UInt64 = 0
    var lastCommittedSeq: UInt64 = 0
    var lastCommitMonotonic: UInt64 = 0
    /// The current file was found removed and the directory is not restored yet.
    var isDirectoryLost = false

    /// Opens the journal directory: takes its lock, sets aside files not closed cleanly,
    /// continues seq after the highest one found, applies retention and starts a new file.
    public init(configuration: JournalConfiguration) throws {
        self.configuration = configuration
        let directory = configuration.directory
        try JournalDirectory.create(directory)
        lockDescriptor = try JournalDirectory.lock(directory)
        do {
            privacyKey = try JournalDirectory.loadPrivacyKey(directory: directory, keyFile: configuration.privacyKeyFile)
            redactor = Redactor(policy: configuration.privacy, key: privacyKey)
        } catch {
            Glibc.close(lockDescriptor)
            throw error
        }
        let now = configuration.clock.now()
        runID = configuration.runID ?? JournalWriter.makeRunID(wallNanoseconds: now.wall)
        run = RunInfo(id: runID, startedNanoseconds: now.wall, labels: configuration.labels)
        do {
            let scan = try JournalWriter.scan(directory)
            setAsideFiles = scan.setAside
            unreadableFiles = scan.unreadable
            nextSeq = scan.highestSeq + 1
            state.committedSeq = scan.highestSeq
            lastCommittedSeq = scan.highestSeq
            JournalWriter.applyRetention(configuration, now: now.wall)
            try openNewFile()
        } catch {
            Glibc.close(lockDescriptor)
            throw error
        }
        lastCommitMonotonic = monotonicNow()
        let thread = Thread { [self] in self.runLoop() }
        thread.name = "navlog-journal-writer"
        thread.start()
    }

    // MARK: - Recording

    /// An event in the queue; `encodedPayload`, when set, is its payload already in the
    /// block's binary form (``ByteWriter/writeJSON(_:)``), and `event.payload` is then unused.
    struct QueuedEvent {
        var event: Event
        var encodedPayload: [UInt8]?
        /// The receipt of the ingest request whose last event this is, written in the same
        /// transaction (``recordForeign(_:receipt:)``).
        var receipt: IngestReceipt?
    }

    /// Enqueues `event`, assigning its seq and run; never waits on I/O.
    ///
    /// With a full queue, ``BackpressurePolicy/block`` waits for the writer to take the queue and
    /// ``BackpressurePolicy/drop`` counts the event as dropped. Events recorded after ``close()``
    /// are counted as dropped.
    public func record(_ event: Event) {
        var event = event
        event.run = runID
        let observer = observer.load()?.observer
        let isObserved = observer?.isObserving ?? false
        let prepared = isObserved ? observer?.prepare(event) : nil
        let observed = isObserved ? event : nil
        // The payload is encoded here, on the recording thread, while it is in this core's
        // cache: the writer thread then copies bytes instead of walking dictionaries another
        // core built, and the payload's storage is freed by the thread that made it. Events
        // the redactor may change keep their payload, since redaction runs on the writer.
        var encoded: [UInt8]?
        if !redactor.mayRedact(kind: event.kind, isMarked: !event.privatePaths.isEmpty) {
            var writer = ByteWriter(capacity: 128)
            writer.writeJSON(event.payload)
            encoded = writer.bytes
            event.payload = .null
        }
        var wake: (@Sendable () -> Void)?
        lock.withLock {
            while !isClosing && pending.count >= configuration.queueCapacity {
                if configuration.backpressure == .drop {
                    let seq = nextSeq
                    nextSeq += 1
                    let loss = DropAccount(count: 1, firstSeq: seq, lastSeq: seq, firstWallNanoseconds: event.wallNanoseconds,
                                           lastWallNanoseconds: event.wallNanoseconds, reasons: ["queue full"])
                    if queueDrops == nil { queueDrops = loss } else { queueDrops!.merge(loss) }
                    state.eventsDropped += 1
                    return
                }
                lock.signal(Self.workAvailable)
                lock.wait(Self.spaceAvailable)
            }
            if isClosing {
                state.eventsDropped += 1
                return
            }
            event.seq = nextSeq
            nextSeq += 1
            pending.append(QueuedEvent(event: event, encodedPayload: encoded))
            if pending.count == configuration.batchSize { lock.signal(Self.workAvailable) }
            if let observer, observer.isObserving {
                // Someone began watching since the check above: the payload, encoded by now,
                // is read back (rarely) so that they miss nothing.
                var numbered = observed ?? Self.restoringPayload(of: event, from: encoded)
                numbered.seq = event.seq
                wake = observer.deliver(numbered, prepared: prepared.map { prepared in
                    var copy = prepared
                    copy.seq = event.seq
                    return copy
                })
            }
        }
        wake?()
    }

    /// `event` with the payload `encoded` holds (``ByteWriter/writeJSON(_:)``), when it was
    /// encoded and taken out.
    static func restoringPayload(of event: Event, from encoded: [UInt8]?) -> Event {
        guard let encoded else { return event }
        var restored = event
        var reader = ByteReader(encoded)
        restored.payload = (try? reader.readJSON()) ?? .null
        return restored
    }

    /// Hands every event recorded from now on, numbered, to `observer`, in seq order (see
    /// ``JournalObserver``). A writer has at most one observer; a second call is ignored and
    /// returns false.
    @discardableResult
    public func observe(with observer: any JournalObserver) -> Bool {
        let box = ObserverBox(observer)
        return self.observer.storeIfNil(box) === box
    }

    // MARK: - Flushing

    /// The seq of the last event recorded so far (0 before any). Read it before recording
    /// something, and ``flush(after:)`` with it covers what was recorded since.
    public var lastRecordedSeq: UInt64 {
        lock.withLock { nextSeq - 1 }
    }

    /// Waits until everything enqueued before the call is committed; returns the highest committed seq.
    ///
    /// Throws the write error when a batch this flush waited for failed (its events are then
    /// counted as dropped and recorded once writing works again).
    @discardableResult
    public func flush() throws -> UInt64 {
        try waitForWriter(rotating: false)
    }

    /// Awaits until everything enqueued before the call is committed; returns the highest
    /// committed seq. Throws the write error when a batch this flush waited for failed; with
    /// `floor`, only when an event with a seq above it, enqueued before the call, was lost,
    /// whether to that batch or to a failed write the writer attempted before the call. A
    /// caller that reads ``lastRecordedSeq`` before recording and passes it here hears of every
    /// one of its events.
    @discardableResult
    public func flush(after floor: UInt64? = nil) async throws -> UInt64 {
        try await awaitFlush { nextSeq in floor.flatMap { floor in floor < nextSeq - 1 ? (floor + 1)...(nextSeq - 1) : nil } }
    }

    /// Awaits until everything enqueued before the call is committed; returns the highest
    /// committed seq. Throws a write error only when one of `seqs`, which were enqueued before
    /// the call, was lost: for a caller that knows its own seqs (those
    /// ``recordForeign(_:runLabels:receipt:)`` returned), whom other callers' lost events do not
    /// concern.
    @discardableResult
    public func flush(covering seqs: ClosedRange<UInt64>) async throws -> UInt64 {
        try await awaitFlush { _ in seqs }
    }

    /// Queues a flush whose failure concerns the seqs `covered` picks, given the next seq to
    /// be assigned (nil: any write error of its batch), and awaits it.
    private func awaitFlush(covered: (_ nextSeq: UInt64) -> ClosedRange<UInt64>?) async throws -> UInt64 {
        let waiter = FlushWaiter()
        return try await withCheckedThrowingContinuation { continuation in
            let isQueued = lock.withLock {
                guard !isFinished else { return false }
                waiter.covered = covered(nextSeq)
                waiter.continuation = continuation
                flushWaiters.append(waiter)
                lock.signal(Self.workAvailable)
                return true
            }
            if !isQueued { continuation.resume(throwing: JournalError.closed(path: configuration.directory)) }
        }
    }

    /// Closes the current file after committing what is queued, and starts a new one
    /// (for `SIGHUP` and `POST /v1/journal/rotate`).
    public func rotate() throws {
        _ = try waitForWriter(rotating: true)
    }

    /// Queues a flush (or a rotation) for the writer thread and blocks until it is done.
    private func waitForWriter(rotating: Bool) throws -> UInt64 {
        let waiter = FlushWaiter()
        return try lock.withLock {
            guard !isFinished else { throw JournalError.closed(path: configuration.directory) }
            if rotating { rotationWaiters.append(waiter) } else { flushWaiters.append(waiter) }
            lock.signal(Self.workAvailable)
            while !waiter.isDone { lock.wait(Self.progressMade) }
            return try waiter.outcome()
        }
    }

    /// Commits everything queued, closes the file cleanly and ends the run; later calls do nothing.
    public func close() throws {
        let error = lock.withLock {
            isClosing = true
            lock.signal(Self.workAvailable)
            lock.broadcast(Self.spaceAvailable)
            while !isFinished { lock.wait(Self.progressMade) }
            let error = closeError
            closeError = nil
            return error
        }
        if lockDescriptor >= 0 { flock(lockDescriptor, LOCK_UN) }
        if let error { throw error }
    }

    deinit {
        Glibc.close(lockDescriptor)
    }

    // MARK: - Metrics

    /// A snapshot of the writer's counters.
    public var metrics: JournalMetrics {
        lock.withLock {
            var snapshot = state
            snapshot.queueDepth = pending.count
            return snapshot
        }
    }

    static func makeRunID(wallNanoseconds: Int64) -> String {
        let random = UInt64.random(in: 0..<(1 << 30))
        return "r-\(String(UInt64(wallNanoseconds / 1_000_000), radix: 36))-\(String(random, radix: 36))"
    }
}

/// Holds the writer's ``JournalObserver`` (an atomic reference needs a class).
final class ObserverBox: Sendable {
    let observer: any JournalObserver

    init(_ observer: any JournalObserver) {
        self.observer = observer
    }
}

/// A caller waiting for a flush or rotation.
///
/// `@unchecked Sendable`: its fields are written by the writer thread and read by the caller,
/// both only while the writer's lock is held.
final class FlushWaiter: @unchecked Sendable {
    var isDone = false
    var committedSeq: UInt64 = 0
    var failure: JournalError?
    var continuation: CheckedContinuation<UInt64, any Error>?
    /// The seqs whose loss fails this flush (a flush of events, not a rotation).
    var covered: ClosedRange<UInt64>?

    func outcome() throws -> UInt64 {
        if let failure { throw failure }
        return committedSeq
    }
}
