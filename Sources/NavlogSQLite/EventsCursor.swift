import CSQLite
import NavlogEvents
import NavlogJournal

/// One scan of `navlog_events`: the blocks its constraints leave, inflated one at a time, and
/// the events of the current block that match them.
///
/// A statement that reads no subject, screen, parent or payload (a count by kind, say) reads
/// only the envelope columns at the front of each block (``BorrowedJournal/envelopes(in:matching:withCauses:)``),
/// and hands SQLite their values straight from those columns: no event is built.
final class EventsCursor: VirtualTableCursor {
    /// The hidden column naming the database read: `navlog_events('aux')` reads attached `aux`.
    static let schemaColumn: Int32 = 14

    private var schema = "main"
    private var constraints = EventConstraints()
    /// The fields the statement reads (the table's `idxNum`): strings and payloads unused are
    /// not decoded.
    private var fields = EventFields.all
    private var blocks: [BlockSummary] = []
    private var nextBlock = 0
    private var rows: [Event] = []
    /// Whether the scan reads envelopes (`envelope`) rather than events (`rows`).
    private var readsEnvelopes = false
    private var envelope = BlockEnvelope()
    /// The UTF-8 of session names, runs and kinds by their row id, for envelopes.
    private var sessionNames = TextByID()
    private var runs = TextByID()
    private var kinds = TextByID()
    private var position = 0

    init(table: EventsTable) {
        super.init(table: table)
    }

    /// The rows of the current block (`envelope.count` or `rows.count`), kept apart so the
    /// checks on every row copy neither.
    private var rowCount = 0

    override var isAtEnd: Bool { position >= rowCount }

    override var rowid: Int64 { Int64(bitPattern: readsEnvelopes ? envelope.seq[position] : rows[position].seq) }

    /// Starts a scan with the constraints `plan` (the `idxStr` of ``EventsTable/bestIndex(_:)``)
    /// names, whose values are `values`, in the same order, reading the fields `number` (its
    /// `idxNum`) names.
    override func filter(number: Int32, plan: String, values: [OpaquePointer?]) throws {
        fields = EventFields(rawValue: Int(number))
        readsEnvelopes = fields.isDisjoint(with: [.strings, .payload])
        constraints = EventConstraints()
        for (token, value) in zip(plan.split(separator: ",").map(String.init), values) {
            constraints.add(token, value)
        }
        rows = []
        envelope = BlockEnvelope()
        rowCount = 0
        position = 0
        nextBlock = 0
        schema = constraints.schema ?? "main"
        blocks = []
        let journal = try useJournal(schema: schema)
        if !constraints.isEmpty { blocks = try journal.blocks(matching: constraints.blockQuery) }
        try advance()
    }

    /// Moves to the next matching row.
    override func next() throws {
        position += 1
        try advance()
    }

    /// Inflates blocks until the cursor is on a matching row or past the last block.
    private func advance() throws {
        while position >= rowCount, nextBlock < blocks.count {
            let block = blocks[nextBlock]
            nextBlock += 1
            // The journal applies every constraint taken (EventConstraints.blockQuery).
            if readsEnvelopes {
                envelope = try journal?.envelopes(in: block, matching: constraints.blockQuery, withCauses: fields.contains(.causes)) ?? BlockEnvelope()
            } else {
                rows = try journal?.events(in: block, matching: constraints.blockQuery, fields: fields) ?? []
            }
            rowCount = readsEnvelopes ? envelope.count : rows.count
            position = 0
        }
    }

    // MARK: - Columns

    /// Sets the result of column `column` of the current row, as `navlog show -o json` prints it.
    override func setResult(column: Int32, of context: OpaquePointer?) {
        if readsEnvelopes { return setEnvelopeResult(column: column, of: context) }
        // Field by field through the array: copying the event out retained every string.
        let index = position
        switch column {
        case 0: sqlite3_result_int64(context, Int64(bitPattern: rows[index].seq))
        case 1: setText(Event.formatTime(rows[index].wallNanoseconds), context)
        case 2: sqlite3_result_int64(context, rows[index].wallNanoseconds)
        case 3: sqlite3_result_int64(context, Int64(bitPattern: rows[index].monotonicNanoseconds))
        case 4: setText(rows[index].run, context)
        case 5: setText(rows[index].session, context)
        case 6: sqlite3_result_int64(context, Int64(bitPattern: rows[index].sessionSeq))
        case 7: setText(rows[index].kind.rawValue, context)
        case 8: setText(rows[index].subject, context)
        case 9: setText(rows[index].subjectType, context)
        case 10: setText(rows[index].screen, context)
        case 11:
            if let cause = rows[index].cause { sqlite3_result_int64(context, Int64(bitPattern: cause)) } else { sqlite3_result_null(context) }
        case 12: setText(rows[index].parent, context)
        case 13: setText(rows[index].payload.serialized(), context)
        case Self.schemaColumn: setText(schema, context)
        default: sqlite3_result_null(context)
        }
    }

