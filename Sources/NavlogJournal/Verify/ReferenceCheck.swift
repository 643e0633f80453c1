/// The rows readers look up for the events of one file, and what finds none: each event's
/// session (and the session's run), its kind and its strings (subject, and screen and parent
/// when it has them); also the `meta` keys readers and writers read and the `migration` steps
/// the schema version counts. ``JournalVerifier`` reports each missing table once per file.
///
/// A reader stops at the first event whose session, kind or string is missing ("block 1
/// refers to unknown session 1"); this names every table that has rows missing, which ids,
/// and the seqs of the events that need them.
struct ReferenceCheck {
    /// A table events refer to by row id.
    private enum Table: String, CaseIterable {
        case session
        case kind
        case string
    }

    /// The references to one table that found no row.
    private struct Missing {
        var ids: Set<Int64> = []
        var count = 0
        var seqs: ClosedRange<UInt64>?
    }

    /// The `meta` keys every journal file is created with.
    static let requiredMetaKeys = ["format", "created_at_ns", "first_seq", "run"]

    private let file: JournalFile
    private let rows: [Table: Set<Int64>]
    private var missing: [Table: Missing] = [:]

    /// Loads the row ids of `file`'s `session`, `kind` and `string` tables.
    init(_ file: JournalFile) throws {
        self.file = file
        var rows: [Table: Set<Int64>] = [:]
        for table in Table.allCases {
            let statement = try file.database.prepare("SELECT id FROM \(table.rawValue)")
            var ids: Set<Int64> = []
            while try statement.step() { ids.insert(statement.int64(at: 0)) }
            rows[table] = ids
        }
        self.rows = rows
    }

    /// Notes the references of `events` that find no row.
    mutating func check(_ events: [StoredEvent]) {
        for event in events {
            note(.session, event.session, seq: event.seq)
            note(.kind, event.kind, seq: event.seq)
            note(.string, event.subject, seq: event.seq)
            // 0 stands for an absent screen or parent.
            if event.screen != 0 { note(.string, event.screen, seq: event.seq) }
            if event.parent != 0 { note(.string, event.parent, seq: event.seq) }
        }
    }

    private mutating func note(_ table: Table, _ id: Int64, seq: UInt64) {
        guard rows[table]?.contains(id) == false else { return }
        var entry = missing[table] ?? Missing()
        entry.ids.insert(id)
        entry.count += 1
        entry.seqs = entry.seqs.map { min($0.lowerBound, seq)...max($0.upperBound, seq) } ?? seq...seq
        missing[table] = entry
    }

    /// One problem per table with rows missing (with the seqs of the events that refer to
    /// them), then sessions whose run is missing, `meta` keys missing, and `migration` steps
    /// missing.
    func problems() throws -> [(message: String, seqs: ClosedRange<UInt64>?)] {
        var problems: [(message: String, seqs: ClosedRange<UInt64>?)] = []
        for table in Table.allCases {
            guard let entry = missing[table] else { continue }
            problems.append(("\(entry.count) references from events to rows missing from table \(table.rawValue): ids \(Self.list(entry.ids))",
                             entry.seqs))
        }
        let orphans = try file.database.rows("SELECT id, run FROM session WHERE run NOT IN (SELECT id FROM run)")
        if !orphans.isEmpty {
            let sessions = Set(orphans.compactMap { $0[0].integer })
            let runs = Set(orphans.compactMap { $0[1].integer })
            problems.append(("\(orphans.count) session rows (ids \(Self.list(sessions))) refer to rows missing from table run: ids \(Self.list(runs))", nil))
        }
        let keys = Set(try file.database.rows("SELECT key FROM meta").compactMap { $0[0].text })
        let absent = Self.requiredMetaKeys.filter { !keys.contains($0) }
        if !absent.isEmpty { problems.append(("table meta lacks \(absent.joined(separator: ", "))", nil)) }
        let version = try file.database.scalar("PRAGMA user_version")?.integer ?? 0
        let steps = try file.database.scalar("SELECT count(*) FROM migration WHERE version BETWEEN 1 AND ?", [.integer(version)])?.integer ?? 0
        if steps != version { problems.append(("table migration holds \(steps) of the \(version) schema steps the file's version counts", nil)) }
        return problems
    }

    /// `1, 2, 3, 4, 5 and 20 more`.
    private static func list(_ ids: Set<Int64>) -> String {
        let sorted = ids.sorted()
        let shown = sorted.prefix(5).map(String.init).joined(separator: ", ")
        return sorted.count > 5 ? "\(shown) and \(sorted.count - 5) more" : shown
    }
}
