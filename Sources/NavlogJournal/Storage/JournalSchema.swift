/// The journal file's schema and its named, append-only migrations.
///
/// `PRAGMA user_version` holds the number of migrations applied, and the `migration` table their
/// names. Never edit or reorder a step; add a new one at the end.
enum JournalSchema {
    /// One named schema step.
    struct Migration {
        var name: String
        var sql: String
    }

    /// Every step, oldest first; `user_version` counts how many a file has.
    static let migrations: [Migration] = [
        Migration(name: "v1-tables", sql: """
            CREATE TABLE migration(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ns INTEGER NOT NULL);
            CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE string(id INTEGER PRIMARY KEY, value TEXT NOT NULL UNIQUE);
            CREATE TABLE run(
                id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,
                started_ns INTEGER NOT NULL, ended_ns INTEGER);
            CREATE TABLE run_label(
                run INTEGER NOT NULL REFERENCES run(id), key TEXT NOT NULL, value TEXT NOT NULL,
                PRIMARY KEY(run, key)) WITHOUT ROWID;
            CREATE TABLE session(
                id INTEGER PRIMARY KEY, name TEXT NOT NULL, run INTEGER NOT NULL REFERENCES run(id),
                first_seq INTEGER NOT NULL, UNIQUE(run, name));
            CREATE TABLE kind(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE block(
                id INTEGER PRIMARY KEY, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL,
                event_count INTEGER NOT NULL, min_time_ns INTEGER NOT NULL, max_time_ns INTEGER NOT NULL,
                raw_bytes INTEGER NOT NULL, crc32 INTEGER NOT NULL, data BLOB NOT NULL);
            CREATE INDEX block_by_seq ON block(last_seq);
            -- The event index: one row per session per block, with that session's seq and time
            -- range, count and kinds (bit n set for kind id n; bit 63 for ids 63 and up). The
            -- events themselves are in the block, compressed.
            CREATE TABLE event(
                block INTEGER NOT NULL REFERENCES block(id), session INTEGER NOT NULL REFERENCES session(id),
                first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL,
                first_time_ns INTEGER NOT NULL, last_time_ns INTEGER NOT NULL,
                event_count INTEGER NOT NULL, kinds INTEGER NOT NULL,
                PRIMARY KEY(block, session)) WITHOUT ROWID;
            CREATE INDEX event_by_session ON event(session, last_seq);
            CREATE VIEW event_view AS
                SELECT e.block, r.name AS run, s.name AS session, e.first_seq, e.last_seq, e.event_count,
                       strftime('%Y-%m-%dT%H:%M:%f', e.first_time_ns / 1000000000.0, 'unixepoch') || 'Z' AS first_time,
                       strftime('%Y-%m-%dT%H:%M:%f', e.last_time_ns / 1000000000.0, 'unixepoch') || 'Z' AS last_time,
                       (SELECT group_concat(k.name, ',') FROM kind k
                        WHERE e.kinds & (1 << min(k.id, 63)) != 0) AS kinds
                FROM event e
                JOIN session s ON s.id = e.session
                JOIN run r ON r.id = s.run;
            """),
        // Blocks of format 2 (payloads split into streams, see EventBlock); a navlog that reads
        // only format 1 refuses the file by its schema version instead of calling blocks damaged.
        Migration(name: "v2-block-format-2", sql: """
            INSERT OR REPLACE INTO meta(key, value) VALUES ('block_format', '2');
            """),
        // Idempotency keys of `POST /v1/ingest`: one row per accepted request, committed in the
        // same transaction as its events (``IngestReceipt``), so a retry after a crash finds it.
        Migration(name: "v3-ingest-receipts", sql: """
            CREATE TABLE ingest_receipt(
                key TEXT PRIMARY KEY, committed_ns INTEGER NOT NULL,
                first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, answer TEXT NOT NULL) WITHOUT ROWID;
            """),
    ]

    /// The version this navlog writes and the newest it reads.
    static var currentVersion: Int { migrations.count }

    /// Applies the steps `database` lacks, in one transaction.
    static func migrate(_ database: SQLiteDatabase, nowNanoseconds: Int64) throws {
        let found = Int(try database.scalar("PRAGMA user_version")?.integer ?? 0)
        guard found < currentVersion else { return }
        try database.execute("BEGIN IMMEDIATE")
        do {
            for version in found..<currentVersion {
                let migration = migrations[version]
                try database.execute(migration.sql)
                let record = try database.prepare("INSERT INTO migration(version, name, applied_ns) VALUES (?, ?, ?)")
                try record.bind([.integer(Int64(version + 1)), .text(migration.name), .integer(nowNanoseconds)])
                try record.run()
            }
            try database.execute("PRAGMA user_version = \(currentVersion)")
            try database.execute("COMMIT")
        } catch {
            if !database.isAutocommit { try? database.execute("ROLLBACK") }
            throw error
        }
    }
}
