import NavlogEvents

/// Which events a reader returns; every condition is optional and they combine with AND.
public struct EventFilter: Sendable, Equatable {
    /// Only sessions with these names, in any run.
    ///
    /// With ``runSessions`` too, a session passes when either holds it: `sessions` for names
    /// that should match in every run, `runSessions` for sessions of one run.
    public var sessions: Set<String>?
    /// Only these sessions, each of one run (`RUN/SESSION`); see ``sessions``.
    public var runSessions: Set<SessionIdentity>?
    /// Only sessions of these runs.
    public var runs: Set<String>?
    /// Only these kinds.
    public var kinds: Set<EventKind>?
    /// Only events at or after this wall time (ns since the epoch).
    public var since: Int64?
    /// Only events before this wall time (ns since the epoch).
    public var until: Int64?
    /// Only events after this cursor.
    public var after: JournalCursor?
    /// Payload members, per event kind, to deliver as their ``JSONFingerprint/digest(_:)``
    /// instead of their values, for a reader that only tells values apart (such as
    /// `ReportBuilder.digestibleMembers`). Reading a digest builds none of the value, so it
    /// is much cheaper than reading a large snapshot.
    public var digestedMembers: [EventKind: [String]] = [:]
    /// Kinds whose events come as their envelope only: seq, times, run, session, session seq,
    /// kind and cause, with an empty `subject`, no `screen` or `parent` and an empty payload.
    /// For a reader that only counts and orders them; their strings and payloads are not read.
    public var envelopeOnlyKinds: Set<EventKind> = []

    public init(sessions: Set<String>? = nil, runSessions: Set<SessionIdentity>? = nil, runs: Set<String>? = nil,
                kinds: Set<EventKind>? = nil, since: Int64? = nil, until: Int64? = nil, after: JournalCursor? = nil) {
        self.sessions = sessions
        self.runSessions = runSessions
        self.runs = runs
        self.kinds = kinds
        self.since = since
        self.until = until
        self.after = after
    }
}

extension EventFilter {
    /// Whether the filter leaves every stored event in: it may read some events' payloads as
    /// digests or envelopes, but it drops none.
    public var keepsEveryEvent: Bool {
        sessions == nil && runSessions == nil && runs == nil && kinds == nil && since == nil && until == nil && after == nil
    }

    /// Whether an event of session `session` in run `run` passes the session and run conditions.
    func matches(session: String, run: String) -> Bool {
        if let runs, !runs.contains(run) { return false }
        guard sessions != nil || runSessions != nil else { return true }
        if let sessions, sessions.contains(session) { return true }
        if let runSessions, runSessions.contains(SessionIdentity(run: run, session: session)) { return true }
        return false
    }
}

/// An opaque position in a journal: resume reading after the event it names.
///
/// Its string form (`nl1-…`) is stable and safe to pass around, e.g. in `navlog show --after`.
public struct JournalCursor: Sendable, Hashable, CustomStringConvertible, LosslessStringConvertible {
    /// The seq of the last event read.
    let seq: UInt64

    init(seq: UInt64) {
        self.seq = seq
    }

    /// Creates the cursor just after `event`.
    public init(after event: Event) {
        seq = event.seq
    }

    /// Parses the string form; nil when it is not a cursor.
    public init?(_ description: String) {
        guard description.hasPrefix("nl1-"), let seq = UInt64(description.dropFirst(4), radix: 36) else { return nil }
        self.seq = seq
    }

    /// Parses the string form, throwing ``JournalError/invalidCursor(_:)``.
    public init(parsing text: String) throws {
        guard let cursor = JournalCursor(text) else { throw JournalError.invalidCursor(text) }
        self = cursor
    }

    public var description: String { "nl1-" + String(seq, radix: 36) }
}
