import NavlogEvents

// MARK: - Which seqs a file holds

extension JournalFileReader {
    /// Returns the seqs this file holds and the seqs its `journal.dropped` records account for
    /// (``SeqCoverage``), read from its `block` rows: only a block holding fewer events than
    /// its seq span, and the blocks whose `event` rows say they hold a `journal.dropped`
    /// record, are inflated.
    ///
    /// A block that does not inflate counts as covered here: reading its events reports it.
    /// The file's `meta` says where its seqs start and, once it was closed cleanly, end.
    func coverage() throws -> SeqCoverage {
        var coverage = SeqCoverage()
        do {
            var lowest: UInt64?
            for row in try file.database.rows("SELECT id, first_seq, last_seq, event_count FROM block") {
                // Rows a damaged file makes negative or inverted are reported by reading them.
                guard let id = row[0].integer, let first = row[1].integer, let last = row[2].integer, let count = row[3].integer,
                      first >= 0, last >= first else { continue }
                let range = UInt64(first)...UInt64(last)
                lowest = min(lowest ?? range.lowerBound, range.lowerBound)
                if count == last - first + 1 {
                    coverage.addPresent(range)
                } else if let columns = try? Self.readBlock(id, in: file, inflater: inflater, near: range.lowerBound) {
                    coverage.addPresent(seqs: columns.seq)
                } else {
                    coverage.addAccounted(range)
                }
            }
            try coverage.addFile(file, lowestSeq: lowest)
            let dropped = try file.database.scalar("SELECT id FROM kind WHERE name = ?", [.text(EventKind.journalDropped.rawValue)])
            guard let kind = dropped?.integer else { return coverage }
            // The writer's own records are in its bookkeeping session: the index finds their
            // blocks. Other runs' records (ingested, pushed) name another journal's seqs.
            let sessions = try file.ownBookkeepingSessionIDs()
            guard !sessions.isEmpty else { return coverage }
            let blocks = try file.database.rows("""
                SELECT DISTINCT block FROM event WHERE session IN (\(sessions.map(String.init).joined(separator: ", "))) AND kinds & ? != 0
                """, [.integer(Int64(bitPattern: JournalFileWriter.kindBit(kind)))])
            for row in blocks {
                guard let id = row[0].integer, let columns = try? Self.readBlock(id, in: file, inflater: inflater, near: 0) else { continue }
                for index in 0..<columns.count where columns.kind[index] == kind && sessions.contains(columns.session[index]) {
                    coverage.addAccounted(droppedRecord: columns.payload[index])
                }
            }
        } catch {
            throw JournalError.wrapping(error, path: path)
        }
        return coverage
    }
}
