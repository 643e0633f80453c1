import CSQLite

/// A failed SQLite call: the result code, SQLite's message, the SQL (or operation) and the file.
///
/// See <https://www.sqlite.org/rescode.html> for the codes.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The extended result code.
    public var code: Int32
    /// SQLite's own message (`sqlite3_errmsg`).
    public var message: String
    /// The SQL statement or operation that failed.
    public var context: String
    /// The database file.
    public var path: String

    public init(code: Int32, message: String, context: String, path: String) {
        self.code = code
        self.message = message
        self.context = context
        self.path = path
    }

    /// The primary result code (`SQLITE_FULL`, `SQLITE_CORRUPT`, ...).
    public var primaryCode: Int32 { code & 0xFF }

    /// Whether the device or the file-size limit was full.
    public var isDiskFull: Bool { primaryCode == SQLITE_FULL || primaryCode == SQLITE_IOERR }

    /// Whether SQLite found the file damaged or not a database at all.
    public var isCorruption: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }

    public var description: String {
        let name = String(cString: sqlite3_errstr(code))
        return "SQLite error \(code) (\(name)) in \(path): \(message) [while: \(context)]"
    }
}
