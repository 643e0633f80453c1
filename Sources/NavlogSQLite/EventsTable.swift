import CSQLite
import NavlogJournal

/// The `navlog_events` virtual table of one connection: its journal, and how it plans a query
/// (`xBestIndex`).
final class EventsTable: VirtualTable {
    override class var schema: String {
        "CREATE TABLE x(seq INTEGER, time TEXT, time_ns INTEGER, mono_ns INTEGER, run TEXT, session TEXT, "
            + "session_seq INTEGER, kind TEXT, subject TEXT, subject_type TEXT, screen TEXT, cause INTEGER, parent TEXT, payload TEXT, "
            + "schema HIDDEN)"
    }

    override func makeCursor() -> VirtualTableCursor { EventsCursor(table: self) }

    // MARK: - Planning

    /// Chooses which constraints the table applies itself, following
    /// <https://www.sqlite.org/vtab.html#the_xbestindex_method>.
    ///
    /// It takes equality and ranges on `seq` and `time_ns`, equality on `session` and `kind`
    /// (binary collation) and on the hidden `schema`, passing them to `xFilter` in the order
    /// `idxStr` lists them (such as `session=,seq>=`; `EXPLAIN QUERY PLAN` shows it). It
    /// filters those exactly when their value has the column's type (an integer, a text), so it
    /// tells SQLite to skip its own check (`omit`) only when the planner already knows the value
    /// is of that type; `schema` it always applies, so SQLite never checks it. `idxNum` names
    /// the fields the statement reads (``EventFields``, from `colUsed`).
    override func bestIndex(_ info: UnsafeMutablePointer<sqlite3_index_info>) {
        var tokens: [String] = []
        var rows = 10_000_000.0
        var isUnique = false
        for index in 0..<Int(info.pointee.nConstraint) {
            let constraint = info.pointee.aConstraint[index]
            guard constraint.usable != 0, let column = PushedColumn(column: constraint.iColumn),
                  let operation = PushedOperation(constraint.op), column.allows(operation) else { continue }
            if column == .session || column == .kind {
                guard let collation = sqlite3_vtab_collation(info, Int32(index)),
                      String(cString: collation).uppercased() == "BINARY" else { continue }
            }
            tokens.append(column.rawValue + operation.rawValue)
            let usage = info.pointee.aConstraintUsage.advanced(by: index)
            usage.pointee.argvIndex = Int32(tokens.count)
            var value: OpaquePointer?
            if column == .schema {
                usage.pointee.omit = 1
            } else if sqlite3_vtab_rhs_value(info, Int32(index), &value) == SQLITE_OK, let value {
                usage.pointee.omit = sqlite3_value_type(value) == (column.isInteger ? SQLITE_INTEGER : SQLITE_TEXT) ? 1 : 0
            }
            switch (column, operation) {
            case (.seq, .equal):
                rows = 1
                isUnique = true
            case (.seq, _), (.time, _): rows /= 4
            case (.session, _): rows /= 1_000
            case (.kind, _): rows /= 10
            case (.schema, _): break
            }
        }
        rows = max(rows, 1)
        info.pointee.estimatedRows = Int64(rows)
        // Decompressing dominates: a row read costs about as much as a row estimated.
        info.pointee.estimatedCost = 10 + rows
        if isUnique { info.pointee.idxFlags |= SQLITE_INDEX_SCAN_UNIQUE }
        // The fields beyond the envelope the statement reads (`colUsed`: bit n for column n).
        let used = info.pointee.colUsed
        var fields: EventFields = []
        if used & (1 << 8 | 1 << 9 | 1 << 10 | 1 << 12) != 0 { fields.insert(.strings) }
        if used & (1 << 13) != 0 { fields.insert(.payload) }
        if used & (1 << 6 | 1 << 11) != 0 { fields.insert(.causes) }
        info.pointee.idxNum = Int32(fields.rawValue)
        info.pointee.idxStr = makeSQLiteMessage(tokens.joined(separator: ","))
        info.pointee.needToFreeIdxStr = 1
        // Rows come in seq order (blocks are numbered in seq order, events in a block too).
        if info.pointee.nOrderBy == 1 {
            let order = info.pointee.aOrderBy[0]
            if order.iColumn <= 0, order.desc == 0 { info.pointee.orderByConsumed = 1 }
        }
    }
}

/// A column `xBestIndex` pushes down, by its name in `idxStr`.
enum PushedColumn: String {
    case seq
    case time = "time_ns"
    case session
    case kind
    case schema

    init?(column: Int32) {
        switch column {
        case -1, 0: self = .seq
        case 2: self = .time
        case 5: self = .session
        case 7: self = .kind
        case EventsCursor.schemaColumn: self = .schema
        default: return nil
        }
    }

    /// Whether the column's value is an integer, rather than text.
    var isInteger: Bool { self == .seq || self == .time }

    func allows(_ operation: PushedOperation) -> Bool { isInteger || operation == .equal }
}

/// A comparison `xBestIndex` pushes down, by its spelling in `idxStr`.
enum PushedOperation: String {
    case equal = "="
    case greater = ">"
    case greaterOrEqual = ">="
    case less = "<"
    case lessOrEqual = "<="

    init?(_ operation: UInt8) {
        switch Int32(operation) {
        case SQLITE_INDEX_CONSTRAINT_EQ: self = .equal
        case SQLITE_INDEX_CONSTRAINT_GT: self = .greater
        case SQLITE_INDEX_CONSTRAINT_GE: self = .greaterOrEqual
        case SQLITE_INDEX_CONSTRAINT_LT: self = .less
        case SQLITE_INDEX_CONSTRAINT_LE: self = .lessOrEqual
        default: return nil
        }
    }
}
