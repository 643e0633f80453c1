import CSQLite
import Foundation
import NavlogEvents

/// Figures of one storage approach over the same events.
struct Measurement {
    var name: String
    var bytes: Int64
    var seconds: Double
    var events: Int

    var bytesPerEvent: Double { Double(bytes) / Double(events) }
    var eventsPerSecond: Double { Double(events) / seconds }
}

enum Baselines {
    /// Baseline A: one SQLite row per event, payload as JSON text, prepared statement, batched
    /// transactions, WAL.
    static func sqliteRows(_ events: [Event], directory: String, batch: Int) -> Measurement {
        let path = directory + "/baseline-rows.sqlite"
        let writer = RowWriter(path: path, batch: batch)
        let start = monotonicSeconds()
        writer.insert(events)
        writer.commit()
        let seconds = monotonicSeconds() - start
        writer.close()
        return Measurement(name: "A sqlite rows", bytes: fileBytes(path) + fileBytes(path + "-wal"), seconds: seconds, events: events.count)
    }

    /// Baseline B: `Event.jsonLine()` NDJSON through one gzip -6 stream.
    static func ndjsonGzip(_ events: [Event]) -> Measurement {
        let gzip = Compressor(level: 6, windowBits: 31)
        let start = monotonicSeconds()
        var line = ""
        for (offset, event) in events.enumerated() {
            var numbered = event
            numbered.seq = UInt64(offset + 1)
            numbered.run = "r-bench"
            line = numbered.jsonLine()
            line += "\n"
            line.withUTF8 { gzip.feed(UnsafeRawBufferPointer($0), finish: false) }
        }
        gzip.feed(UnsafeRawBufferPointer(start: nil, count: 0), finish: true)
        return Measurement(name: "B ndjson gzip -6", bytes: Int64(gzip.producedBytes), seconds: monotonicSeconds() - start, events: events.count)
    }

    /// Compressed payload bytes per event: blocks (payloads grouped by subject, one raw deflate
    /// stream per `blockSize` events) against one stream per payload primed with the previous
    /// payload of the same subject (`deflateSetDictionary`).
    static func comparePayloadCompression(_ events: [Event], blockSize: Int) -> (block: Double, dictionary: Double) {
        let compressor = Compressor(level: 6, windowBits: -15)
        var blockBytes = 0
        var start = 0
        while start < events.count {
            let slice = events[start..<min(events.count, start + blockSize)]
            let ordered = slice.enumerated().sorted { ($0.element.subject, $0.offset) < ($1.element.subject, $1.offset) }
            blockBytes += compressor.compressedSize(of: ordered.map { $0.element.payload.serialized() }.joined(), dictionary: nil)
            start += blockSize
        }
        var previous: [String: String] = [:]
        var dictionaryBytes = 0
        for event in events {
            let text = event.payload.serialized()
            dictionaryBytes += compressor.compressedSize(of: text, dictionary: previous[event.subject])
            previous[event.subject] = text
        }
        return (Double(blockBytes) / Double(events.count), Double(dictionaryBytes) / Double(events.count))
    }
}

func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func fileBytes(_ path: String) -> Int64 {
    var status = stat()
    return stat(path, &status) == 0 ? Int64(status.st_size) : 0
}

/// The bytes of the files in `directory` (a journal directory: no subdirectories).
func directoryBytes(_ directory: String) throws -> Int64 {
    try FileManager.default.contentsOfDirectory(atPath: directory).reduce(Int64(0)) { $0 + fileBytes(directory + "/" + $1) }
}

/// Baseline A's table, written a batch at a time: one row per event, payload as JSON text,
/// a prepared statement, one transaction per `batch` rows, WAL.
final class RowWriter {
    private var database: OpaquePointer?
    private var statement: OpaquePointer?
    private let batch: Int
    private var rowsInTransaction = 0
    private var nextRow: Int64 = 1

    init(path: String, batch: Int) {
        self.batch = batch
        precondition(sqlite3_open(path, &database) == SQLITE_OK, "cannot open \(path)")
        exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
        exec("""
            CREATE TABLE event(seq INTEGER PRIMARY KEY, time_ns INTEGER, mono_ns INTEGER, run TEXT, session TEXT,
            session_seq INTEGER, kind TEXT, subject TEXT, screen TEXT, cause INTEGER, parent TEXT, payload TEXT)
            """)
        precondition(sqlite3_prepare_v2(database, "INSERT INTO event VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", -1, &statement, nil) == SQLITE_OK)
        exec("BEGIN")
    }

    private func exec(_ sql: String) {
        precondition(sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK, sql)
    }

    func insert(_ events: [Event]) {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        func bind(_ index: Int32, _ text: String?) {
            if let text { sqlite3_bind_text(statement, index, text, -1, transient) } else { sqlite3_bind_null(statement, index) }
        }
        for event in events {
            if rowsInTransaction == batch {
                exec("COMMIT; BEGIN")
                rowsInTransaction = 0
            }
            sqlite3_bind_int64(statement, 1, nextRow)
            sqlite3_bind_int64(statement, 2, event.wallNanoseconds)
            sqlite3_bind_int64(statement, 3, Int64(bitPattern: event.monotonicNanoseconds))
            bind(4, "r-bench")
            bind(5, event.session)
            sqlite3_bind_int64(statement, 6, Int64(event.sessionSeq))
            bind(7, event.kind.rawValue)
            bind(8, event.subject)
            bind(9, event.screen)
            if let cause = event.cause { sqlite3_bind_int64(statement, 10, Int64(cause)) } else { sqlite3_bind_null(statement, 10) }
            bind(11, event.parent)
            bind(12, event.payload.serialized())
            precondition(sqlite3_step(statement) == SQLITE_DONE)
            sqlite3_reset(statement)
            nextRow += 1
            rowsInTransaction += 1
        }
    }

    /// Commits the open transaction and starts another.
    func commit() {
        exec("COMMIT; BEGIN")
        rowsInTransaction = 0
    }

    func close() {
        exec("COMMIT")
        sqlite3_finalize(statement)
        exec("PRAGMA wal_checkpoint(TRUNCATE)")
        sqlite3_close(database)
    }
}
