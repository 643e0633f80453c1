import Foundation
import NavlogEvents

/// The bounds a query puts on the blocks it needs; every one is optional and they combine
/// with AND. The SQLite extension's `navlog_events` pushes its constraints down through it.
package struct BlockQuery: Sendable, Equatable {
    /// Only blocks holding seqs at or above this one.
    package var lowestSeq: UInt64?
    /// Only blocks holding seqs at or below this one.
    package var highestSeq: UInt64?
    /// Only blocks holding events at or after this wall time (ns since the epoch).
    package var earliest: Int64?
    /// Only blocks holding events at or before this wall time (ns since the epoch).
    package var latest: Int64?
    /// Only blocks the event index says hold events of this session.
    package var session: String?
    /// Only blocks the event index says hold events of this kind.
    package var kind: String?

    package init() {}
}

/// One block of a journal, as its row in the `block` table describes it.
package struct BlockSummary: Sendable, Equatable {
    package var id: Int64
    package var firstSeq: UInt64
    package var lastSeq: UInt64
}

/// Reads the blocks and events of a journal through a connection another program owns: the
/// SQLite extension's virtual tables run inside their host's connection (the `sqlite3` CLI,
/// Python's `sqlite3`), so they read the `block` table with the host's own statements.
///
/// It reads one database of the connection, `main` or an attached one; its statements are
/// finalized by ``close()``, which must come before the host closes the connection (or
/// detaches the database).
package final class BorrowedJournal {
    private let file: JournalFile
    private let inflater: Inflater
    /// Payload values already decoded, shared by the events that repeat them.
    private let values = DecodedValueCache()
    private var blockRow: SQLiteStatement?
    private var strings: [Int64: String] = [:]
    private var kinds: [Int64: EventKind] = [:]
    private var sessions: [Int64: (name: String, run: String)] = [:]

    /// The journal file, as the connection names it (`:memory:` for none).
    package var path: String { file.path }

    /// Wraps database `schema` of `connection` (a `sqlite3*`) and checks it is a journal.
    package init(connection: OpaquePointer, schema: String = "main") throws {
        file = try JournalFile.borrowing(connection, schema: schema)
        do {
            inflater = try Inflater(format: .raw)
        } catch {
            throw JournalError.wrapping(error, path: file.path)
        }
    }

    /// Finalizes the statements; the connection stays open for its owner.
    package func close() {
        blockRow?.close()
        blockRow = nil
        file.close()
    }

    /// Returns the blocks that may hold events matching `query`, in seq order; through the
    /// `block` table's seq and time ranges and the `event` index's sessions and kinds.
    package func blocks(matching query: BlockQuery) throws -> [BlockSummary] {
        let prefix = file.schemaPrefix
        var conditions: [String] = []
        var bindings: [SQLiteValue] = []
        func add(_ condition: String, _ value: SQLiteValue) {
            bindings.append(value)
            conditions.append(condition.replacingOccurrences(of: "?", with: "?\(bindings.count)"))
        }
        if let lowest = query.lowestSeq { add("b.last_seq >= ?", .integer(Int64(bitPattern: lowest))) }
        if let highest = query.highestSeq { add("b.first_seq <= ?", .integer(Int64(bitPattern: highest))) }
        if let earliest = query.earliest { add("b.max_time_ns >= ?", .integer(earliest)) }
        if let latest = query.latest { add("b.min_time_ns <= ?", .integer(latest)) }
        if let session = query.session {
            add("EXISTS (SELECT 1 FROM \(prefix)event e WHERE e.block = b.id AND e.session IN (SELECT id FROM \(prefix)session WHERE name = ?))", .text(session))
        }
        do {
            if let kind = query.kind {
                guard let id = try file.database.scalar("SELECT id FROM \(prefix)kind WHERE name = ?", [.text(kind)])?.integer else { return [] }
                add("EXISTS (SELECT 1 FROM \(prefix)event e WHERE e.block = b.id AND e.kinds & ? != 0)",
                    .integer(Int64(bitPattern: JournalFileWriter.kindBit(id))))
            }
            let condition = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            return try file.database.rows("SELECT b.id, b.first_seq, b.last_seq FROM \(prefix)block b\(condition) ORDER BY b.id", bindings).map { row in
                // A damaged row's negative seqs are named as 0; reading the block refuses it.
                BlockSummary(id: row[0].integer ?? 0, firstSeq: UInt64(max(row[1].integer ?? 0, 0)),
                             lastSeq: UInt64(max(row[2].integer ?? 0, 0)))
            }
        } catch {
            throw JournalError.wrapping(error, path: path)
        }
    }

    /// Returns the events of `block`, inflated and checked (length, CRC-32, layout, the ids it
    /// refers to); a damaged block throws ``JournalError/damagedBlock(path:firstSeq:lastSeq:reason:)``
    /// naming it.
    package func events(in block: BlockSummary) throws -> [Event] {
        if blockRow == nil {
            do { blockRow = try JournalFileReader.prepareBlockRow(in: file) } catch { throw JournalError.wrapping(error, path: path) }
        }
        let columns = try JournalFileReader.readBlock(block.id, in: file, inflater: inflater, values: values, row: blockRow, near: block.firstSeq)
        var events: [Event] = []
        events.reserveCapacity(columns.count)
        for index in 0..<columns.count {
            func damaged(_ reason: String) -> JournalError {
                .damagedBlock(path: path, firstSeq: block.firstSeq, lastSeq: block.lastSeq,
                              reason: "block \(block.id) refers to \(reason) at seq \(columns.seq[index])")
            }
            guard let session = try session(columns.session[index]) else { throw damaged("unknown session \(columns.session[index])") }
            guard let kind = try kind(columns.kind[index]) else { throw damaged("unknown kind \(columns.kind[index])") }
            func lookup(_ id: Int64) throws -> String {
                guard let value = try string(id) else { throw damaged("unknown string \(id)") }
                return value
            }
            let screenID = columns.screen[index]
            let parentID = columns.parent[index]
            events.append(Event(
                seq: columns.seq[index], wallNanoseconds: columns.wall[index], monotonicNanoseconds: columns.monotonic[index],
                run: session.run, session: session.name, sessionSeq: columns.sessionSeq[index],
                kind: kind, subject: try lookup(columns.subject[index]), screen: screenID == 0 ? nil : try lookup(screenID),
                cause: columns.cause[index], parent: parentID == 0 ? nil : try lookup(parentID), payload: columns.payload[index]))
        }
        return events
    }

    // MARK: - Ids

    /// The string with row id `id`, loading newer rows once when it is not known yet.
    private func string(_ id: Int64) throws -> String? {
        if let value = strings[id] { return value }
        do { try file.loadStrings(after: strings.keys.max() ?? 0, into: &strings) } catch { throw JournalError.wrapping(error, path: path) }
        return strings[id]
    }

    private func kind(_ id: Int64) throws -> EventKind? {
        if let kind = kinds[id] { return kind }
        var names: [Int64: String] = [:]
        do { try file.loadKinds(into: &names) } catch { throw JournalError.wrapping(error, path: path) }
        kinds = names.mapValues(EventKind.init(rawValue:))
        return kinds[id]
    }

    private func session(_ id: Int64) throws -> (name: String, run: String)? {
        if let session = sessions[id] { return session }
        do { try file.loadSessions(into: &sessions) } catch { throw JournalError.wrapping(error, path: path) }
        return sessions[id]
    }
}
