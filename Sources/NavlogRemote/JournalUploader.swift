import Foundation
import NavlogEvents
import NavlogJournal

/// Uploads a journal's committed events, in seq order, to a navlogd through `POST /v1/ingest`,
/// one batch per request, resumable: ``UploadState`` says how far it came.
///
/// Each batch's `Idempotency-Key` is derived from the journal's content (the first event's run
/// and the batch's seq range), and the range of a batch in flight is saved before it is
/// posted, so a retry, after a daemon's crash or the uploader's own, posts the same events
/// under the same key, and the daemon journals them once. `navlog push` and
/// ``RemoteEventSink`` both upload through it.
public final class JournalUploader {
    /// What one ``step()`` did.
    public enum Step: Equatable {
        /// Nothing committed is left to send.
        case idle
        /// A batch was acknowledged (`isReplayed`: the daemon had it already).
        case sent(events: Int, refusedLines: Int, isReplayed: Bool)
        /// The daemon did not take the batch; retry the step, after `retryAfter` seconds if given.
        case retry(reason: String, retryAfter: Double?)
    }

    public let directory: String
    public let client: IngestClient
    /// Where the state is kept; nil keeps it in memory only.
    public let statePath: String?
    public private(set) var state: UploadState
    /// Events per request at most; halved when the daemon answers 413.
    public private(set) var batchSize: Int
    private var iterator: JournalEventIterator?
    /// The seq after which ``iterator`` continues.
    private var iteratorAfter: UInt64 = .max

    /// Creates an uploader of `directory`, resuming from the state at `statePath` (or from
    /// `state`, when given; it is saved there).
    public init(directory: String, client: IngestClient, statePath: String?, state: UploadState? = nil, batchSize: Int = 1000) throws {
        self.directory = directory
        self.client = client
        self.statePath = statePath
        self.batchSize = max(1, batchSize)
        if let state {
            self.state = state
        } else if let statePath {
            self.state = try UploadState.load(path: statePath)
        } else {
            self.state = UploadState()
        }
    }

    /// The key of the batch of seqs `seqs` whose first event is of run `run`: unique within a
    /// directory (a run's seqs never repeat) and across them (run ids carry time and chance).
    public static func idempotencyKey(run: String, seqs: ClosedRange<UInt64>) -> String {
        let safe = String(String.UnicodeScalarView(run.unicodeScalars.prefix(120).map {
            $0.isASCII && $0.value > 0x20 && $0.value < 0x7F ? $0 : "_"
        }))
        return "nl-\(safe)-\(seqs.lowerBound)-\(seqs.upperBound)"
    }

    /// Moves past seqs up to `seq` without sending them (events the spool lost).
    public func skip(through seq: UInt64) throws {
        guard seq > state.after else { return }
        state = UploadState(after: seq)
        try saveState()
    }

    // MARK: - Uploading

    /// Posts the next batch: the one in flight if there is one, else the next `batchSize`
    /// committed events after the state's seq. Throws when the daemon refuses the batch for
    /// good (``RemoteError/refused(status:reason:seqs:)``) or the state cannot be saved.
    public func step() throws -> Step {
        let events = try nextBatch()
        guard let first = events.first, let last = events.last else {
            guard let lost = state.inflight else { return .idle }
            // Its files were removed (a spool's retention) before the daemon acknowledged it.
            state.inflight = nil
            try saveState()
            return .retry(reason: "the batch in flight, seqs \(lost.lowerBound)-\(lost.upperBound), is no longer in \(directory)", retryAfter: 0)
        }
        let seqs = first.seq...last.seq
        if state.inflight != seqs {
            state.inflight = seqs
            try saveState()
        }
        var body: [UInt8] = []
        body.reserveCapacity(events.count * 320)
        for event in events {
            body.append(contentsOf: event.jsonLine().utf8)
            body.append(UInt8(ascii: "\n"))
        }
        switch client.post(body, key: Self.idempotencyKey(run: first.run, seqs: seqs)) {
        case .accepted(let accepted, let refused, let isReplayed, _):
            state = UploadState(after: seqs.upperBound)
            try saveState()
            return .sent(events: accepted, refusedLines: refused, isReplayed: isReplayed)
        case .retry(let reason, let retryAfter):
            return .retry(reason: reason, retryAfter: retryAfter)
        case .tooLarge(let reason):
            guard events.count > 1 else { throw RemoteError.refused(status: 413, reason: reason, seqs: seqs) }
            // Nothing of it was journaled: a smaller batch may take its place under its own key.
            batchSize = max(1, events.count / 2)
            state.inflight = nil
            try saveState()
            iteratorAfter = .max
            return .retry(reason: reason, retryAfter: 0)
        case .refused(let status, let reason):
            throw RemoteError.refused(status: status, reason: reason, seqs: seqs)
        }
    }

    /// The events of the batch in flight, or the next committed ones.
    private func nextBatch() throws -> [Event] {
        let after = state.inflight.map { $0.lowerBound - 1 } ?? state.after
        let limit = state.inflight.map { Int($0.upperBound - $0.lowerBound + 1) } ?? batchSize
        if iteratorAfter != after || iterator == nil {
            var filter = EventFilter()
            filter.after = JournalCursor("nl1-" + String(after, radix: 36))
            iterator = JournalReader(paths: [directory]).events(matching: filter)
        }
        var events: [Event] = []
        events.reserveCapacity(limit)
        while events.count < limit, let event = try iterator!.next() {
            if let inflight = state.inflight, event.seq > inflight.upperBound { break }
            events.append(event)
        }
        if events.count < limit || state.inflight != nil {
            // At the end of what is committed (or after a partial read): read afresh next time.
            iterator = nil
            iteratorAfter = .max
        } else {
            iteratorAfter = events.last!.seq
        }
        return events
    }

    private func saveState() throws {
        if let statePath { try state.save(path: statePath) }
    }
}
