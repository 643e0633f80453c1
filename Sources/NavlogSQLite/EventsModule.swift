import CSQLite
import NavlogJournal

/// The `sqlite3_module` of `navlog_events`: C callbacks that find their Swift table or cursor
/// and turn thrown errors into SQLite error codes and messages.
///
/// The table is eponymous only (`xCreate` is NULL): it exists in every connection that loaded
/// the extension, as `navlog_events`, and `CREATE VIRTUAL TABLE` cannot make more of it.
/// See <https://www.sqlite.org/vtab.html#eponymous_only_virtual_tables>.
enum EventsModule {
    typealias TableBox = VirtualTableBox<sqlite3_vtab, EventsTable>
    typealias CursorBox = VirtualTableBox<sqlite3_vtab_cursor, EventsCursor>

    /// The module, allocated once and never freed, as SQLite keeps its address.
    nonisolated(unsafe) static let module: UnsafeMutablePointer<sqlite3_module> = {
        let module = UnsafeMutablePointer<sqlite3_module>.allocate(capacity: 1)
        module.initialize(to: makeModule())
        return module
    }()

    private static func makeModule() -> sqlite3_module {
        var module = sqlite3_module()
        module.iVersion = 1
        module.xCreate = nil
        module.xConnect = { connection, _, _, _, table, errorMessage in
            EventsModule.connect(connection, table, errorMessage)
        }
        module.xBestIndex = { table, info in
            guard let table, let info else { return SQLITE_MISUSE }
            TableBox.owner(of: table).bestIndex(info)
            return SQLITE_OK
        }
        module.xDisconnect = { table in
            guard let table else { return SQLITE_OK }
            TableBox.owner(of: table).journal.close()
            sqlite3_free(table.pointee.zErrMsg)
            TableBox.release(table)
            return SQLITE_OK
        }
        module.xOpen = { table, cursor in
            guard let table, let cursor else { return SQLITE_MISUSE }
            cursor.pointee = CursorBox.make(owner: EventsCursor(table: TableBox.owner(of: table)))
            return SQLITE_OK
        }
        module.xClose = { cursor in
            if let cursor { CursorBox.release(cursor) }
            return SQLITE_OK
        }
        module.xFilter = { cursor, _, plan, count, values in
            guard let cursor else { return SQLITE_MISUSE }
            let owner = CursorBox.owner(of: cursor)
            let arguments = (0..<Int(count)).map { values?[$0] }
            return EventsModule.run(owner) { try owner.filter(plan: plan.map { String(cString: $0) } ?? "", values: arguments) }
        }
        module.xNext = { cursor in
            guard let cursor else { return SQLITE_MISUSE }
            let owner = CursorBox.owner(of: cursor)
            return EventsModule.run(owner) { try owner.next() }
        }
        module.xEof = { cursor in
            guard let cursor else { return 1 }
            return CursorBox.owner(of: cursor).isAtEnd ? 1 : 0
        }
        module.xColumn = { cursor, context, column in
            guard let cursor else { return SQLITE_MISUSE }
            CursorBox.owner(of: cursor).setResult(column: column, of: context)
            return SQLITE_OK
        }
        module.xRowid = { cursor, rowid in
            guard let cursor, let rowid else { return SQLITE_MISUSE }
            rowid.pointee = Int64(bitPattern: CursorBox.owner(of: cursor).current.seq)
            return SQLITE_OK
        }
        return module
    }

    /// Declares the table's columns and wraps the connection's journal; a database that is not
    /// a journal fails here, so the statement naming `navlog_events` does not prepare.
    private static func connect(
        _ connection: OpaquePointer?, _ table: UnsafeMutablePointer<UnsafeMutablePointer<sqlite3_vtab>?>?,
        _ errorMessage: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> Int32 {
        guard let connection, let table else { return SQLITE_MISUSE }
        let code = sqlite3_declare_vtab(connection, EventsTable.schema)
        guard code == SQLITE_OK else { return code }
        do {
            let owner = EventsTable(journal: try BorrowedJournal(connection: connection))
            let base = TableBox.make(owner: owner)
            owner.base = base
            table.pointee = base
            return SQLITE_OK
        } catch {
            errorMessage?.pointee = makeSQLiteMessage("navlog_events: \(error)")
            return SQLITE_ERROR
        }
    }

    /// Runs `body`, turning an error into `SQLITE_ERROR` with its description as the
    /// statement's message.
    private static func run(_ cursor: EventsCursor, _ body: () throws -> Void) -> Int32 {
        do {
            try body()
            return SQLITE_OK
        } catch {
            cursor.table.setError("navlog_events: \(error)")
            return SQLITE_ERROR
        }
    }
}
