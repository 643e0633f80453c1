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
        /// With ``reportsGaps``: these seqs were missing between the events sent, and no
        /// `journal.dropped` record of the journal's writer accounts for them, so they were
        /// removed before they were sent (a spool's retention took their files).
        case lost(seqs: ClosedRange<UInt64>)
    }

    public let directory: String
    public let client: IngestClient
    /// Where the state is kept; nil keeps it in memory only.
    public let statePath: String?
    public private(set) var state: UploadState
    /// Events per request at most; halved when the daemon answers 413.
    public private(set) var batchSize: Int
    /// Whether seqs missing between the events sent are reported as ``Step/lost(seqs:)``,
    /// unless a `journal.dropped` record of the writer accounts for them (its queue was full:
    /// those seqs were never written). In a spool (``RemoteEventSink``) the rest is files its
    /// retention removed unsent. Off for `navlog push`, which sends what a journal holds.
    public var reportsGaps = false
    /// Seqs missing between events sent, not (yet) accounted for by a writer's record, which
    /// comes after them: a gap is reported once the upload is idle or far past it.
    private var unexplainedGaps: [ClosedRange<UInt64>] = []
    /// How far past a gap the upload goes before the gap is reported: a writer commits its
    /// record of dropped seqs with the events after them, well within this.
    static let gapSettlingDistance: UInt64 = 1 << 16
    private var iterator: JournalEventIterator?
    /// The seq after which ``iterator`` continues.
    private var iteratorAfter: UInt64 = .max
    /// The batch in flight as read: its retries post it from here, since its files may go
    /// (a spool's retention) before the daemon answers, and a batch the daemon may already
    /// have taken must be retried under its key, not counted lost.
    private var inflightEvents: [Event] = []

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
        if let settled = settledGap(isIdle: false) { return .lost(seqs: settled) }
        let events = try nextBatch()
        guard let first = events.first, let last = events.last else {
            guard let lost = state.inflight else {
                if let settled = settledGap(isIdle: true) { return .lost(seqs: settled) }
                return .idle
            }
            // Its files were removed (a spool's retention) before the daemon acknowledged it.
            // The daemon may have taken it all the same: ask under its key.
            if let run = state.inflightRun {
                switch client.status(key: Self.idempotencyKey(run: run, seqs: lost)) {
                case .accepted(let accepted, let refused, _, _):
                    if reportsGaps { noteMissing(after: state.after, before: lost.lowerBound) }
                    try acknowledge(through: lost.upperBound)
                    return .sent(events: accepted, refusedLines: refused, isReplayed: true)
                case .retry(let reason, let retryAfter):
                    return .retry(reason: "asking after the batch in flight: \(reason)", retryAfter: retryAfter)
                case .refused(404, _), .refused(405, _), .tooLarge:
                    // The daemon never journaled it (405: a daemon too old to say); it is lost.
                    break
                case .refused(let status, let reason):
                    throw RemoteError.refused(status: status, reason: reason, seqs: lost)
                }
            }
            state.inflight = nil
            try saveState()
            return .retry(reason: "the batch in flight, seqs \(lost.lowerBound)-\(lost.upperBound), is no longer in \(directory)", retryAfter: 0)
        }
        // A batch in flight keeps its range and run, and so its key, even when its oldest
        // events are gone (their files removed before a restart): the daemon may have taken it.
        let seqs = state.inflight ?? first.seq...last.seq
        let run = state.inflightRun ?? first.run
        if state.inflight != seqs || state.inflightRun != run {
            state.inflight = seqs
            state.inflightRun = run
            try saveState()
        }
        inflightEvents = events
        var body: [UInt8] = []
        body.reserveCapacity(events.count * 320)
        for event in events {
            body.append(contentsOf: event.jsonLine().utf8)
            body.append(UInt8(ascii: "\n"))
        }
        switch client.post(body, key: Self.idempotencyKey(run: run, seqs: seqs)) {
        case .accepted(let accepted, let refused, let isReplayed, _):
            if reportsGaps {
                if isReplayed, first.seq > seqs.lowerBound {
                    // The daemon had the whole range as first sent, also the events whose files
                    // went since: only the seqs before it, and the gaps within what is left, can
                    // be missing.
                    noteMissing(after: state.after, before: seqs.lowerBound)
                    noteGaps(in: events, after: first.seq - 1)
                } else {
                    noteGaps(in: events, after: state.after)
                }
            }
            try acknowledge(through: seqs.upperBound)
            return .sent(events: accepted, refusedLines: refused, isReplayed: isReplayed)
        case .retry(let reason, let retryAfter):
            return .retry(reason: reason, retryAfter: retryAfter)
        case .tooLarge(let reason):
            guard events.count > 1 else { throw RemoteError.refused(status: 413, reason: reason, seqs: seqs) }
            // Nothing of it was journaled: a smaller batch may take its place under its own key.
            batchSize = max(1, events.count / 2)
            state.inflight = nil
            inflightEvents = []
            try saveState()
            iteratorAfter = .max
            return .retry(reason: reason, retryAfter: 0)
        case .refused(let status, let reason):
            throw RemoteError.refused(status: status, reason: reason, seqs: seqs)
        }
    }

    /// Notes the seqs between `after` and `before`, if any, as missing.
    private func noteMissing(after: UInt64, before: UInt64) {
        if before > after + 1 { unexplainedGaps.append((after + 1)...(before - 1)) }
    }

    /// Records that the daemon has every seq through `upperBound`: the batch in flight is done.
    private func acknowledge(through upperBound: UInt64) throws {
        state = UploadState(after: upperBound)
        inflightEvents = []
        try saveState()
    }

    /// Notes the seqs missing before and between `events` (sent after seq `after`), and drops
    /// the missing seqs their writer's `journal.dropped` records account for.
    private func noteGaps(in events: [Event], after: UInt64) {
        var previous = after
        for event in events {
            noteMissing(after: previous, before: event.seq)
            previous = event.seq
            if event.kind == .journalDropped, event.session == JournalWriter.bookkeepingSession,
                let dropped = JournalWriter.droppedSeqs(inRecord: event.payload)
            {
                unexplainedGaps = unexplainedGaps.flatMap { gap -> [ClosedRange<UInt64>] in
                    guard gap.overlaps(dropped) else { return [gap] }
                    var rest: [ClosedRange<UInt64>] = []
                    if gap.lowerBound < dropped.lowerBound { rest.append(gap.lowerBound...(dropped.lowerBound - 1)) }
                    if gap.upperBound > dropped.upperBound { rest.append((dropped.upperBound + 1)...gap.upperBound) }
                    return rest
                }
            }
        }
    }

    /// The oldest unexplained gap once no record can account for it any more: the upload is
    /// idle (everything committed was read), or far past it; taken off the list.
    private func settledGap(isIdle: Bool) -> ClosedRange<UInt64>? {
        guard let oldest = unexplainedGaps.first,
            isIdle || state.after > oldest.upperBound + Self.gapSettlingDistance
        else { return nil }
        unexplainedGaps.removeFirst()
        return oldest
    }

    /// The events of the batch in flight, or the next committed ones.
    private func nextBatch() throws -> [Event] {
        if let inflight = state.inflight, inflightEvents.first?.seq == inflight.lowerBound, inflightEvents.last?.seq == inflight.upperBound {
            return inflightEvents
        }
        inflightEvents = []
        let after = state.inflight.map { $0.lowerBound - 1 } ?? state.after
        let limit = state.inflight.map { Int($0.upperBound - $0.lowerBound + 1) } ?? batchSize
        let isReused = iteratorAfter == after && iterator != nil
        if !isReused {
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
        if events.isEmpty && isReused {
            // An iterator kept from an earlier step knows only the files listed then (during
            // a long outage those may all be gone): nothing left means look again, afresh.
            iterator = nil
            iteratorAfter = .max
            return try nextBatch()
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
