import NavlogEvents
import NavlogExport
import NavlogJournal

/// The push's bookkeeping between the journal and the collector: feeds events to an
/// ``OTLPTraceEncoder``, queues the spans they finish, and turns acknowledgements into a
/// ``PushCursor`` that a restarted daemon resumes from.
///
/// The encoder's state for a session is rebuilt by reading that session again from its first
/// event, so the cursor remembers where the oldest session not yet settled started. Replayed
/// spans the collector already acknowledged are dropped by their position.
///
/// Sessions of an earlier run are closed (``OTLPTraceEncoder/flushSession(run:session:)``) at
/// the first event of a later run: one writer writes a journal directory, so they can never
/// continue. This gives the same spans as a batch export's `finish()`.
struct SpanLedger {
    /// A span waiting for the collector, with the seq of the event that finished it.
    struct PendingSpan {
        var span: OTLPSpan
        var seq: UInt64

        /// The span's identity in the cursor: `traceId/spanId`.
        var identity: String { span.traceID + "/" + span.spanID }
    }

    private var encoder = OTLPTraceEncoder()
    /// Spans in the order they finished; the collector gets them in that order.
    private(set) var pending: [PendingSpan] = []
    /// Spans finished by events up to this seq are done.
    private var acknowledgedSeq: UInt64
    /// Of the spans finished by event `partialSeq`, these identities are done.
    private var partialSeq: UInt64
    private var partialSpanIDs: Set<String>
    /// The sessions the encoder holds now.
    private var openSessions: Set<PushSessionKey> = []
    /// Where to read from to rebuild each session that is open or has spans pending.
    private var replayPoints: [PushSessionKey: ReplayPoint] = [:]
    /// The last event fed (or passed over on replay).
    private(set) var lastConsumed: ReplayPoint
    private var currentRun: String?
    /// On replay: events up to this seq were read by an earlier daemon; only the sessions then
    /// live are fed again.
    private let replayThroughSeq: UInt64
    private let replayedSessions: Set<PushSessionKey>
    private let replayStart: ReplayPoint

    /// Starts from `cursor`, or from the start of the journal.
    init(resuming cursor: PushCursor = PushCursor()) {
        acknowledgedSeq = cursor.acknowledgedSeq
        partialSeq = cursor.partialSeq
        partialSpanIDs = cursor.partialSpanIDs
        lastConsumed = cursor.replayFrom
        replayThroughSeq = cursor.consumedSeq
        replayedSessions = cursor.liveSessions
        replayStart = cursor.replayFrom
    }

    /// Where the next read starts: after the last event consumed.
    var readPosition: JournalCursor? { lastConsumed.cursor.flatMap(JournalCursor.init) }

    /// The seq up to which every event's spans were sent or skipped: lag is measured from here.
    var settledSeq: UInt64 { pending.first.map { $0.seq - 1 } ?? max(lastConsumed.seq, acknowledgedSeq) }

    // MARK: - Events

    /// Feeds `event` (the journal's events in seq order) and queues the spans it finishes.
    mutating func consume(_ event: Event) {
        if event.run != currentRun {
            let earlier = openSessions.filter { $0.run != event.run }.sorted { ($0.run, $0.session) < ($1.run, $1.session) }
            for key in earlier {
                queue(encoder.flushSession(run: key.run, session: key.session), seq: event.seq)
                openSessions.remove(key)
            }
            currentRun = event.run
        }
        let key = PushSessionKey(run: event.run, session: event.session)
        if event.seq > replayThroughSeq || replayedSessions.contains(key) {
            if openSessions.insert(key).inserted, replayPoints[key] == nil {
                replayPoints[key] = lastConsumed
            }
            queue(encoder.consume(event), seq: event.seq)
            if event.kind == .sessionEnd { openSessions.remove(key) }
        }
        lastConsumed = ReplayPoint(seq: event.seq, cursor: JournalCursor(after: event).description)
    }

    /// Queues `spans` finished at `seq`, except those already done (acknowledged by a previous
    /// daemon, met again on replay).
    private mutating func queue(_ spans: [OTLPSpan], seq: UInt64) {
        for span in spans {
            let item = PendingSpan(span: span, seq: seq)
            if seq <= acknowledgedSeq || (seq == partialSeq && partialSpanIDs.contains(item.identity)) { continue }
            pending.append(item)
        }
    }

    // MARK: - Acknowledgements

    /// Marks the first `count` pending spans as done: acknowledged, or skipped and reported.
    mutating func settle(_ count: Int) {
        let done = pending.prefix(count)
        pending.removeFirst(done.count)
        guard let next = pending.first else { return }
        if partialSeq != next.seq { partialSpanIDs = [] }
        partialSeq = next.seq
        partialSpanIDs.formUnion(done.filter { $0.seq == next.seq }.map(\.identity))
        acknowledgedSeq = max(acknowledgedSeq, next.seq - 1)
    }

    /// Returns the cursor to persist now, forgetting sessions that are closed and settled.
    mutating func checkpoint() -> PushCursor {
        if pending.isEmpty {
            acknowledgedSeq = max(acknowledgedSeq, lastConsumed.seq)
            // A partial event still ahead (on replay) keeps its identities.
            if partialSeq <= lastConsumed.seq {
                partialSeq = 0
                partialSpanIDs = []
            }
        }
        let waiting = Set(pending.map { PushSessionKey(run: $0.span.run, session: $0.span.session) })
        replayPoints = replayPoints.filter { openSessions.contains($0.key) || waiting.contains($0.key) }
        var cursor = PushCursor()
        cursor.replayFrom = replayPoints.values.min { $0.seq < $1.seq } ?? lastConsumed
        cursor.consumedSeq = max(lastConsumed.seq, replayThroughSeq)
        cursor.acknowledgedSeq = acknowledgedSeq
        cursor.partialSeq = partialSeq
        cursor.partialSpanIDs = partialSpanIDs
        cursor.liveSessions = Set(replayPoints.keys)
        if lastConsumed.seq < replayThroughSeq {
            // Mid-replay: sessions not reached yet still need the old starting point.
            cursor.replayFrom = replayStart
            cursor.liveSessions.formUnion(replayedSessions)
        }
        return cursor
    }
}
