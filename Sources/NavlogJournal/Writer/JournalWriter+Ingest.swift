import Foundation
import NavlogEvents

// MARK: - Foreign events

extension JournalWriter {
    /// Enqueues events recorded elsewhere (by an app that sent them to `navlogd`, or a journal
    /// pushed from another machine), in order, with the next seqs; returns those seqs.
    ///
    /// Unlike ``record(_:)``, the events keep their own ``Event/run`` (which must be non-empty
    /// and not ``runID``), along with their session, session seq, cause and times. Each run is
    /// registered with `runLabels` the first time the writer sees it, and every file that holds
    /// its events lists it in its run table with them. The events are queued together, so they
    /// are committed in one transaction, with `receipt` (given its seqs) when there is one, and
    /// reach the ``JournalObserver`` (the live stream) numbered, in seq order, like recorded ones.
    ///
    /// Waits while the queue has no room for them, whatever the ``BackpressurePolicy``: a
    /// caller that sent them elsewhere is told to retry instead of losing them. Throws
    /// ``JournalError/closed(path:)`` once the writer is closing.
    @discardableResult
    public func recordForeign(_ events: [Event], runLabels: [String: String] = [:],
                              receipt: IngestReceipt? = nil) throws -> ClosedRange<UInt64>? {
        guard !events.isEmpty else { return nil }
        let observer = observer.load()?.observer
        let prepared = observer.map { observer in observer.isObserving ? events.map { observer.prepare($0) } : [] } ?? []
        var queued: [QueuedEvent] = []
        queued.reserveCapacity(events.count)
        var lastRun = ""
        for event in events {
            if event.run != lastRun {
                foreignRuns.register(event.run, startedNanoseconds: event.wallNanoseconds, labels: runLabels)
                lastRun = event.run
            }
            queued.append(Self.queueable(event, redactor: redactor))
        }
        var wakes: [@Sendable () -> Void] = []
        defer { for wake in wakes { wake() } }
        return try lock.withLock {
            while !isClosing && !pending.isEmpty && pending.count + queued.count > configuration.queueCapacity {
                lock.signal(Self.workAvailable)
                lock.wait(Self.spaceAvailable)
            }
            if isClosing { throw JournalError.closed(path: configuration.directory) }
            let first = nextSeq
            for index in queued.indices {
                queued[index].event.seq = nextSeq
                nextSeq += 1
            }
            let seqs = first...(nextSeq - 1)
            queued[queued.count - 1].receipt = receipt?.assigning(firstSeq: seqs.lowerBound, lastSeq: seqs.upperBound)
            pending.append(contentsOf: queued)
            if pending.count >= configuration.batchSize { lock.signal(Self.workAvailable) }
            if let observer, observer.isObserving {
                for index in events.indices {
                    var numbered = events[index]
                    numbered.seq = seqs.lowerBound + UInt64(index)
                    let wake = observer.deliver(numbered, prepared: prepared.isEmpty ? nil : prepared[index].map { prepared in
                        var copy = prepared
                        copy.seq = numbered.seq
                        return copy
                    })
                    if let wake { wakes.append(wake) }
                }
            }
            return seqs
        }
    }

    /// `event` for the queue: its payload encoded now when the redactor leaves it alone (as
    /// ``record(_:)`` does, on the caller's thread rather than the writer's).
    static func queueable(_ event: Event, redactor: Redactor) -> QueuedEvent {
        guard !redactor.mayRedact(kind: event.kind, isMarked: !event.privatePaths.isEmpty) else {
            return QueuedEvent(event: event)
        }
        var event = event
        var writer = ByteWriter(capacity: 128)
        writer.writeJSON(event.payload)
        event.payload = .null
        return QueuedEvent(event: event, encodedPayload: writer.bytes)
    }
}
