import NavlogEvents

/// Turns a stream of events into `JSONEachRow` rows for the tables of ``ClickHouseSchema``.
///
/// - `navlog_events`: one row per event, written as it is read. `app` comes from the
///   session's `session.start`; `payload` is JSON text.
/// - `navlog_visits`: one row per visit of a screen, written when its session ends (or at
///   ``finish()`` for a session without `session.end`), since a later event of the same
///   operation can still take a visit back. Each row says whether the session's end cut the
///   visit off (`censored`) and, for a screen instance's first visit, how its load went
///   (``ScreenVisit/load``).
///
/// Only the open sessions' visits and apps are kept (their apps alone for an encoder of
/// `navlog_events` only), and rows are handed out one at a time through
/// ``consume(_:write:)``, so memory is flat in the number of sessions.
///
/// ```swift
/// var encoder = ClickHouseEncoder()
/// while let event = try events.next() {
///     let rows = encoder.consume(event)
///     for row in rows.events { write(row.serialized()) }
/// }
/// ```
public struct ClickHouseEncoder: Sendable {
    /// The tables an encoder writes rows for.
    public enum Table: String, Sendable, CaseIterable {
        case events
        case visits
    }

    /// Rows produced by one step, for each table.
    public struct Rows: Sendable {
        public var events: [JSONValue] = []
        public var visits: [JSONValue] = []
    }

    private struct SessionState {
        var app = ""
        var visits = ScreenVisitTracker()
    }

    private var sessions: [SessionKey: SessionState] = [:]
    /// Whether visits are tracked: an encoder for `navlog_events` alone keeps only each open
    /// session's app.
    private let tracksVisits: Bool
    private let writesEvents: Bool

    /// An encoder for `tables` (both by default): it makes rows for those alone.
    public init(tables: Set<Table> = Set(Table.allCases)) {
        tracksVisits = tables.contains(.visits)
        writesEvents = tables.contains(.events)
    }

    /// The number of sessions read but not ended.
    public var openSessionCount: Int { sessions.count }

    /// Applies `event` and returns its `navlog_events` row, plus its session's
    /// `navlog_visits` rows when it is `session.end`.
    public mutating func consume(_ event: Event) -> Rows {
        var rows = Rows()
        consume(event) { table, row in
            switch table {
            case .events: rows.events.append(row)
            case .visits: rows.visits.append(row)
            }
        }
        return rows
    }

    /// Applies `event` and hands each row it produces to `write` as it is made: the
    /// `navlog_events` row, then, at `session.end`, the session's visits one by one, so that a
    /// long session's visit rows are never all in memory at once.
    public mutating func consume(_ event: Event, write: (Table, JSONValue) -> Void) {
        let key = SessionKey(run: event.run, session: event.session)
        // Taken out of the dictionary while it changes, so its arrays are not shared and grow
        // in place: a copy of the session's visits on every event made exports quadratic in
        // a session's length.
        var state = sessions.removeValue(forKey: key) ?? SessionState()
        if event.kind == .sessionStart { state.app = event.payload["app"]?.stringValue ?? "" }
        if tracksVisits { state.visits.consume(event) }
        if writesEvents { write(.events, ClickHouseEncoder.eventRow(event, app: state.app)) }
        if event.kind == .sessionEnd {
            if tracksVisits { ClickHouseEncoder.writeVisitRows(key: key, state: &state, write: write) }
        } else {
            sessions[key] = state
        }
    }

    /// Returns the visit rows of every session still open, closed at their last event.
    public mutating func finish() -> Rows {
        var rows = Rows()
        finish { _, row in rows.visits.append(row) }
        return rows
    }

    /// Hands `write` the visit rows of every session still open, closed at their last event.
    public mutating func finish(write: (Table, JSONValue) -> Void) {
        if tracksVisits {
            for key in sessions.keys.sorted(by: { ($0.run, $0.session) < ($1.run, $1.session) }) {
                ClickHouseEncoder.writeVisitRows(key: key, state: &sessions[key]!, write: write)
            }
        }
        sessions.removeAll()
    }

    // MARK: - Rows

    /// Returns the `navlog_events` row of `event`.
    public static func eventRow(_ event: Event, app: String) -> JSONValue {
        [
            "app": .string(app),
            "run": .string(event.run),
            "session": .string(event.session),
            "session_seq": .int(Int64(bitPattern: event.sessionSeq)),
            "seq": .int(Int64(bitPattern: event.seq)),
            "time": .string(dateTime(event.wallNanoseconds)),
            "mono_ns": .int(Int64(bitPattern: event.monotonicNanoseconds)),
            "kind": .string(event.kind.rawValue),
            "subject": .string(event.subject),
            "subject_type": .string(event.subjectType),
            "screen": .string(event.screen ?? ""),
            "screen_type": .string(event.screen.map(InstanceID.typeName(of:)) ?? ""),
            "cause": event.cause.map { .int(Int64(bitPattern: $0)) } ?? .null,
            "parent": .string(event.parent ?? ""),
            "payload": .string(event.payload.serialized()),
        ]
    }

    private static func writeVisitRows(key: SessionKey, state: inout SessionState, write: (Table, JSONValue) -> Void) {
        let complete = state.visits.isComplete
        let timesLoads = state.visits.recordsReadiness
        let visits = state.visits.finish()
        state.visits = ScreenVisitTracker()
        for (index, visit) in visits.enumerated() {
            let end = visit.end ?? visit.start
            let load = timesLoads ? visit.load : nil
            write(.visits, [
                "app": .string(state.app),
                "run": .string(key.run),
                "session": .string(key.session),
                "visit": .int(Int64(index + 1)),
                "screen": .string(visit.screen),
                "screen_type": .string(visit.screenType),
                "from_screen_type": .string(index > 0 ? visits[index - 1].screenType : ""),
                "start_time": .string(dateTime(visit.startWallNanoseconds)),
                "start_mono_ns": .int(Int64(bitPattern: visit.start)),
                "end_mono_ns": .int(Int64(bitPattern: end)),
                "dwell_ns": .int(Int64(bitPattern: end >= visit.start ? end - visit.start : 0)),
                "session_complete": .int(complete ? 1 : 0),
                "censored": .int(visit.isCensored ? 1 : 0),
                "load_ms": loadMilliseconds(load),
                "load_outcome": .string(loadOutcome(load)),
            ])
        }
    }

    /// `load_ms`: the load time of a first visit whose screen was ready during it, else null.
    private static func loadMilliseconds(_ load: ScreenLoad?) -> JSONValue {
        guard case .ready(let nanoseconds, _) = load else { return .null }
        return .double(Double(nanoseconds) / 1_000_000)
    }

    /// `load_outcome`: how a first visit's load went; '' for other visits, and for sessions of
    /// a runtime that records no screen.ready (no load can be told abandoned there).
    private static func loadOutcome(_ load: ScreenLoad?) -> String {
        switch load {
        case .ready(_, let outcome): return outcome
        case .abandoned: return "abandoned"
        case .censored: return "censored"
        case nil: return ""
        }
    }

    /// Formats wall nanoseconds the way ClickHouse parses a `DateTime64(9)` by default:
    /// `2026-12-01 10:00:00.123456789`.
    static func dateTime(_ nanoseconds: Int64) -> String {
        String(Event.formatTime(nanoseconds).dropLast().map { $0 == "T" ? " " : $0 })
    }
}
