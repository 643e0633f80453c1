import Foundation

/// Writes batches into one open `.navlog` file; owned by the writer's thread.
final class JournalFileWriter {
    let file: JournalFile
    let createdMonotonic: UInt64
    private let runRow: Int64
    /// The writer's run id: events of another run are foreign (``foreignSession(of:)``).
    let runName: String
    let foreignRuns: ForeignRunRegistry
    /// Rows of foreign runs in this file by run id, each with its sessions' rows by name; the
    /// run of the previous foreign event is kept at hand (a batch is mostly one run).
    var foreignRunRows: [String: ForeignRunRows] = [:]
    var lastForeignRun: ForeignRunRows?
    let insertForeignRun: SQLiteStatement
    let findRun: SQLiteStatement
    let insertReceipt: SQLiteStatement
    private let blockSize: Int
    private let deflater: Deflater
    private let insertEvent: SQLiteStatement
    private let insertBlock: SQLiteStatement
    private let insertString: SQLiteStatement
    private let insertSession: SQLiteStatement
    private let insertKind: SQLiteStatement
    private let findString: SQLiteStatement
    private let findSession: SQLiteStatement
    private var kinds: [String: Int64] = [:]
    /// Ids of strings and sessions written to this file: caches of the `string` and `session`
    /// tables, which stay the truth. They once kept every name the file held, so a daemon's
    /// memory grew with each session until the file rotated (about 80 bytes a session, 10 MB
    /// per 64 MB file in a create / 10 actions / delete soak). Now a session leaves at its
    /// `session.end`, both are emptied when they reach ``cacheLimit``, and a name not cached
    /// is looked up (an indexed `SELECT`, the tables' UNIQUE constraints) before it is added.
    private var strings: [String: Int64] = [:]
    private var sessions: [String: Int64] = [:]
    static let cacheLimit = 1 << 14
    private(set) var eventCount: UInt64 = 0
    private(set) var lastSeq: UInt64 = 0
    /// The last transaction failed for want of space (``reclaimingSpace(_:)``).
    var isShortOfSpace = false

    var path: String { file.path }

