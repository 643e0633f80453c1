import Foundation

/// Reads the ingest receipts a journal directory holds (``IngestReceipt``): the idempotency
/// keys a daemon remembers across restarts.
public enum IngestLedger {
    /// What ``receipts(in:since:budget:)`` found.
    public struct Found: Sendable {
        /// The receipts kept, oldest first.
        public var receipts: [IngestReceipt] = []
        /// The files that cannot be read, each with the reason.
        public var unreadable: [String] = []
        /// Receipts within the window left out, oldest ones, because the newer ones filled the
        /// budget.
        public var leftOut = 0
    }

    /// The receipts committed at or after `since` (wall-clock nanoseconds) in the files of
    /// `directory`, set-aside files included, oldest first: the newest ones whose
    /// ``IngestReceipt/rememberedBytes(key:answer:)`` fit in `budget` together, read newest
    /// first so that the older ones are never held. Files of schema version 2 or older hold
    /// none; the files that cannot be read are listed, each with the reason.
    public static func receipts(in directory: String, since: Int64, budget: Int = .max) -> Found {
        var found = Found()
        var bytes = 0
        for path in JournalDirectory.listFiles(in: directory).reversed() {
            do {
                let file = try JournalFile.openForReading(path: path)
                defer { file.close() }
                let hasTable = try file.database.scalar(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'ingest_receipt'")?.integer ?? 0
                guard hasTable > 0 else { continue }
                if found.leftOut > 0 {
                    // The budget is full: the older files' receipts are only counted.
                    found.leftOut += Int(try file.database.scalar(
                        "SELECT count(*) FROM ingest_receipt WHERE committed_ns >= ?", [.integer(since)])?.integer ?? 0)
                    continue
                }
                let rows = try file.database.prepare(
                    "SELECT key, committed_ns, first_seq, last_seq, answer FROM ingest_receipt WHERE committed_ns >= ?1 ORDER BY committed_ns DESC")
                defer { rows.close() }
                try rows.bind(since, at: 1)
                while try rows.step() {
                    if found.leftOut > 0 {
                        found.leftOut += 1
                        continue
                    }
                    guard let key = rows.value(at: 0).text, let committed = rows.value(at: 1).integer, let first = rows.value(at: 2).integer,
                          let last = rows.value(at: 3).integer, let answer = rows.value(at: 4).text
                    else { throw JournalError.notAJournal(path: path, reason: "an ingest_receipt row has a NULL or mistyped column") }
                    let cost = IngestReceipt.rememberedBytes(key: key, answer: answer)
                    guard bytes + cost <= budget else {
                        found.leftOut += 1
                        continue
                    }
                    bytes += cost
                    found.receipts.append(IngestReceipt(key: key, committedNanoseconds: committed, firstSeq: UInt64(bitPattern: first),
                                                        lastSeq: UInt64(bitPattern: last), answer: answer))
                }
            } catch {
                found.unreadable.append("\(JournalError.wrapping(error, path: path))")
            }
        }
        found.receipts.sort { $0.committedNanoseconds < $1.committedNanoseconds }
        return found
    }
}
