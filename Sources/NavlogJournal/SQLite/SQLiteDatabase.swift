import CSQLite

/// One owned SQLite connection (`sqlite3*`).
///
/// Used from one thread at a time: the writer's thread, or the reader that created it.
final class SQLiteDatabase {
    /// How long a statement waits for a lock another connection holds.
    static let busyTimeoutMilliseconds: Int32 = 5_000

    private(set) var handle: OpaquePointer?
    /// The database file.
    let path: String
    /// Whether this object opened the connection and so closes it; false for one it borrows.
    private let ownsHandle: Bool

    /// Opens `path`; `readOnly` opens without creating or writing.
    ///
    /// See <https://www.sqlite.org/c3ref/open.html>.
    init(path: String, readOnly: Bool = false) throws {
        self.path = path
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        flags |= readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw SQLiteError(code: code, message: message, context: "open", path: path)
        }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        self.handle = handle
        ownsHandle = true
    }

    /// Wraps a connection another program opened and keeps owning (a loadable extension's
    /// host): this object prepares statements on it but never closes it, nor changes its settings.
    init(borrowing handle: OpaquePointer, path: String) {
        self.handle = handle
        self.path = path
        ownsHandle = false
    }

    deinit {
        if ownsHandle { sqlite3_close_v2(handle) }
    }

    /// Closes the connection (a borrowed one stays open for its owner); later calls throw
    /// `SQLITE_MISUSE`.
    func close() {
        if ownsHandle { sqlite3_close_v2(handle) }
        handle = nil
    }

    // MARK: - Running SQL

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws {
        let code = sqlite3_exec(try liveHandle(sql), sql, nil, nil, nil)
        try check(code, sql)
    }

    /// Prepares a statement for repeated use.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql)
    }

    /// Runs `sql` with `bindings` and returns the first column of the first row, if any.
    func scalar(_ sql: String, _ bindings: [SQLiteValue] = []) throws -> SQLiteValue? {
        let statement = try prepare(sql)
        try statement.bind(bindings)
        guard try statement.step() else { return nil }
        return statement.value(at: 0)
    }

    /// Runs `sql` with `bindings` and returns every row.
    func rows(_ sql: String, _ bindings: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        try statement.bind(bindings)
        var rows: [[SQLiteValue]] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.value(at: $0) })
        }
        return rows
    }

    /// The rowid of the last insert.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// The rows the last `INSERT`, `UPDATE` or `DELETE` changed; 0 when `INSERT OR IGNORE`
    /// found its row already there. See <https://www.sqlite.org/c3ref/changes.html>.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether no transaction is open.
    var isAutocommit: Bool { handle.map { sqlite3_get_autocommit($0) != 0 } ?? true }

    // MARK: - Checkpoints

    /// Copies the write-ahead log into the database and truncates it to zero bytes, giving its
    /// space back to the volume; never waits for a reader. Returns false when a reader (or
    /// another writer) kept the log from being reset: as much as could be copied was, and the
    /// file keeps its size.
    ///
    /// See <https://www.sqlite.org/c3ref/wal_checkpoint_v2.html> (`SQLITE_CHECKPOINT_TRUNCATE`).
    func checkpointTruncatingLog() throws -> Bool {
        let handle = try liveHandle("wal_checkpoint(TRUNCATE)")
        // A busy handler that gives up at once: the checkpoint copies what it can and reports
        // SQLITE_BUSY instead of waiting for readers to finish.
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds) }
        var logFrames: Int32 = 0
        var copiedFrames: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &copiedFrames)
        if code & 0xFF == SQLITE_BUSY { return false }
        try check(code, "wal_checkpoint(TRUNCATE)")
        return true
    }

    // MARK: - Errors

    func liveHandle(_ context: String) throws -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "connection is closed", context: context, path: path)
        }
        return handle
    }

    /// Throws an ``SQLiteError`` unless `code` is `SQLITE_OK`, `SQLITE_ROW` or `SQLITE_DONE`.
    func check(_ code: Int32, _ context: @autoclosure () -> String) throws {
        guard code != SQLITE_OK, code != SQLITE_ROW, code != SQLITE_DONE else { return }
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "connection is closed"
        throw SQLiteError(code: code, message: message, context: context(), path: path)
    }
}
