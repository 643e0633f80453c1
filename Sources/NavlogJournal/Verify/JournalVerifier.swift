import Foundation
import NavlogEvents

/// One problem found by ``JournalVerifier``: the file, the seq range when known, and what is wrong.
public struct VerificationIssue: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var seqRange: ClosedRange<UInt64>?
    public var message: String

    public var description: String {
        let range = seqRange.map { " (seq \($0.lowerBound)...\($0.upperBound))" } ?? ""
        return "\(path)\(range): \(message)"
    }
}

/// What ``JournalVerifier/verify(paths:)`` found.
public struct VerificationReport: Sendable {
    /// The files checked.
    public var files: [String] = []
    /// Events whose blocks inflated and matched their rows.
    public var readableEvents: UInt64 = 0
    public var issues: [VerificationIssue] = []

    /// Whether nothing is wrong.
    public var isHealthy: Bool { issues.isEmpty }
}

/// Checks journals: SQLite's `PRAGMA integrity_check`, then the journal's own invariants.
///
/// - every block inflates, matches its CRC-32, and holds exactly the events its rows index;
/// - every row an event refers to is there: its session (and the session's run), its kind,
///   its strings (subject, screen, parent), as readers look them up;
/// - `meta` holds the keys readers and writers read, and `migration` every step its version counts;
/// - meta counts of cleanly closed files match the rows;
/// - seq is continuous within each directory, from each file's first seq to the last seq of a
///   closed file, except gaps a `journal.dropped` record accounts for;
/// - a file left in WAL mode without its `-wal` and not closed cleanly lost committed events.
public enum JournalVerifier {
    public static func verify(paths: [String]) -> VerificationReport {
        var report = VerificationReport()
        for source in paths.map(JournalSource.init(path:)) {
            var coverage = SeqCoverage()
            let files = source.listFiles()
            if files.isEmpty {
                // A gate over a wrong or empty directory would otherwise pass having checked nothing.
                report.issues.append(VerificationIssue(path: source.path, seqRange: nil, message: JournalReader.noFileMessage))
            }
            for path in files {
                report.files.append(path)
                verifyFile(path, into: &report, coverage: &coverage)
            }
            report.issues += coverage.gaps().map {
                VerificationIssue(path: $0.file, seqRange: $0.seqs, message: "seq gap not accounted for by any journal.dropped record")
            }
        }
        return report
    }

    // MARK: - One file

    private static func verifyFile(_ path: String, into report: inout VerificationReport, coverage: inout SeqCoverage) {
        func issue(_ message: String, _ range: ClosedRange<UInt64>? = nil) {
            report.issues.append(VerificationIssue(path: path, seqRange: range, message: message))
        }
        // Before opening: an SQLite connection may create an empty WAL.
        let isWALMissing = isWALMode(path) && !FileManager.default.fileExists(atPath: path + "-wal")
        let file: JournalFile
        do {
            file = try JournalFile.openForReading(path: path)
        } catch {
            issue("cannot be opened: \(error)")
            return
        }
        defer { file.close() }
        let database = file.database
        do {
            let results = try database.rows("PRAGMA integrity_check").compactMap { $0.first?.text }
            if results != ["ok"] {
                issue("SQLite integrity check failed: " + results.prefix(5).joined(separator: "; "))
            }
            let isClosed = try file.isClosedCleanly()
            if !isClosed, isWALMissing {
                issue("not closed cleanly and its write-ahead log (\(path)-wal) is missing: events committed after the last checkpoint are lost")
            }
            let inflater = try Inflater(format: .raw)
            let blocks = try database.rows("SELECT id, first_seq, last_seq FROM block ORDER BY first_seq")
            let rowsOfBlock = try database.prepare("""
                SELECT session, first_seq, last_seq, first_time_ns, last_time_ns, event_count, kinds
                FROM event WHERE block = ? ORDER BY first_seq
                """)
            var kindIDs: [Int64: String] = [:]
            try file.loadKinds(into: &kindIDs)
            let bookkeeping = try file.ownBookkeepingSessionIDs()
            var references = try ReferenceCheck(file)
            for block in blocks {
                guard let id = block[0].integer, let first = block[1].integer, let last = block[2].integer else { continue }
                // A damaged row may hold negative seqs; clamp so the range stays well-formed.
                let range = UInt64(max(0, first))...UInt64(max(0, first, last))
                let stored: [StoredEvent]
                do {
                    stored = try JournalFileReader.readBlock(id, in: file, inflater: inflater, near: range.lowerBound).storedEvents
                } catch {
                    issue("\(error)", range)
                    coverage.addAccounted(range)
                    continue
                }
                try rowsOfBlock.bind([.integer(id)])
                var rows: [[Int64]] = []
                while try rowsOfBlock.step() { rows.append((0..<7).map { rowsOfBlock.int64(at: Int32($0)) }) }
                rowsOfBlock.reset()
                let expected = JournalFileWriter.indexEntries(stored).map {
                    [$0.session, Int64(bitPattern: $0.firstSeq), Int64(bitPattern: $0.lastSeq), $0.firstTime, $0.lastTime,
                     $0.count, Int64(bitPattern: $0.kinds)]
                }
                guard rows == expected else {
                    issue("block \(id) holds events of \(expected.count) sessions but its \(rows.count) event index rows disagree", range)
                    coverage.addAccounted(range)
                    continue
                }
                report.readableEvents += UInt64(stored.count)
                coverage.addPresent(seqs: stored.map(\.seq))
                references.check(stored)
                for event in stored where kindIDs[event.kind] == EventKind.journalDropped.rawValue && bookkeeping.contains(event.session) {
                    coverage.addAccounted(droppedRecord: event.payload)
                }
            }
            try coverage.addFile(file, lowestSeq: blocks.compactMap { $0[1].integer }.filter { $0 >= 0 }.min().map { UInt64($0) })
            for (message, range) in try references.problems() { issue(message, range) }
            let orphans = try database.scalar("SELECT count(*) FROM event WHERE block NOT IN (SELECT id FROM block)")?.integer ?? 0
            if orphans > 0 { issue("\(orphans) event index rows point at no block") }
            if isClosed, let expected = try file.meta("event_count").flatMap({ Int64($0) }) {
                let count = try database.scalar("SELECT coalesce(sum(event_count), 0) FROM block")?.integer ?? 0
                if count != expected { issue("closed with \(expected) events but holds \(count)") }
            }
        } catch {
            issue("\(JournalError.wrapping(error, path: path))")
        }
    }

    /// Whether the SQLite header says WAL mode (bytes 18 and 19 are 2).
    private static func isWALMode(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 20)) ?? Data()
        return header.count == 20 && header[18] == 2 && header[19] == 2
    }
}
