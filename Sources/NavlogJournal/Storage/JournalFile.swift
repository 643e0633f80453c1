import CSQLite
import Foundation

/// One `.navlog` file: an SQLite database with the journal schema.
final class JournalFile {
    let database: SQLiteDatabase
    var path: String { database.path }
    /// What names the file's tables in SQL: empty for a file this navlog opened, the quoted
    /// schema and a dot (`"aux".`) for one a borrowed connection attached.
    let schemaPrefix: String

    private init(database: SQLiteDatabase, schema: String? = nil) {
        self.database = database
        schemaPrefix = schema.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"." } ?? ""
    }

    /// Closes the connection.
    func close() {
        database.close()
    }

    // MARK: - Opening

    /// Creates a new file: tables first (rollback journal), then WAL for the writer.
    static func create(path: String, nowNanoseconds: Int64, meta: [String: String]) throws -> JournalFile {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw JournalError.fileSystem(path: path, operation: "creating", reason: "the file already exists")
        }
        do {
            let database = try SQLiteDatabase(path: path)
            try JournalSchema.migrate(database, nowNanoseconds: nowNanoseconds)
            try database.execute("BEGIN")
            let insert = try database.prepare("INSERT INTO meta(key, value) VALUES (?, ?)")
            for (key, value) in meta.sorted(by: { $0.key < $1.key }) {
                try insert.bind([.text(key), .text(value)])
                try insert.run()
            }
            try database.execute("COMMIT")
            // The writer checkpoints itself, sized to the free space (JournalFileWriter+Log).
            try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0")
            return JournalFile(database: database)
        } catch {
            throw JournalError.wrapping(error, path: path)
        }
    }

    /// Why a file a writer is still creating is not yet a journal: it is empty until SQLite
    /// writes its header, and has no tables until the schema's transaction commits.
    static let emptyFileReason = "the file is empty"
    static let noTablesReason = "an SQLite database without journal tables"

    /// Opens an existing file for reading and checks it is a journal this navlog understands.
    static func openForReading(path: String) throws -> JournalFile {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let size = attributes?[.size] as? Int else {
            throw JournalError.fileSystem(path: path, operation: "opening", reason: "no such file")
        }
        guard size > 0 else { throw JournalError.notAJournal(path: path, reason: emptyFileReason) }
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: path, readOnly: true)
        } catch {
            throw JournalError.wrapping(error, path: path)
        }
        let file = JournalFile(database: database)
        try file.validate()
        return file
    }

    /// Wraps database `schema` (`main`, or one attached) of a connection another program owns
    /// (the SQLite extension's host) and checks it is a journal this navlog understands;
    /// closing it leaves the connection open.
    static func borrowing(_ connection: OpaquePointer, schema: String) throws -> JournalFile {
        guard let filename = sqlite3_db_filename(connection, schema) else {
            throw JournalError.notAJournal(path: schema, reason: "the connection has no database named '\(schema)'")
        }
        let name = String(cString: filename)
        let file = JournalFile(database: SQLiteDatabase(borrowing: connection, path: name.isEmpty ? ":memory:" : name), schema: schema)
        try file.validate()
        return file
    }

    /// Throws unless the schema is one this navlog reads.
    func validate() throws {
        let version: Int
        do {
            version = Int(try database.scalar("PRAGMA \(schemaPrefix)user_version")?.integer ?? 0)
        } catch let error as SQLiteError where error.isCorruption {
            throw JournalError.notAJournal(path: path, reason: "not an SQLite database or damaged (\(error.message))")
        } catch {
            throw JournalError.wrapping(error, path: path)
        }
        guard version <= JournalSchema.currentVersion else {
            throw JournalError.newerSchema(path: path, found: version, supported: JournalSchema.currentVersion)
        }
        guard version > 0 else {
            throw JournalError.notAJournal(path: path, reason: Self.noTablesReason)
        }
    }

    // MARK: - Queries

    /// Returns a `meta` value.
    func meta(_ key: String) throws -> String? {
        do {
            return try database.scalar("SELECT value FROM \(schemaPrefix)meta WHERE key = ?", [.text(key)])?.text
        } catch {
            throw JournalError.wrapping(error, path: path)
        }
    }

    /// Whether the writer closed the file cleanly (`meta.closed_at` is set).
    func isClosedCleanly() throws -> Bool { try meta("closed_at_ns") != nil }

    /// The lowest and highest seq stored, or nil for a file without events.
    func seqRange() throws -> ClosedRange<UInt64>? {
        do {
            let row = try database.rows("SELECT min(first_seq), max(last_seq) FROM \(schemaPrefix)block").first
            guard let low = row?[0].integer, let high = row?[1].integer else { return nil }
            guard low >= 0, high >= low else {
                throw JournalError.notAJournal(path: path, reason: "its block seq range \(low)...\(high) is damaged")
            }
            return UInt64(low)...UInt64(high)
        } catch let error as JournalError {
            throw error
        } catch {
            throw JournalError.wrapping(error, path: path)
        }
    }

    /// Every interned string, by id.
    func loadStrings(after id: Int64 = 0, into strings: inout [Int64: String]) throws {
        let statement = try database.prepare("SELECT id, value FROM \(schemaPrefix)string WHERE id > ?")
        try statement.bind([.integer(id)])
        while try statement.step() { strings[statement.int64(at: 0)] = statement.text(at: 1) }
    }

    /// Every kind name, by id.
    func loadKinds(into kinds: inout [Int64: String]) throws {
        let statement = try database.prepare("SELECT id, name FROM \(schemaPrefix)kind")
        while try statement.step() { kinds[statement.int64(at: 0)] = statement.text(at: 1) }
    }

    /// The ids of the writer's own bookkeeping session (``JournalWriter/bookkeepingSession`` of
    /// the run `meta.run` names), where its `journal.dropped` records are: a record of another
    /// run's session with that name was ingested or pushed, and names seqs of another journal.
    func ownBookkeepingSessionIDs() throws -> Set<Int64> {
        let statement = try database.prepare("""
            SELECT s.id FROM \(schemaPrefix)session s JOIN \(schemaPrefix)run r ON r.id = s.run
            WHERE s.name = ? AND r.name = (SELECT value FROM \(schemaPrefix)meta WHERE key = 'run')
            """)
        try statement.bind([.text(JournalWriter.bookkeepingSession)])
        var ids: Set<Int64> = []
        while try statement.step() { ids.insert(statement.int64(at: 0)) }
        return ids
    }

    /// Every session with its name and run name, by id.
    func loadSessions(into sessions: inout [Int64: (name: String, run: String)]) throws {
        let statement = try database.prepare("SELECT s.id, s.name, r.name FROM \(schemaPrefix)session s JOIN \(schemaPrefix)run r ON r.id = s.run")
        while try statement.step() { sessions[statement.int64(at: 0)] = (statement.text(at: 1), statement.text(at: 2)) }
    }
}
