import Foundation

/// Reads the ingest receipts a journal directory holds (``IngestReceipt``): the idempotency
/// keys a daemon remembers across restarts.
public enum IngestLedger {
    /// Every receipt committed at or after `since` (wall-clock nanoseconds) in the files of
    /// `directory`, set-aside files included, oldest first. Files of schema version 2 or older
    /// hold none; the files that cannot be read are listed, each with the reason, in `unreadable`.
    public static func receipts(in directory: String, since: Int64) -> (receipts: [IngestReceipt], unreadable: [String]) {
        var found: [IngestReceipt] = []
        var unreadable: [String] = []
        for path in JournalDirectory.listFiles(in: directory) {
            do {
                let file = try JournalFile.openForReading(path: path)
                defer { file.close() }
                let hasTable = try file.database.scalar(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'ingest_receipt'")?.integer ?? 0
                guard hasTable > 0 else { continue }
                let rows = try file.database.rows(
                    "SELECT key, committed_ns, first_seq, last_seq, answer FROM ingest_receipt WHERE committed_ns >= ?", [.integer(since)])
                for row in rows {
                    guard let key = row[0].text, let committed = row[1].integer, let first = row[2].integer,
                          let last = row[3].integer, let answer = row[4].text
                    else { throw JournalError.notAJournal(path: path, reason: "an ingest_receipt row has a NULL or mistyped column") }
                    found.append(IngestReceipt(key: key, committedNanoseconds: committed, firstSeq: UInt64(bitPattern: first),
                                               lastSeq: UInt64(bitPattern: last), answer: answer))
                }
            } catch {
                unreadable.append("\(JournalError.wrapping(error, path: path))")
            }
        }
        return (found.sorted { $0.committedNanoseconds < $1.committedNanoseconds }, unreadable)
    }
}
