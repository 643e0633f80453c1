import Foundation
import Synchronization

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
        /// When the newest of those left out was committed (wall-clock nanoseconds): keys
        /// committed then or before may be in the journal without being among ``receipts``.
        public var newestLeftOut: Int64?
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
                    let receipt = try receipt(at: rows, in: path)
                    let cost = IngestReceipt.rememberedBytes(key: receipt.key, answer: receipt.answer)
                    guard bytes + cost <= budget else {
                        found.leftOut += 1
                        found.newestLeftOut = receipt.committedNanoseconds
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
        return found
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

/// Looks receipts up by key in a journal directory's files: for a daemon whose memory budget
/// made it forget keys before their window ended, so that a retry under such a key is still
/// answered from the journal instead of journaling its events twice.
///
/// A lookup asks the directory's files newest first by the table's primary key (the directory
/// is listed again when its modification time changes). A file closed cleanly or set aside is
/// written no more, so the span of its receipts' commit times is read once, and a file whose span
/// is outside the one asked about is passed over; its connection is closed once its receipts are
/// all older than that, and opened again only if a later lookup reaches back to them.
public final class IngestReceiptFinder: Sendable {
    /// What a lookup found.
    public struct Found: Sendable {
        /// The receipt, when one with the key was committed within the span asked about.
        public var receipt: IngestReceipt?
        /// The files that could not be asked, each with the reason; each is reported once.
        public var unreadable: [String] = []
    }

    private final class Entry {
        let file: JournalFile
        let lookup: SQLiteStatement
        /// The commit times of the file's receipts, read once it is no longer written.
        var span: ClosedRange<Int64>?

        init(file: JournalFile, lookup: SQLiteStatement) {
            self.file = file
            self.lookup = lookup
        }

        func close() {
            lookup.close()
            file.close()
        }
    }

    private struct State {
        var open: [String: Entry] = [:]
        /// Files passed over for good: without receipts, or unreadable (reported once).
        var passedOver: Set<String> = []
        /// The spans of files whose connections were closed because their receipts were all
        /// older than the span asked about.
        var closedSpans: [String: ClosedRange<Int64>] = [:]
        /// The directory's files, as listed when its modification time was `listedChange`.
        var listing: [String]?
        var listedChange = timespec()
    }

    private let directory: String
    private let state = Mutex(State())

    public init(directory: String) {
        self.directory = directory
    }

    deinit {
        state.withLock { state in
            for entry in state.open.values { entry.close() }
            state.open.removeAll()
        }
    }

    /// The receipt of `key` committed within `committed` (wall-clock nanoseconds), searching
    /// the files newest first.
    public func receipt(key: String, committed: ClosedRange<Int64>) -> Found {
        state.withLock { state in
            var found = Found()
            // Listed again only when the directory changed: a lookup per request of a daemon
            // past its budget spent most of its time listing.
            var status = stat()
            let changed = stat(directory, &status) == 0 ? status.st_mtim : timespec()
            if state.listing == nil || state.listedChange.tv_sec != changed.tv_sec || state.listedChange.tv_nsec != changed.tv_nsec {
                let files = JournalDirectory.listFiles(in: directory)
                state.listing = files
                state.listedChange = changed
                let present = Set(files)
                for (path, entry) in state.open where !present.contains(path) {
                    entry.close()
                    state.open[path] = nil
                }
                state.passedOver.formIntersection(present)
                state.closedSpans = state.closedSpans.filter { present.contains($0.key) }
            }
            let files = state.listing ?? []
            for path in files.reversed() where !state.passedOver.contains(path) {
                if let span = state.closedSpans[path], !span.overlaps(committed) { continue }
                do {
                    let entry = try state.open[path] ?? Self.open(path)
                    state.open[path] = entry
                    // A file closed cleanly or set aside is written no more.
                    if entry.span == nil, try JournalDirectory.isSetAside(path) || entry.file.isClosedCleanly() {
                        guard let span = try Self.span(of: entry.file) else {
                            entry.close()
                            state.open[path] = nil
                            state.passedOver.insert(path)
                            continue
                        }
                        entry.span = span
                    }
                    if let span = entry.span {
                        if span.upperBound < committed.lowerBound {
                            // The window only moves on (unless a reload widens it): close the
                            // file until a lookup reaches back to it.
                            entry.close()
                            state.open[path] = nil
                            state.closedSpans[path] = span
                            continue
                        }
                        guard span.overlaps(committed) else { continue }
                    }
                    if let receipt = try Self.find(key, with: entry.lookup, in: path), committed.contains(receipt.committedNanoseconds) {
                        found.receipt = receipt
                        return found
                    }
                } catch let JournalError.notAJournal(_, reason) where reason == JournalFile.noTablesReason || reason == JournalFile.emptyFileReason {
                    // A file being created: asked again next time.
                    continue
                } catch is NoReceiptTable {
                    state.passedOver.insert(path)
                } catch {
                    state.open[path]?.close()
                    state.open[path] = nil
                    state.passedOver.insert(path)
                    found.unreadable.append("\(JournalError.wrapping(error, path: path))")
                }
            }
            return found
        }
    }

    /// The file holds no `ingest_receipt` table (schema version 2 or older).
    private struct NoReceiptTable: Error {}

    private static func open(_ path: String) throws -> Entry {
        let file = try JournalFile.openForReading(path: path)
        do {
            let hasTable = try file.database.scalar(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'ingest_receipt'")?.integer ?? 0
            guard hasTable > 0 else { throw NoReceiptTable() }
            let lookup = try file.database.prepare("SELECT key, committed_ns, first_seq, last_seq, answer FROM ingest_receipt WHERE key = ?1")
            return Entry(file: file, lookup: lookup)
        } catch {
            file.close()
            throw error
        }
    }

    private static func span(of file: JournalFile) throws -> ClosedRange<Int64>? {
        let rows = try file.database.prepare("SELECT min(committed_ns), max(committed_ns) FROM ingest_receipt")
        defer { rows.close() }
        guard try rows.step(), let low = rows.value(at: 0).integer, let high = rows.value(at: 1).integer, low <= high else { return nil }
        return low...high
    }

    private static func find(_ key: String, with lookup: SQLiteStatement, in path: String) throws -> IngestReceipt? {
        // Reset after the row is read, so the connection holds no read transaction between
        // lookups and never stands in the way of the writer's checkpoints.
        defer { lookup.reset() }
        try lookup.bind(text: key, at: 1)
        guard try lookup.step() else { return nil }
        return try IngestLedger.receipt(at: lookup, in: path)
    }
}
