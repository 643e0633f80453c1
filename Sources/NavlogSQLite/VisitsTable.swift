import CSQLite
import NavlogEvents
import NavlogJournal

/// The `navlog_visits` virtual table: one row per visit of a screen, with the definitions of
/// `navlog report` (docs/REPORT.md), which `ScreenVisitTracker` keeps for the report and the
/// exports alike.
///
/// `previous` and `next` are the screen types of the session's visits before and after, so
/// `GROUP BY screen_type, next` counts the report's transitions; `censored` marks the visit the
/// session's end (or its last event) cut off, which the report leaves out of dwell times.
/// `load_ms` and `load_outcome` time a screen instance's first visit to its `screen.ready`, as
/// the report's load section and the ClickHouse export's visits do: `load_ms` when the screen
/// was ready during the visit (outcome `loaded`, `empty` or `failed`), else null with outcome
/// `abandoned` (left first) or `censored`; both null on later visits and in sessions of a
/// runtime that records no `screen.ready`.
final class VisitsTable: VirtualTable {
    override class var schema: String {
        "CREATE TABLE x(run TEXT, session TEXT, screen TEXT, screen_type TEXT, start_ns INTEGER, end_ns INTEGER, "
            + "dwell_ms REAL, previous TEXT, next TEXT, censored INTEGER, load_ms REAL, load_outcome TEXT, schema HIDDEN)"
    }

    /// The columns of `session` and the hidden `schema`, the constraints pushed down.
    static let sessionColumn: Int32 = 1
    static let schemaColumn: Int32 = 12

    override func makeCursor() -> VirtualTableCursor { VisitsCursor(table: self) }

    /// Takes `session = ?` (binary collation), so one session's visits inflate only its blocks,
    /// and `schema = ?`, the database to read. SQLite skips its own check of the session when
    /// the planner knows the value is text, and always of the schema.
    override func bestIndex(_ info: UnsafeMutablePointer<sqlite3_index_info>) {
        var rows = 1_000_000.0
        var tokens: [String] = []
        for index in 0..<Int(info.pointee.nConstraint) {
            let constraint = info.pointee.aConstraint[index]
            guard constraint.usable != 0, Int32(constraint.op) == SQLITE_INDEX_CONSTRAINT_EQ else { continue }
            let usage = info.pointee.aConstraintUsage.advanced(by: index)
            if constraint.iColumn == Self.schemaColumn, !tokens.contains("schema=") {
                tokens.append("schema=")
                usage.pointee.argvIndex = Int32(tokens.count)
                usage.pointee.omit = 1
            } else if constraint.iColumn == Self.sessionColumn, !tokens.contains("session="),
                      let collation = sqlite3_vtab_collation(info, Int32(index)),
                      String(cString: collation).uppercased() == "BINARY" {
                tokens.append("session=")
                usage.pointee.argvIndex = Int32(tokens.count)
                var value: OpaquePointer?
                if sqlite3_vtab_rhs_value(info, Int32(index), &value) == SQLITE_OK, let value {
                    usage.pointee.omit = sqlite3_value_type(value) == SQLITE_TEXT ? 1 : 0
                }
                rows = 100
            }
        }
        info.pointee.idxStr = makeSQLiteMessage(tokens.joined(separator: ","))
        info.pointee.needToFreeIdxStr = 1
        info.pointee.estimatedRows = Int64(rows)
        info.pointee.estimatedCost = 10 + rows * 10
    }
}

/// One scan of `navlog_visits`: the blocks in seq order, each session's events through its own
/// tracker, and a session's visits handed out once it ends (the rest after the last block).
final class VisitsCursor: VirtualTableCursor {
    /// One row: a visit and its neighbours' screen types.
    private struct Row {
        var run: String
        var session: String
        var visit: ScreenVisit
        var previous: String?
        var next: String?
        /// The first visit's load, when the session records readiness.
        var load: ScreenLoad?
    }

    private struct SessionKey: Hashable {
        var run: String
        var session: String
    }

