import CSQLite
import NavlogJournal

/// The `sqlite3_module` every table of the extension shares: C callbacks that find their Swift
/// table or cursor and turn thrown errors into SQLite error codes and messages. The client
/// data of `sqlite3_create_module_v2` says which table (``tables``) a module name makes.
///
/// The tables are eponymous only (`xCreate` is NULL): each exists in every connection that
/// loaded the extension, under its module's name, and `CREATE VIRTUAL TABLE` cannot make more.
/// See <https://www.sqlite.org/vtab.html#eponymous_only_virtual_tables>.
enum TableModule {
    typealias TableBox = VirtualTableBox<sqlite3_vtab, VirtualTable>
    typealias CursorBox = VirtualTableBox<sqlite3_vtab_cursor, VirtualTableCursor>

    /// The tables, by name; the client data of each module is its index here plus one.
    static let tables: [(name: String, type: VirtualTable.Type)] = [
        ("navlog_events", EventsTable.self),
        ("navlog_visits", VisitsTable.self),
    ]

    /// Registers every table on `connection`; returns an SQLite code and, on failure, a message.
    static func register(on connection: OpaquePointer) -> (code: Int32, message: String?) {
        for (index, table) in tables.enumerated() {
            let code = sqlite3_create_module_v2(connection, table.name, module, UnsafeMutableRawPointer(bitPattern: index + 1), nil)
            guard code == SQLITE_OK else {
                return (code, "navlog: registering \(table.name) failed: \(String(cString: sqlite3_errstr(code)))")
            }
        }
        return (SQLITE_OK, nil)
    }

    /// The module, allocated once and never freed, as SQLite keeps its address.
    ///
    /// `nonisolated(unsafe)`: the pointee is written once, inside the `static let`'s
    /// thread-safe lazy initializer, and only read afterwards (by SQLite), so no two threads
    /// ever race on it; a raw pointer just cannot say so to the compiler.
    nonisolated(unsafe) static let module: UnsafeMutablePointer<sqlite3_module> = {
        let module = UnsafeMutablePointer<sqlite3_module>.allocate(capacity: 1)
        module.initialize(to: makeModule())
        return module
    }()

    private static func makeModule() -> sqlite3_module {
        var module = sqlite3_module()
        module.iVersion = 1
        module.xCreate = nil
        module.xConnect = { connection, clientData, _, _, table, errorMessage in
            TableModule.connect(connection, Int(bitPattern: clientData) - 1, table, errorMessage)
        }
        module.xBestIndex = { table, info in
            guard let table, let info else { return SQLITE_MISUSE }
            TableBox.owner(of: table).bestIndex(info)
            return SQLITE_OK
        }
        module.xDisconnect = { table in
            guard let table else { return SQLITE_OK }
            TableBox.owner(of: table).close()
            sqlite3_free(table.pointee.zErrMsg)
            TableBox.release(table)
            return SQLITE_OK
        }
        module.xOpen = { table, cursor in
            guard let table, let cursor else { return SQLITE_MISUSE }
            cursor.pointee = CursorBox.make(owner: TableBox.owner(of: table).makeCursor())
            return SQLITE_OK
        }
        module.xClose = { cursor in
            if let cursor { CursorBox.release(cursor) }
            return SQLITE_OK
        }
        module.xFilter = { cursor, number, plan, count, values in
            guard let cursor else { return SQLITE_MISUSE }
            let owner = CursorBox.owner(of: cursor)
            let arguments = (0..<Int(count)).map { values?[$0] }
            return TableModule.run(owner) { try owner.filter(number: number, plan: plan.map { String(cString: $0) } ?? "", values: arguments) }
        }
        module.xNext = { cursor in
            guard let cursor else { return SQLITE_MISUSE }
            return CursorBox.withOwner(of: cursor) { owner in TableModule.run(owner) { try owner.next() } }
        }
        module.xEof = { cursor in
            guard let cursor else { return 1 }
            return CursorBox.withOwner(of: cursor) { $0.isAtEnd ? 1 : 0 }
        }
        module.xColumn = { cursor, context, column in
            guard let cursor else { return SQLITE_MISUSE }
            CursorBox.withOwner(of: cursor) { $0.setResult(column: column, of: context) }
            return SQLITE_OK
        }
        module.xRowid = { cursor, rowid in
            guard let cursor, let rowid else { return SQLITE_MISUSE }
            rowid.pointee = CursorBox.withOwner(of: cursor) { $0.rowid }
            return SQLITE_OK
        }
        return module
    }

    /// Declares table `index`'s columns. The journal is read when a scan starts, from the
    /// database its hidden `schema` column names (`main` by default).
    private static func connect(
        _ connection: OpaquePointer?, _ index: Int, _ table: UnsafeMutablePointer<UnsafeMutablePointer<sqlite3_vtab>?>?,
        _ errorMessage: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> Int32 {
        guard let connection, let table, tables.indices.contains(index) else { return SQLITE_MISUSE }
        let (name, type) = tables[index]
        let code = sqlite3_declare_vtab(connection, type.schema)
        guard code == SQLITE_OK else {
            errorMessage?.pointee = makeSQLiteMessage("\(name): declaring the columns failed: \(String(cString: sqlite3_errmsg(connection)))")
            return code
        }
        let owner = type.init(connection: connection)
        let base = TableBox.make(owner: owner)
        owner.base = base
        table.pointee = base
        return SQLITE_OK
    }

    /// Runs `body`, turning an error into `SQLITE_ERROR` with its description as the
    /// statement's message.
    private static func run(_ cursor: VirtualTableCursor, _ body: () throws -> Void) -> Int32 {
        do {
            try body()
            return SQLITE_OK
        } catch {
            cursor.table.setError("\(tableName(of: cursor.table)): \(error)")
            return SQLITE_ERROR
        }
    }

    private static func tableName(of table: VirtualTable) -> String {
        tables.first { $0.type == type(of: table) }?.name ?? "navlog"
    }
}