    /// Creates `path` for run `run` and prepares the statements.
    init(path: String, run: RunInfo, firstSeq: UInt64, configuration: JournalConfiguration,
         foreignRuns: ForeignRunRegistry = ForeignRunRegistry()) throws {
        let now = configuration.clock.now()
        file = try JournalFile.create(path: path, nowNanoseconds: now.wall, meta: [
            "format": "navlog-journal",
            "created_at_ns": String(now.wall),
            "first_seq": String(firstSeq),
            "run": run.id,
            "pid": String(getpid()),
            "compression": "zlib-raw-deflate level \(configuration.compressionLevel), columnar blocks of \(configuration.blockSize) events",
        ])
        createdMonotonic = now.monotonic
        blockSize = configuration.blockSize
        runName = run.id
        self.foreignRuns = foreignRuns
        do {
            let database = file.database
            // Memory level 7, not zlib's default 8: half the symbols per set of Huffman codes
            // suits a block's mix of columns and payload streams (0.308 -> 0.302 of ndjson gzip
            // on the bench workload; docs/PERFORMANCE.md).
            deflater = try Deflater(level: configuration.compressionLevel, format: .raw, memoryLevel: 7)
            try database.execute("BEGIN")
            let insertRun = try database.prepare("INSERT INTO run(name, started_ns) VALUES (?, ?)")
            try insertRun.bind([.text(run.id), .integer(run.startedNanoseconds)])
            try insertRun.run()
            runRow = database.lastInsertRowID
            let insertLabel = try database.prepare("INSERT INTO run_label(run, key, value) VALUES (?, ?, ?)")
            for (key, value) in run.labels.sorted(by: { $0.key < $1.key }) {
                try insertLabel.bind([.integer(runRow), .text(key), .text(value)])
                try insertLabel.run()
            }
            try database.execute("COMMIT")
            insertEvent = try database.prepare("""
                INSERT INTO event(block, session, first_seq, last_seq, first_time_ns, last_time_ns, event_count, kinds)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            insertKind = try database.prepare("INSERT INTO kind(name) VALUES (?)")
            insertBlock = try database.prepare("""
                INSERT INTO block(first_seq, last_seq, event_count, min_time_ns, max_time_ns, raw_bytes, crc32, data)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            insertString = try database.prepare("INSERT OR IGNORE INTO string(value) VALUES (?)")
            insertSession = try database.prepare("INSERT OR IGNORE INTO session(name, run, first_seq) VALUES (?, ?, ?)")
            findString = try database.prepare("SELECT id FROM string WHERE value = ?")
            findSession = try database.prepare("SELECT id FROM session WHERE run = ? AND name = ?")
            insertForeignRun = try database.prepare("INSERT OR IGNORE INTO run(name, started_ns) VALUES (?, ?)")
            findRun = try database.prepare("SELECT id FROM run WHERE name = ?")
            insertReceipt = try database.prepare("""
                INSERT OR REPLACE INTO ingest_receipt(key, committed_ns, first_seq, last_seq, answer) VALUES (?, ?, ?, ?, ?)
                """)
        } catch {
            throw JournalError.wrapping(error, path: path)
        }
    }

    /// What one commit wrote.
    struct BatchResult {
        var compressedBytes: UInt64 = 0
        var uncompressedBytes: UInt64 = 0
    }

    // MARK: - Writing

    /// Writes `events` (in seq order) in one transaction; on failure nothing of it remains.
    ///
    /// On a full volume the write-ahead log gives its space back and the transaction is tried
    /// once more (``reclaimingSpace(_:)``); after the commit the log is checkpointed when it
    /// holds more than its share of the free space (``checkpointIfDue()``).
    func write(_ events: [JournalWriter.QueuedEvent]) throws -> BatchResult {
        let result = try reclaimingSpace { try writeTransaction(events) }
        eventCount += UInt64(events.count)
        if let last = events.last { lastSeq = last.event.seq }
        checkpointIfDue()
        return result
    }

    /// Writes `events` in one transaction, rolling back (and forgetting the rows it added to
    /// the caches) on failure.
    private func writeTransaction(_ events: [JournalWriter.QueuedEvent]) throws -> BatchResult {
        let database = file.database
        var newKinds: [String] = []
        var endedSessions: [String] = []
        var receipts: [IngestReceipt] = []
        var result = BatchResult()
        do {
            try database.execute("BEGIN")
            var start = 0
            while start < events.count {
                let end = min(events.count, start + blockSize)
                var stored: [StoredEvent] = []
                stored.reserveCapacity(end - start)
                // Events are read in place, through the buffer: a copy of each one retained and
                // released all its strings and its payload.
                try events.withUnsafeBufferPointer { queued in
                    for position in start..<end {
                        let event = UnsafePointer(queued.baseAddress! + position)
                        if let receipt = event.pointee.receipt { receipts.append(receipt) }
                        let isOwn = event.pointee.event.run == runName
                        if isOwn, event.pointee.event.kind == .sessionEnd { endedSessions.append(event.pointee.event.session) }
                        stored.append(StoredEvent(
                            seq: event.pointee.event.seq, wallNanoseconds: event.pointee.event.wallNanoseconds,
                            monotonicNanoseconds: event.pointee.event.monotonicNanoseconds,
                            session: isOwn
                                ? try session(event.pointee.event.session, firstSeq: event.pointee.event.seq)
                                : try foreignSession(of: event.pointee.event),
                            kind: try kind(event.pointee.event.kind.rawValue, new: &newKinds),
                            sessionSeq: event.pointee.event.sessionSeq,
                            subject: try string(event.pointee.event.subject),
                            screen: try event.pointee.event.screen.map { try string($0) } ?? 0,
                            cause: event.pointee.event.cause,
                            parent: try event.pointee.event.parent.map { try string($0) } ?? 0,
                            payload: event.pointee.event.payload,
                            encodedPayload: event.pointee.encodedPayload))
                    }
                }
                let raw = EventBlock.encode(stored)
                let compressed = try deflater.compressAll(raw)
                let times = stored.indices.map { stored[$0].wallNanoseconds }
                insertBlock.reset()
                try insertBlock.bind(Int64(stored[0].seq), at: 1)
                try insertBlock.bind(Int64(stored[stored.count - 1].seq), at: 2)
                try insertBlock.bind(Int64(stored.count), at: 3)
                try insertBlock.bind(times.min() ?? 0, at: 4)
                try insertBlock.bind(times.max() ?? 0, at: 5)
                try insertBlock.bind(Int64(raw.count), at: 6)
                try insertBlock.bind(Int64(crc32Checksum(raw)), at: 7)
                try insertBlock.bind(blob: compressed, at: 8)
                try insertBlock.run()
                let block = database.lastInsertRowID
                for entry in Self.indexEntries(stored) {
                    insertEvent.reset()
                    for (column, value) in [block, entry.session, Int64(bitPattern: entry.firstSeq), Int64(bitPattern: entry.lastSeq),
                                            entry.firstTime, entry.lastTime, entry.count, Int64(bitPattern: entry.kinds)].enumerated() {
                        try insertEvent.bind(value, at: Int32(column + 1))
                    }
                    try insertEvent.run()
                }
                result.compressedBytes += UInt64(compressed.count)
                result.uncompressedBytes += UInt64(raw.count)
                start = end
            }
            for receipt in receipts { try write(receipt) }
            try database.execute("COMMIT")
        } catch {
            if !database.isAutocommit { try? database.execute("ROLLBACK") }
            // The rows this batch added are gone: the caches forget everything (what is still
            // in the file is found again), the kinds what the batch added.
            strings.removeAll()
            sessions.removeAll()
            foreignRunRows.removeAll()
            lastForeignRun = nil
            for name in newKinds { kinds[name] = nil }
            throw JournalError.wrapping(error, path: path)
        }
        // An ended session records nothing more (were it to, its row is found again).
        for name in endedSessions { sessions[name] = nil }
        return result
    }

    private func string(_ value: String) throws -> Int64 {
        if let id = strings[value] { return id }
        try insertString.bind([.text(value)])
        try insertString.run()
        let id = file.database.changes > 0 ? file.database.lastInsertRowID : try existingID(findString, [.text(value)], of: "string \(value)")
        if strings.count >= Self.cacheLimit { strings.removeAll() }
        strings[value] = id
        return id
    }

    /// The id `statement` finds with `bindings`: a row this file holds but a cache forgot.
    func existingID(_ statement: SQLiteStatement, _ bindings: [SQLiteValue], of what: String) throws -> Int64 {
        try statement.bind(bindings)
        guard try statement.step() else {
            throw JournalError.notAJournal(path: path, reason: "\(what) was neither added nor found")
        }
        let id = statement.int64(at: 0)
        statement.reset()
        return id
    }

    private func kind(_ name: String, new: inout [String]) throws -> Int64 {
        if let id = kinds[name] { return id }
        try insertKind.bind([.text(name)])
        try insertKind.run()
        let id = file.database.lastInsertRowID
        kinds[name] = id
        new.append(name)
        return id
    }

    /// One `event` row: a session's events within one block.
    struct IndexEntry {
        var session: Int64
        var firstSeq: UInt64
        var lastSeq: UInt64
        var firstTime: Int64
        var lastTime: Int64
        var count: Int64
        var kinds: UInt64
    }

    /// Returns the `event` rows of a block, one per session, in order of first appearance.
    static func indexEntries(_ events: [StoredEvent]) -> [IndexEntry] {
        var entries: [IndexEntry] = []
        var positions: [Int64: Int] = [:]
        events.withUnsafeBufferPointer { events in
            for index in events.indices {
                let (session, seq, time) = (events[index].session, events[index].seq, events[index].wallNanoseconds)
                let bit = kindBit(events[index].kind)
                if let position = positions[session] {
                    entries[position].lastSeq = seq
                    entries[position].firstTime = min(entries[position].firstTime, time)
                    entries[position].lastTime = max(entries[position].lastTime, time)
                    entries[position].count += 1
                    entries[position].kinds |= bit
                } else {
                    positions[session] = entries.count
                    entries.append(IndexEntry(session: session, firstSeq: seq, lastSeq: seq, firstTime: time, lastTime: time, count: 1, kinds: bit))
                }
            }
        }
        return entries
    }

    /// The `kinds` bit of kind id `id`: bit `id`, or bit 63 for ids 63 and up.
    static func kindBit(_ id: Int64) -> UInt64 { 1 << UInt64(min(max(id, 0), 63)) }

    private func session(_ name: String, firstSeq: UInt64) throws -> Int64 {
        if let id = sessions[name] { return id }
        let id = try insertSessionRow(name, run: runRow, firstSeq: firstSeq)
        if sessions.count >= Self.cacheLimit { sessions.removeAll() }
        sessions[name] = id
        return id
    }

    /// Adds the row of session `name` of run row `run`, or finds it when the file has it.
    func insertSessionRow(_ name: String, run: Int64, firstSeq: UInt64) throws -> Int64 {
        try insertSession.bind([.text(name), .integer(run), .integer(Int64(firstSeq))])
        try insertSession.run()
        return file.database.changes > 0
            ? file.database.lastInsertRowID : try existingID(findSession, [.integer(run), .text(name)], of: "session \(name)")
    }

    // MARK: - Size and closing

    /// Whether the file is still reachable by its path (nobody removed it or its directory);
    /// one `stat` per commit.
    var isStillLinked: Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_nlink > 0
    }