    private var session: String?
    private var schema = "main"
    /// The session pushed down, as the journal takes it.
    private var query = BlockQuery()
    private var blocks: [BlockSummary] = []
    private var nextBlock = 0
    private var trackers: [SessionKey: ScreenVisitTracker] = [:]
    /// Sessions in the order their first event came, for the visits of those left open.
    private var order: [SessionKey] = []
    private var rows: [Row] = []
    private var position = 0
    private var rowCount: Int64 = 0

    init(table: VisitsTable) {
        super.init(table: table)
    }

    override var isAtEnd: Bool { position >= rows.count }

    override var rowid: Int64 { rowCount }

    override func filter(number: Int32, plan: String, values: [OpaquePointer?]) throws {
        session = nil
        schema = "main"
        for (token, value) in zip(plan.split(separator: ","), values) {
            if token == "schema=" {
                schema = sqlite3_value_text(value).map { String(cString: $0) } ?? "main"
            } else if token == "session=", sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) {
                session = String(cString: text)
            }
        }
        blocks = []
        nextBlock = 0
        trackers = [:]
        order = []
        rows = []
        position = 0
        rowCount = 1
        query = BlockQuery()
        query.session = session
        blocks = try useJournal(schema: schema).blocks(matching: query)
        try advance()
    }

    override func next() throws {
        position += 1
        rowCount += 1
        try advance()
    }

    /// Reads blocks until a session's visits are ready to hand out, or every block is read.
    private func advance() throws {
        while position >= rows.count {
            rows = []
            position = 0
            if nextBlock < blocks.count {
                let events = try journal?.events(in: blocks[nextBlock], matching: query) ?? []
                nextBlock += 1
                for event in events where session == nil || event.session == session {
                    let key = SessionKey(run: event.run, session: event.session)
                    if trackers[key] == nil {
                        trackers[key] = ScreenVisitTracker()
                        order.append(key)
                    }
                    trackers[key]!.consume(event)
                    if event.kind == .sessionEnd { addRows(of: key) }
                }
            } else if !order.isEmpty {
                for key in order where trackers[key] != nil { addRows(of: key) }
                order = []
            } else {
                return
            }
        }
    }

    /// Adds the visits of session `key`, closed, and forgets its tracker.
    private func addRows(of key: SessionKey) {
        guard var tracker = trackers.removeValue(forKey: key) else { return }
        let timesLoads = tracker.recordsReadiness
        let finished = tracker.finish()
        for (index, visit) in finished.enumerated() {
            rows.append(Row(run: key.run, session: key.session, visit: visit,
                            previous: index > 0 ? finished[index - 1].screenType : nil,
                            next: index + 1 < finished.count ? finished[index + 1].screenType : nil,
                            load: timesLoads ? visit.load : nil))
        }
    }

    override func setResult(column: Int32, of context: OpaquePointer?) {
        let row = rows[position]
        let end = max(row.visit.end ?? row.visit.start, row.visit.start)
        let duration = end - row.visit.start
        switch column {
        case 0: setText(row.run, context)
        case 1: setText(row.session, context)
        case 2: setText(row.visit.screen, context)
        case 3: setText(row.visit.screenType, context)
        case 4: sqlite3_result_int64(context, row.visit.startWallNanoseconds)
        case 5: sqlite3_result_int64(context, row.visit.startWallNanoseconds &+ Int64(truncatingIfNeeded: duration))
        case 6: sqlite3_result_double(context, Double(duration) / 1_000_000)
        case 7: setText(row.previous, context)
        case 8: setText(row.next, context)
        case 9: sqlite3_result_int64(context, row.visit.isCensored ? 1 : 0)
        case 10:
            if case .ready(let nanoseconds, _) = row.load { sqlite3_result_double(context, Double(nanoseconds) / 1_000_000) } else { sqlite3_result_null(context) }
        case 11:
            switch row.load {
            case .ready(_, let outcome): setText(outcome, context)
            case .abandoned: setText("abandoned", context)
            case .censored: setText("censored", context)
            case nil: sqlite3_result_null(context)
            }
        case VisitsTable.schemaColumn: setText(schema, context)
        default: sqlite3_result_null(context)
        }
    }
}
