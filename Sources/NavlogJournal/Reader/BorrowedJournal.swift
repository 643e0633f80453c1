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

/// Which fields of its events a reader needs beside the envelope (seq, times, run, session,
/// session seq, kind, cause).
package struct EventFields: OptionSet, Sendable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// `subject`, `screen` and `parent`.
    package static let strings = EventFields(rawValue: 1)
    /// `payload`.
    package static let payload = EventFields(rawValue: 2)
    /// `session_seq` and `cause`: for ``BorrowedJournal/envelopes(in:matching:withCauses:)``,
    /// which reads them only when asked (``BorrowedJournal/events(in:matching:fields:)`` always
    /// reads them).
    package static let causes = EventFields(rawValue: 4)
    package static let all: EventFields = [.strings, .payload, .causes]
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
    private var stringRow: SQLiteStatement?
    private var sessionRow: SQLiteStatement?
    /// Sessions looked up one by one so far: a query for one session needs a few of a large
    /// journal's tens of thousands, and past ``sessionLookupLimit`` misses the table is read whole.
    private var sessionLookups = 0
    private static let sessionLookupLimit = 64
    /// The row ids of the sessions of each name asked for (one per run), for the current scan.
    private var sessionIDsByName: [String: [Int64]] = [:]
    private var strings: [Int64: String] = [:]
    private var kinds = IDTable<EventKind>()
    private var sessions = IDTable<(name: String, run: String)>()
    /// Session and kind ids found in the file's tables, checked without copying their names.
    private var checkedSessionIDs = IDSet()
    private var checkedKindIDs = IDSet()

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
        stringRow?.close()
        stringRow = nil
        sessionRow?.close()
        sessionRow = nil
        file.close()
    }

    /// Returns the blocks that may hold events matching `query`, in seq order; through the
    /// `block` table's seq and time ranges and the `event` index's sessions and kinds.
    package func blocks(matching query: BlockQuery) throws -> [BlockSummary] {
        // A scan starts here: a journal being written may have gained sessions of a name since.
        sessionIDsByName = [:]
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

    /// Returns the events of `block` that `query` allows (its seq and time bounds, session and
    /// kind), inflated and checked (length, CRC-32, layout, the ids it refers to); a damaged
    /// block throws ``JournalError/damagedBlock(path:firstSeq:lastSeq:reason:)`` naming it.
    ///
    /// Only the `fields` asked for are read: without ``EventFields/payload`` payloads are left
    /// empty objects and not decoded, without ``EventFields/strings`` `subject` is empty and
    /// `screen` and `parent` nil. Events of other sessions or kinds are dropped before any of
    /// their strings are looked up.
    package func events(in block: BlockSummary, matching query: BlockQuery = BlockQuery(),
                        fields: EventFields = .all) throws -> [Event] {
        let blockRow = try preparedBlockRow()
        let plan: ((Int64) throws -> EventBlock.PayloadReading)? = fields.contains(.payload) ? nil : { _ in .skipped }
        let wantedSessions = try query.session.map(sessionIDs(named:))
        let columns = try JournalFileReader.readBlock(block.id, in: file, inflater: inflater, values: values, row: blockRow,
                                                      near: block.firstSeq, plan: plan)
        var events: [Event] = []
        events.reserveCapacity(columns.count)
        for index in 0..<columns.count {
            func damaged(_ reason: String) -> JournalError {
                .damagedBlock(path: path, firstSeq: block.firstSeq, lastSeq: block.lastSeq,
                              reason: "block \(block.id) refers to \(reason) at seq \(columns.seq[index])")
            }
            let seq = columns.seq[index]
            let wall = columns.wall[index]
            if let lowest = query.lowestSeq, seq < lowest { continue }
            if let highest = query.highestSeq, seq > highest { continue }
            if let earliest = query.earliest, wall < earliest { continue }
            if let latest = query.latest, wall > latest { continue }
            // Other sessions' events are dropped by id, before their names are looked up.
            if let wantedSessions, !wantedSessions.contains(columns.session[index]) { continue }
            guard let session = try session(columns.session[index]) else { throw damaged("unknown session \(columns.session[index])") }
            guard let kind = try kind(columns.kind[index]) else { throw damaged("unknown kind \(columns.kind[index])") }
            if let wanted = query.kind, kind.rawValue != wanted { continue }
            func lookup(_ id: Int64) throws -> String {
                guard let value = try string(id) else { throw damaged("unknown string \(id)") }
                return value
            }
            let readsStrings = fields.contains(.strings)
            let screenID = columns.screen[index]
            let parentID = columns.parent[index]
            events.append(Event(
                seq: seq, wallNanoseconds: wall, monotonicNanoseconds: columns.monotonic[index],
                run: session.run, session: session.name, sessionSeq: columns.sessionSeq[index], kind: kind,
                subject: readsStrings ? try lookup(columns.subject[index]) : "",
                screen: readsStrings && screenID != 0 ? try lookup(screenID) : nil,
                cause: columns.cause[index],
                parent: readsStrings && parentID != 0 ? try lookup(parentID) : nil,
                payload: columns.payload[index]))
        }
        return events
    }

    /// Returns the envelope columns of the events of `block` that `query` allows (its seq and
    /// time bounds, session and kind), inflating only the front of the block that holds them
    /// (see ``JournalFileReader/readEnvelope(_:in:through:inflater:row:near:)``); with
    /// `withCauses`, session seqs and causes too. Every session and kind id is checked against
    /// the file's tables, so ``session(id:)`` and ``kind(id:)`` find each.
    package func envelopes(in block: BlockSummary, matching query: BlockQuery = BlockQuery(), withCauses: Bool) throws -> BlockEnvelope {
        let blockRow = try preparedBlockRow()
        let envelope = try JournalFileReader.readEnvelope(block.id, in: file, through: withCauses ? .causes : .kinds, inflater: inflater,
                                                          row: blockRow, near: block.firstSeq)
        var kept: [Int] = []
        let isFiltered = query.lowestSeq != nil || query.highestSeq != nil || query.earliest != nil || query.latest != nil
            || query.session != nil || query.kind != nil
        let wantedSessions = try query.session.map(sessionIDs(named:))
        for index in 0..<envelope.count {
            func damaged(_ reason: String) -> JournalError {
                .damagedBlock(path: path, firstSeq: block.firstSeq, lastSeq: block.lastSeq,
                              reason: "block \(block.id) refers to \(reason) at seq \(envelope.seq[index])")
            }
            let sessionID = envelope.session[index]
            let kindID = envelope.kind[index]
            // Other sessions' events are dropped by id, before their ids are checked.
            if let wantedSessions, !wantedSessions.contains(sessionID) { continue }
            if !checkedSessionIDs.contains(sessionID) {
                guard try session(sessionID) != nil else { throw damaged("unknown session \(sessionID)") }
                checkedSessionIDs.insert(sessionID)
            }
            if !checkedKindIDs.contains(kindID) {
                guard try kind(kindID) != nil else { throw damaged("unknown kind \(kindID)") }
                checkedKindIDs.insert(kindID)
            }
            guard isFiltered else { continue }
            if let lowest = query.lowestSeq, envelope.seq[index] < lowest { continue }
            if let highest = query.highestSeq, envelope.seq[index] > highest { continue }
            if let earliest = query.earliest, envelope.wall[index] < earliest { continue }
            if let latest = query.latest, envelope.wall[index] > latest { continue }
            if let wanted = query.kind, try kind(kindID)?.rawValue != wanted { continue }
            kept.append(index)
        }
        guard isFiltered else { return BlockEnvelope(envelope) }
        return BlockEnvelope(envelope, keeping: kept)
    }

    /// The name and run of the session with row id `id`, which an envelope holds.
    package func session(id: Int64) throws -> (name: String, run: String)? { try session(id) }

    /// The kind with row id `id`, which an envelope holds.
    package func kind(id: Int64) throws -> EventKind? { try kind(id) }

    /// The statement that reads a block's row, prepared once.
    private func preparedBlockRow() throws -> SQLiteStatement {
        if let blockRow { return blockRow }
        do {
            let statement = try JournalFileReader.prepareBlockRow(in: file)
            blockRow = statement
            return statement
        } catch {
            throw JournalError.wrapping(error, path: path)
        }
    }

    // MARK: - Ids

    /// The string with row id `id`, looked up by its id the first time: a selective query needs
    /// few of a large journal's strings.
    private func string(_ id: Int64) throws -> String? {
        if let value = strings[id] { return value }
        do {
            if stringRow == nil { stringRow = try file.database.prepare("SELECT value FROM \(file.schemaPrefix)string WHERE id = ?") }
            guard let statement = stringRow else { return nil }
            defer { statement.reset() }
            try statement.bind([.integer(id)])
            guard try statement.step() else { return nil }
            let value = statement.text(at: 0)
            strings[id] = value
            return value
        } catch {
            throw JournalError.wrapping(error, path: path)
        }
    }

    private func kind(_ id: Int64) throws -> EventKind? {
        if let kind = kinds[id] { return kind }
        var names: [Int64: String] = [:]
        do { try file.loadKinds(into: &names) } catch { throw JournalError.wrapping(error, path: path) }
        kinds.add(names.mapValues(EventKind.init(rawValue:)))
        return kinds[id]
    }

    /// The name and run of session `id`: looked up by its id for the first
    /// ``sessionLookupLimit`` sessions a reader needs, then with the whole table, read again
    /// on each miss (a journal being written gains sessions).
    private func session(_ id: Int64) throws -> (name: String, run: String)? {
        if let session = sessions[id] { return session }
        var rows: [Int64: (name: String, run: String)] = [:]
        do {
            if sessionLookups < Self.sessionLookupLimit {
                sessionLookups += 1
                if sessionRow == nil {
                    sessionRow = try file.database.prepare(
                        "SELECT s.name, r.name FROM \(file.schemaPrefix)session s JOIN \(file.schemaPrefix)run r ON r.id = s.run WHERE s.id = ?")
                }
                guard let statement = sessionRow else { return nil }
                defer { statement.reset() }
                try statement.bind([.integer(id)])
                guard try statement.step() else { return nil }
                rows[id] = (statement.text(at: 0), statement.text(at: 1))
            } else {
                try file.loadSessions(into: &rows)
            }
        } catch {
            throw JournalError.wrapping(error, path: path)
        }
        sessions.add(rows)
        return sessions[id]
    }

    /// The row ids of the sessions named `name` (one per run that has one).
    private func sessionIDs(named name: String) throws -> [Int64] {
        if let ids = sessionIDsByName[name] { return ids }
        do {
            let ids = try file.database.rows("SELECT id FROM \(file.schemaPrefix)session WHERE name = ?", [.text(name)]).compactMap { $0[0].integer }
            sessionIDsByName[name] = ids
            return ids
        } catch {
            throw JournalError.wrapping(error, path: path)
        }
    }
}
