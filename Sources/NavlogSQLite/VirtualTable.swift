import CSQLite
import NavlogJournal

/// One virtual table of one connection, over the connection's journal: what the module's
/// callbacks (``TableModule``) call. Each table of the extension is a subclass.
class VirtualTable {
    /// The `CREATE TABLE` statement declaring the columns (`sqlite3_declare_vtab`).
    class var schema: String { fatalError("a subclass declares its schema") }

    /// The host's connection, which the table reads its journals through.
    let connection: OpaquePointer
    /// The structure SQLite knows this table by, for error messages (`zErrMsg`).
    var base: UnsafeMutablePointer<sqlite3_vtab>?
    /// The journal of the `main` database, read on first use and kept with its id tables.
    private var mainJournal: BorrowedJournal?

    required init(connection: OpaquePointer) {
        self.connection = connection
    }

    /// Returns the journal of database `schema` and whether the caller closes it when done: the
    /// `main` one is kept, while an attached one is read afresh for each scan, since it may be
    /// detached, or another file attached under its name, between two scans.
    func journal(schema: String) throws -> (journal: BorrowedJournal, isOwnedByCaller: Bool) {
        guard schema.lowercased() == "main" else { return (try BorrowedJournal(connection: connection, schema: schema), true) }
        if let mainJournal { return (mainJournal, false) }
        let journal = try BorrowedJournal(connection: connection)
        mainJournal = journal
        return (journal, false)
    }

    /// Finalizes the statements of the `main` journal (`xDisconnect`).
    func close() {
        mainJournal?.close()
        mainJournal = nil
    }

    /// Sets the error message SQLite reports for the statement that failed.
    func setError(_ message: String) {
        guard let base else { return }
        sqlite3_free(base.pointee.zErrMsg)
        base.pointee.zErrMsg = makeSQLiteMessage(message)
    }

    /// Chooses the constraints the table applies itself (`xBestIndex`); the default applies none.
    func bestIndex(_ info: UnsafeMutablePointer<sqlite3_index_info>) {
        info.pointee.estimatedCost = 1e7
        info.pointee.estimatedRows = 10_000_000
    }

    /// Returns a new scan of the table (`xOpen`).
    func makeCursor() -> VirtualTableCursor { fatalError("a subclass makes its cursors") }
}

/// One scan of a ``VirtualTable``: what `xFilter`, `xNext`, `xEof`, `xColumn` and `xRowid` call.
class VirtualTableCursor {
    let table: VirtualTable
    /// The journal the current scan reads.
    private(set) var journal: BorrowedJournal?
    private var ownsJournal = false

    init(table: VirtualTable) {
        self.table = table
    }

    deinit {
        if ownsJournal { journal?.close() }
    }

    /// Switches to the journal of database `schema` for a new scan, closing one the last scan
    /// opened, and returns it.
    func useJournal(schema: String) throws -> BorrowedJournal {
        if ownsJournal { journal?.close() }
        journal = nil
        ownsJournal = false
        let (journal, isOwned) = try table.journal(schema: schema)
        self.journal = journal
        ownsJournal = isOwned
        return journal
    }

    /// Starts a scan with the constraints `plan` (the table's `idxStr`) names, whose values are
    /// `values`, in the same order; `number` is the table's `idxNum`.
    func filter(number: Int32, plan: String, values: [OpaquePointer?]) throws {}

    /// Moves to the next row.
    func next() throws {}

    /// Whether the scan has passed its last row.
    var isAtEnd: Bool { true }

    /// The current row's rowid.
    var rowid: Int64 { 0 }

    /// Sets the result of column `column` of the current row.
    func setResult(column: Int32, of context: OpaquePointer?) { sqlite3_result_null(context) }
}

// MARK: - Results

/// `SQLITE_TRANSIENT`, which the C macro cannot give Swift: SQLite copies the text at once.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// Sets a text result (NULL for nil), copied by SQLite.
func setText(_ text: String?, _ context: OpaquePointer?) {
    guard var text else { return sqlite3_result_null(context) }
    // An empty buffer may have no address, which SQLite would read as NULL.
    guard !text.isEmpty else { return sqlite3_result_text(context, "", 0, sqliteTransient) }
    text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) { characters in
            sqlite3_result_text64(context, characters.baseAddress, UInt64(characters.count), sqliteTransient, UInt8(SQLITE_UTF8))
        }
    }
}

/// Sets the result to the text whose UTF-8 is `bytes` (copied by SQLite).
func setText(utf8 bytes: [UInt8], _ context: OpaquePointer?) {
    guard !bytes.isEmpty else { return sqlite3_result_text(context, "", 0, sqliteTransient) }
    bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { characters in
            sqlite3_result_text64(context, characters.baseAddress, UInt64(characters.count), sqliteTransient, UInt8(SQLITE_UTF8))
        }
    }
}
