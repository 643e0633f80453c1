import CSQLite

/// A value bound to or read from SQLite.
enum SQLiteValue: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}

/// `SQLITE_TRANSIENT`, which the C macro cannot give Swift: SQLite copies bound bytes at once.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One owned prepared statement (`sqlite3_stmt*`).
///
/// See <https://www.sqlite.org/c3ref/stmt.html>.
final class SQLiteStatement {
    private var handle: OpaquePointer?
    private unowned let database: SQLiteDatabase
    let sql: String

    init(database: SQLiteDatabase, sql: String) throws {
        self.database = database
        self.sql = sql
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(try database.liveHandle(sql), sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        try database.check(code, sql)
        self.handle = handle
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Finalizes the statement.
    func close() {
        sqlite3_finalize(handle)
        handle = nil
    }

    // MARK: - Binding

    /// Resets the statement and binds `values` to parameters 1...n.
    func bind(_ values: [SQLiteValue]) throws {
        reset()
        for (index, value) in values.enumerated() {
            try bind(value, at: Int32(index + 1))
        }
    }

    func bind(_ value: SQLiteValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case .integer(let integer): code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real): code = sqlite3_bind_double(handle, index, real)
        case .text(let text): code = sqlite3_bind_text(handle, index, text, -1, sqliteTransient)
        case .blob(let bytes): code = bindBlob(bytes, at: index)
        }
        try database.check(code, sql)
    }

    /// Binds an integer without boxing it into a ``SQLiteValue``; the writer's hot path.
    func bind(_ integer: Int64, at index: Int32) throws {
        try database.check(sqlite3_bind_int64(handle, index, integer), sql)
    }

    /// Binds bytes as a blob (an empty blob, not NULL, when `bytes` is empty).
    func bind(blob bytes: [UInt8], at index: Int32) throws {
        try database.check(bindBlob(bytes, at: index), sql)
    }

    /// Binds text.
    func bind(text: String, at index: Int32) throws {
        try database.check(sqlite3_bind_text(handle, index, text, -1, sqliteTransient), sql)
    }

    private func bindBlob(_ bytes: [UInt8], at index: Int32) -> Int32 {
        bytes.withUnsafeBytes { buffer in
            sqlite3_bind_blob(handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count), sqliteTransient)
        }
    }

    /// Resets the statement so it can run again; keeps bindings.
    func reset() {
        sqlite3_reset(handle)
    }

    // MARK: - Stepping

    /// Advances to the next row; returns false when done.
    @discardableResult
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        let context = sql
        sqlite3_reset(handle)
        try database.check(code, context)
        return false
    }

    /// Runs the statement to completion, ignoring rows.
    func run() throws {
        while try step() {}
        reset()
    }

    var columnCount: Int { Int(sqlite3_column_count(handle)) }

    func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func text(at column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: text)
    }

    func blob(at column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    func value(at column: Int) -> SQLiteValue {
        let index = Int32(column)
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(int64(at: index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: return .text(text(at: index))
        case SQLITE_BLOB: return .blob(blob(at: index))
        default: return .null
        }
    }
}