    /// Sets the result of column `column` of the current envelope row; the other columns are
    /// not read by the statement (``EventsTable/bestIndex(_:)``), and are NULL.
    private func setEnvelopeResult(column: Int32, of context: OpaquePointer?) {
        let index = position
        switch column {
        case 0: sqlite3_result_int64(context, Int64(bitPattern: envelope.seq[index]))
        case 1: setText(Event.formatTime(envelope.wall[index]), context)
        case 2: sqlite3_result_int64(context, envelope.wall[index])
        case 3: sqlite3_result_int64(context, Int64(bitPattern: envelope.monotonic[index]))
        case 4: runs.setResult(id: envelope.session[index], context) { try self.journal?.session(id: $0)?.run }
        case 5: sessionNames.setResult(id: envelope.session[index], context) { try self.journal?.session(id: $0)?.name }
        case 6: sqlite3_result_int64(context, Int64(bitPattern: envelope.sessionSeq[index]))
        case 7: kinds.setResult(id: envelope.kind[index], context) { try self.journal?.kind(id: $0)?.rawValue }
        case 11:
            if let cause = envelope.cause[index] { sqlite3_result_int64(context, Int64(bitPattern: cause)) } else { sqlite3_result_null(context) }
        case Self.schemaColumn: setText(schema, context)
        default: sqlite3_result_null(context)
        }
    }
}

/// The UTF-8 of the names a table gives row ids, looked up once per id, for results that
/// repeat a few names over millions of rows.
struct TextByID {
    private var dense: [[UInt8]?] = []
    private var sparse: [Int64: [UInt8]] = [:]

    /// Sets the result to the text of `id`, looked up with `lookup` the first time (NULL when
    /// it has none).
    mutating func setResult(id: Int64, _ context: OpaquePointer?, lookup: (Int64) throws -> String?) {
        // The known text is read in place: copying it out would retain it on every row.
        if id >= 0, id < dense.count, dense[Int(id)] != nil { return setText(utf8: dense[Int(id)]!, context) }
        if sparse[id] != nil { return setText(utf8: sparse[id]!, context) }
        guard let text = try? lookup(id) else { return sqlite3_result_null(context) }
        let bytes = Array(text.utf8)
        if id >= 0, id < 1 << 20 {
            if id >= dense.count { dense += [[UInt8]?](repeating: nil, count: Int(id) + 1 - dense.count) }
            dense[Int(id)] = bytes
        } else {
            sparse[id] = bytes
        }
        setText(utf8: bytes, context)
    }
}

/// The constraints `xFilter` received, as bounds on blocks and a test on each event.
struct EventConstraints {
    var lowestSeq: Int64 = 0
    var highestSeq: Int64 = .max
    var earliest: Int64 = .min
    var latest: Int64 = .max
    var session: String?
    var kind: String?
    /// The database to read, when not `main`.
    var schema: String?
    /// Whether two equalities on one column ask for different values.
    var isContradictory = false

    /// Whether no event can match (an empty range, two different sessions or kinds).
    var isEmpty: Bool { isContradictory || lowestSeq > highestSeq || earliest > latest }

    /// Narrows the bounds by constraint `token` (such as `seq>=`) with value `value`; a value
    /// that is not of the column's type is left to SQLite, which then checks it itself.
    mutating func add(_ token: String, _ value: OpaquePointer?) {
        let type = sqlite3_value_type(value)
        if token.hasPrefix("schema") {
            let name = sqlite3_value_text(value).map { String(cString: $0) } ?? "main"
            isContradictory = isContradictory || (schema != nil && schema?.lowercased() != name.lowercased())
            schema = name
            return
        }
        if token.hasPrefix("session") || token.hasPrefix("kind") {
            guard type == SQLITE_TEXT, let text = sqlite3_value_text(value) else { return }
            let string = String(cString: text)
            if token.hasPrefix("session") {
                isContradictory = isContradictory || (session != nil && session != string)
                session = string
            } else {
                isContradictory = isContradictory || (kind != nil && kind != string)
                kind = string
            }
            return
        }
        guard type == SQLITE_INTEGER else { return }
        let number = sqlite3_value_int64(value)
        let operation = token.drop(while: { $0.isLetter || $0 == "_" })
        var low = Int64.min
        var high = Int64.max
        switch operation {
        case "=": (low, high) = (number, number)
        case ">": (low, high) = number == .max ? (1, 0) : (number + 1, .max)
        case ">=": low = number
        case "<": (low, high) = number == .min ? (1, 0) : (.min, number - 1)
        case "<=": high = number
        default: return
        }
        if token.hasPrefix("seq") {
            lowestSeq = max(lowestSeq, low)
            highestSeq = min(highestSeq, high)
        } else {
            earliest = max(earliest, low)
            latest = min(latest, high)
        }
    }

    /// The same bounds on the journal's blocks.
    var blockQuery: BlockQuery {
        var query = BlockQuery()
        if lowestSeq > 0 { query.lowestSeq = UInt64(lowestSeq) }
        if highestSeq < .max { query.highestSeq = UInt64(max(highestSeq, 0)) }
        if earliest > .min { query.earliest = earliest }
        if latest < .max { query.latest = latest }
        query.session = session
        query.kind = kind
        return query
    }
}
