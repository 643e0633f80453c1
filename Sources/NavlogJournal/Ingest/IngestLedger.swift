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
        /// The keys of the receipts past the budget, with when they were committed, oldest
        /// first: as many as `keysPastBudget` allowed.
        public var keysPastBudget: [(key: String, nanoseconds: Int64)] = []
        /// Receipts within the window left out altogether, the oldest ones.
        public var leftOut = 0
    }

    /// The receipts committed at or after `since` (wall-clock nanoseconds) in the files of
    /// `directory`, set-aside files included, oldest first: the newest ones whose
    /// ``IngestReceipt/rememberedBytes(key:answer:)`` fit in `budget` together, then the keys
    /// alone of at most `keysPastBudget` older ones; read newest first so that the older ones
    /// are never held. Files of schema version 2 or older hold none; the files that cannot be
    /// read are listed, each with the reason.
    public static func receipts(in directory: String, since: Int64, budget: Int = .max, keysPastBudget: Int = 0) -> Found {
        var found = Found()
        var bytes = 0
        for path in JournalDirectory.listFiles(in: directory).reversed() {
            do {
                guard let file = try openWithReceipts(path) else { continue }
                defer { file.close() }
                if found.leftOut > 0 {
                    // The budget and the keys past it are full: the older files' receipts are
                    // only counted.
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
                    let receipt = try receipt(at: rows, in: path)
                    let cost = IngestReceipt.rememberedBytes(key: receipt.key, answer: receipt.answer)
                    guard bytes + cost <= budget, found.keysPastBudget.isEmpty else {
                        if found.keysPastBudget.count < keysPastBudget {
                            found.keysPastBudget.append((receipt.key, receipt.committedNanoseconds))
                        } else {
                            found.leftOut += 1
                        }
                        continue
                    }
                    bytes += cost
                    found.receipts.append(receipt)
                }
            } catch {
                found.unreadable.append("\(JournalError.wrapping(error, path: path))")
            }
        }
        found.receipts.sort { $0.committedNanoseconds < $1.committedNanoseconds }
        found.keysPastBudget.sort { $0.nanoseconds < $1.nanoseconds }
        return found
    }

    /// How long after a request's time its receipt may still be written (nanoseconds): the
    /// receipt carries the time the request came, and the writer's queue and a rotation may
    /// put it into a file created after that. Generous, as it only decides which newer files
    /// a lookup may pass over.
    static let receiptWriteLag: Int64 = 600 * 1_000_000_000

    /// What ``receipt(key:committed:in:)`` found.
    public struct Lookup: Sendable {
        /// The receipt, when a file holds one with the key.
        public var receipt: IngestReceipt?
        /// The files that could not be asked, each with the reason.
        public var unreadable: [String] = []
    }

    /// The receipt of `key`, committed at `committed` (wall-clock nanoseconds), from the files
    /// of `directory`: for a daemon that keeps only a digest of a key past its memory budget.
    /// Asks the files newest first by the table's primary key, passing over those created
    /// more than ``receiptWriteLag`` after `committed` (by the time in their name), so one of
    /// the first files asked is the one that was being written then; each is opened for the
    /// lookup alone.
    public static func receipt(key: String, committed: Int64, in directory: String) -> Lookup {
        var lookup = Lookup()
        for path in JournalDirectory.listFiles(in: directory).reversed() {
            if let created = JournalDirectory.creationNanoseconds(of: path), created > committed + receiptWriteLag { continue }
            do {
                guard let file = try openWithReceipts(path) else { continue }
                defer { file.close() }
                let rows = try file.database.prepare("SELECT key, committed_ns, first_seq, last_seq, answer FROM ingest_receipt WHERE key = ?1")
                defer { rows.close() }
                try rows.bind(text: key, at: 1)
                if try rows.step() {
                    lookup.receipt = try receipt(at: rows, in: path)
                    return lookup
                }
            } catch let JournalError.notAJournal(_, reason) where reason == JournalFile.noTablesReason || reason == JournalFile.emptyFileReason {
                // A file being created holds no receipt yet.
                continue
            } catch {
                lookup.unreadable.append("\(JournalError.wrapping(error, path: path))")
            }
        }
        return lookup
    }

    /// The file at `path`, open for reading, when it has an `ingest_receipt` table (files of
    /// schema version 2 or older have none: nil).
    private static func openWithReceipts(_ path: String) throws -> JournalFile? {
        let file = try JournalFile.openForReading(path: path)
        do {
            let hasTable = try file.database.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'ingest_receipt'")?.integer ?? 0
            guard hasTable > 0 else {
                file.close()
                return nil
            }
            return file
        } catch {
            file.close()
            throw error
        }
    }

    /// The receipt in the row `rows` stands on, read from `SELECT key, committed_ns, first_seq,
    /// last_seq, answer FROM ingest_receipt` in the file at `path`.
    static func receipt(at rows: SQLiteStatement, in path: String) throws -> IngestReceipt {
        guard let key = rows.value(at: 0).text, let committed = rows.value(at: 1).integer, let first = rows.value(at: 2).integer,
              let last = rows.value(at: 3).integer, let answer = rows.value(at: 4).text
        else { throw JournalError.notAJournal(path: path, reason: "an ingest_receipt row has a NULL or mistyped column") }
        return IngestReceipt(key: key, committedNanoseconds: committed, firstSeq: UInt64(bitPattern: first), lastSeq: UInt64(bitPattern: last), answer: answer)
    }
}
