import Foundation
import NavlogEvents

// MARK: - Foreign events and ingest receipts

extension JournalFileWriter {
    /// The session row of a foreign event (one of another run, ``JournalWriter/recordForeign(_:receipt:)``):
    /// the run's row is added on first sight in this file, with the labels the registry holds
    /// for it, and the session's under that run.
    func foreignSession(of event: Event) throws -> Int64 {
        let run: ForeignRunRows
        if let last = lastForeignRun, last.name == event.run {
            run = last
        } else {
            run = try foreignRunRow(event.run, firstWallNanoseconds: event.wallNanoseconds)
            lastForeignRun = run
        }
        if let id = run.sessions[event.session] { return id }
        let id = try insertSessionRow(event.session, run: run.id, firstSeq: event.seq)
        if run.sessions.count >= Self.cacheLimit { run.sessions.removeAll() }
        run.sessions[event.session] = id
        return id
    }

    /// The row of foreign run `name`, added (with its labels) when the file lacks it.
    private func foreignRunRow(_ name: String, firstWallNanoseconds: Int64) throws -> ForeignRunRows {
        if let rows = foreignRunRows[name] { return rows }
        let registered = foreignRuns.run(name)
        try insertForeignRun.bind([.text(name), .integer(registered?.startedNanoseconds ?? firstWallNanoseconds)])
        try insertForeignRun.run()
        let id: Int64
        if file.database.changes > 0 {
            id = file.database.lastInsertRowID
            let insertLabel = try file.database.prepare("INSERT OR REPLACE INTO run_label(run, key, value) VALUES (?, ?, ?)")
            defer { insertLabel.close() }
            for (key, value) in (registered?.labels ?? [:]).sorted(by: { $0.key < $1.key }) {
                try insertLabel.bind([.integer(id), .text(key), .text(value)])
                try insertLabel.run()
            }
        } else {
            id = try existingID(findRun, [.text(name)], of: "run \(name)")
        }
        if foreignRunRows.count >= Self.cacheLimit { foreignRunRows.removeAll() }
        let rows = ForeignRunRows(name: name, id: id)
        foreignRunRows[name] = rows
        return rows
    }

    /// Writes the receipt of an ingest request, inside the transaction of its events.
    func write(_ receipt: IngestReceipt) throws {
        try insertReceipt.bind([
            .text(receipt.key), .integer(receipt.committedNanoseconds),
            .integer(Int64(bitPattern: receipt.firstSeq)), .integer(Int64(bitPattern: receipt.lastSeq)), .text(receipt.answer),
        ])
        try insertReceipt.run()
    }
}