    /// Bytes of the database and its WAL on disk.
    var bytesOnDisk: Int64 {
        JournalDirectory.fileSize(path) + JournalDirectory.fileSize(path + "-wal")
    }

    /// Marks the file closed, folds the WAL in, and leaves it in rollback mode for readers.
    func close(closedNanoseconds: Int64, isRunEnding: Bool) throws {
        try reclaimingSpace { try markClosed(closedNanoseconds: closedNanoseconds, isRunEnding: isRunEnding) }
        for statement in [insertEvent, insertBlock, insertString, insertSession, insertKind, insertForeignRun, findRun, insertReceipt] {
            statement.close()
        }
        // Best effort: with a follower attached the file stays in WAL mode, which readers handle.
        try? file.database.execute("PRAGMA busy_timeout = 0; PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE")
        file.database.close()
        deflater.close()
    }

    /// Ends the run (when `isRunEnding`) and writes the closing `meta` rows, in one transaction.
    private func markClosed(closedNanoseconds: Int64, isRunEnding: Bool) throws {
        let database = file.database
        do {
            try database.execute("BEGIN")
            if isRunEnding {
                let endRun = try database.prepare("UPDATE run SET ended_ns = ? WHERE id = ?")
                try endRun.bind([.integer(closedNanoseconds), .integer(runRow)])
                try endRun.run()
            }
            let meta = try database.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)")
            for (key, value) in [("closed_at_ns", String(closedNanoseconds)), ("last_seq", String(lastSeq)), ("event_count", String(eventCount))] {
                try meta.bind([.text(key), .text(value)])
                try meta.run()
            }
            try database.execute("COMMIT")
            insertEvent.close()
            insertBlock.close()
            insertString.close()
            insertSession.close()
            findString.close()
            findSession.close()
            insertKind.close()
            meta.close()
        } catch {
            if !database.isAutocommit { try? database.execute("ROLLBACK") }
            throw JournalError.wrapping(error, path: path)
        }
    }
}

/// The run a writer records: id, start time and labels.
struct RunInfo {
    var id: String
    var startedNanoseconds: Int64
    var labels: [String: String]
}
