import Dispatch
import Foundation
import NavlogEvents

/// Reads the events of one `.navlog` file in seq order, a page at a time.
final class JournalFileReader {
    let file: JournalFile
    var path: String { file.path }
    private var strings = IDTable<String>()
    private var sessions = IDTable<(name: String, run: String)>()
    private var kinds = IDTable<EventKind>()
    let inflater: Inflater
    /// Payload values already decoded from this file, shared by the events that repeat them.
    private let values = DecodedValueCache()
    private let page: SQLiteStatement
    /// Reads one block's row; prepared on first use and reused.
    private var blockRow: SQLiteStatement?
    private let filter: EventFilter
    /// Whether the filter has view-model snapshots read as digests.
    private let digestsSnapshots: Bool
    /// By kind id: whether the filter wants only the envelope of those events.
    private var envelopeOnly: [Bool] = []
    private var lastDataVersion: Int64 = -1

    init(path: String, filter: EventFilter) throws {
        file = try JournalFile.openForReading(path: path)
        self.filter = filter
        digestsSnapshots = filter.digestedMembers[.viewModelChange]?.contains("snapshot") == true
        do {
            inflater = try Inflater(format: .raw)
            var conditions = ["b.last_seq > ?1"]
            if let since = filter.since { conditions.append("b.max_time_ns >= \(since)") }
            if let until = filter.until { conditions.append("b.min_time_ns < \(until)") }
            var indexConditions: [String] = []
            if let sessions = Self.sessionCondition(filter) {
                indexConditions.append("e.session IN (SELECT s.id FROM session s JOIN run r ON r.id = s.run WHERE \(sessions))")
            }
            if filter.kinds != nil { indexConditions.append("e.kinds & ?3 != 0") }
            if !indexConditions.isEmpty {
                conditions.append("EXISTS (SELECT 1 FROM event e WHERE e.block = b.id AND \(indexConditions.joined(separator: " AND ")))")
            }
            page = try file.database.prepare(
                "SELECT b.id, b.last_seq, b.event_count FROM block b WHERE \(conditions.joined(separator: " AND ")) ORDER BY b.id LIMIT ?2")
        } catch {
            throw JournalError.wrapping(error, path: path)
        }
    }

    /// The SQL condition on `session s` and `run r` for the filter's sessions and runs; nil
    /// when it has none.
    private static func sessionCondition(_ filter: EventFilter) -> String? {
        var conditions: [String] = []
        if let runs = filter.runs {
            conditions.append("r.name IN (\(runs.sorted().map(quote).joined(separator: ",")))")
        }
        if filter.sessions != nil || filter.runSessions != nil {
            var alternatives: [String] = []
            if let sessions = filter.sessions {
                alternatives.append("s.name IN (\(sessions.sorted().map(quote).joined(separator: ",")))")
            }
            for identity in (filter.runSessions ?? []).sorted() {
                alternatives.append("(r.name = \(quote(identity.run)) AND s.name = \(quote(identity.session)))")
            }
            conditions.append(alternatives.isEmpty ? "0" : "(" + alternatives.joined(separator: " OR ") + ")")
        }
        return conditions.isEmpty ? nil : conditions.joined(separator: " AND ")
    }

    private static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Closes the connection.
    func close() {
        blockRow?.close()
        page.close()
        file.close()
    }

    /// Whether another connection committed since the last call (`PRAGMA data_version`).
    func hasChanged() -> Bool {
        let version = (try? file.database.scalar("PRAGMA data_version")?.integer) ?? nil
        guard let version else { return true }
        defer { lastDataVersion = version }
        return version != lastDataVersion
    }

    // MARK: - Reading

    /// Returns the matching events of up to `blockLimit` blocks holding seqs after `after`, and
    /// the last seq those blocks cover (nil when there were none). It stops after the block
    /// that brings the events to `eventBudget`, so that a page of large blocks stays small.
    ///
    /// The `block` and `event` index pick the blocks; only those are inflated, then filtered.
    func events(after: UInt64, blockLimit: Int, eventBudget: Int = .max) throws -> (events: [Event], scannedThrough: UInt64?) {
        let blocks = try selectBlocks(after: after, limit: blockLimit)
        var events: [Event] = []
        var scannedThrough: UInt64?
        for (position, block) in blocks.enumerated() {
            do {
                if blockRow == nil {
                    do { blockRow = try Self.prepareBlockRow(in: file) } catch { throw JournalError.wrapping(error, path: path) }
                }
                let columns = try Self.readBlock(block.id, in: file, inflater: inflater, values: values, row: blockRow, near: after + 1,
                                                 plan: readsAllPayloads ? nil : payloadReading(ofKind:))
                let resolved = try [Event](unsafeUninitializedCapacity: columns.count) { buffer, count in
                    for index in 0..<columns.count where columns.seq[index] > after {
                        if try resolve(index, of: columns, blockID: block.id, into: buffer.baseAddress! + count) { count += 1 }
                    }
                }
                if events.isEmpty {
                    events = resolved
                } else {
                    // Room for this block and as many more as are left, so the page grows
                    // once instead of being copied again for every block.
                    if events.capacity < events.count + resolved.count {
                        events.reserveCapacity(events.count + resolved.count * (blocks.count - position))
                    }
                    events.append(contentsOf: resolved)
                }
            } catch where scannedThrough != nil {
                // Hand out the blocks before the damaged one (none of its events was added); the
                // next call starts at it and throws.
                break
            }
            scannedThrough = block.lastSeq
            // Whole blocks only: the next call starts after the last one read.
            if events.count >= eventBudget { break }
        }
        return (events, scannedThrough)
    }

    /// The ids and last seqs of up to `limit` blocks holding seqs after `after` that the
    /// filter may want, in order.
    private func selectBlocks(after: UInt64, limit: Int) throws -> [(id: Int64, lastSeq: UInt64, count: Int64)] {
        var blocks: [(id: Int64, lastSeq: UInt64, count: Int64)] = []
        do {
            page.reset()
            try page.bind(Int64(bitPattern: after), at: 1)
            try page.bind(Int64(limit), at: 2)
            if let kinds = filter.kinds {
                var kindNames: [Int64: String] = [:]
                try file.loadKinds(into: &kindNames)
                let mask = kindNames.filter { kinds.contains(EventKind(rawValue: $0.value)) }
                    .reduce(UInt64(0)) { $0 | JournalFileWriter.kindBit($1.key) }
                try page.bind(Int64(bitPattern: mask), at: 3)
            }
            while try page.step() { blocks.append((page.int64(at: 0), UInt64(bitPattern: page.int64(at: 1)), page.int64(at: 2))) }
            page.reset()
        } catch {
            page.reset()
            throw JournalError.wrapping(error, path: path)
        }
        return blocks
    }

    /// Selects the blocks holding seqs after `after` that a page of up to `blockLimit` blocks
    /// and `eventBudget` events takes, reads their rows and starts decoding each on a thread of
    /// its own (inflating and decoding are most of a reader's work); nil when there are none.
    /// ``internedEvents(of:names:newSessions:)`` waits for them and hands out their events, so a
    /// caller can start the next page before interning this one.
    func startDecoding(after: UInt64, blockLimit: Int, eventBudget: Int) throws -> DecodingPage? {
        var blocks = try selectBlocks(after: after, limit: blockLimit)
        guard !blocks.isEmpty else { return nil }
        // Only the blocks the budget takes are decoded.
        var total: Int64 = 0
        if let enough = blocks.firstIndex(where: { total += max($0.count, 0); return total >= eventBudget }) {
            blocks.removeSubrange((enough + 1)...)
        }
        if blockRow == nil {
            do { blockRow = try Self.prepareBlockRow(in: file) } catch { throw JournalError.wrapping(error, path: path) }
        }
        let planned = try plannedReadings()
        var stored: [StoredBlock] = []
        var rowError: (any Error)?
        for block in blocks {
            do {
                stored.append(try StoredBlock(block.id, in: file, row: blockRow, near: after + 1))
            } catch {
                rowError = error
                break
            }
        }
        let page = DecodingPage(after: after, blocks: blocks, stored: stored, rowError: rowError,
                                decoders: try (0..<stored.count).map { _ in try freeDecoders.popLast() ?? Decoder() },
                                readings: planned, viewModelKind: viewModelKind, digested: digestsSnapshots)
        page.start()
        return page
    }

    /// Waits for `page`'s blocks and returns their events as ``InternedEvent``s, their names
    /// interned in `names` and their sessions numbered from 0 in the order this file's pages
    /// first name them (`newSessions` gets the run and name of each session numbered), with
    /// the last seq of the blocks handed out. A damaged block ends the page before it; when it
    /// is the first, this throws. No string is copied and no `Event` built: what `navlog
    /// report` reads.
    func internedEvents(of page: DecodingPage, names: inout NameTable,
                        newSessions: inout [SessionIdentity]) throws -> (events: [InternedEvent], storage: InternedEventStorage, scannedThrough: UInt64?) {
        page.wait()
        defer { freeDecoders += page.decoders }
        // The tables in a local copy: reaching them through `self` for every event paid the
        // runtime's exclusivity checks.
        var state = interning
        defer { interning = state }
        let noName = names.id(of: "")
        var events: [InternedEvent] = []
        let storage = InternedEventStorage()
        var scannedThrough: UInt64?
        for position in page.blocks.indices {
            do {
                let block: DecodedBlock
                switch position < page.stored.count ? page.outcome(position) : nil {
                case .decoded(let decoded):
                    block = decoded
                case .failed(let error):
                    throw error
                case .unplanned:
                    // A kind new since the plan was made: decode the block again here, where
                    // its reading can be worked out.
                    let decoder = page.decoders[position]
                    block = DecodedBlock(try Self.decode(page.stored[position], inflater: inflater, values: values, plan: internedReading(ofKind:),
                                                         projector: &decoder.projector),
                                         decoder: decoder, viewModelKind: viewModelKind, digested: digestsSnapshots)
                case nil:
                    throw page.rowError ?? JournalError.damagedBlock(path: path, firstSeq: page.after + 1, lastSeq: page.lastSeq,
                                                                      reason: "block \(page.blocks[position].id) was not read")
                }
                let columns = block.columns
                let count = events.count
                if events.isEmpty { events.reserveCapacity(columns.count * (page.blocks.count - position)) }
                // The decoder's name ids in a local copy for the block, given back after it.
                var payloadNames = ProjectedNames(block.decoder)
                defer { payloadNames.giveBack() }
                do {
                    for index in 0..<columns.count where columns.seq[index] > page.after {
                        try intern(index, of: block, blockID: page.blocks[position].id, noName: noName, state: &state,
                                   payloadNames: &payloadNames, names: &names, newSessions: &newSessions, storage: storage, into: &events)
                    }
                } catch {
                    // None of a damaged block's events is handed out.
                    events.removeSubrange(count...)
                    throw error
                }
            } catch where scannedThrough != nil {
                break
            }
            scannedThrough = page.blocks[position].lastSeq
        }
        return (events, storage, scannedThrough)
    }

    /// An inflater, a value cache and a payload projector, for one block decoded at a time.
    ///
    /// `@unchecked Sendable`: none of its parts is thread-safe, and none needs to be. A decoder
    /// belongs to one block of one ``DecodingPage`` from ``startDecoding(after:blockLimit:eventBudget:)``
    /// until ``internedEvents(of:names:newSessions:)`` has waited for that page's workers, and
    /// only then goes back to ``freeDecoders`` for another block. Its worker uses the inflater,
    /// the cache and the projector while it decodes; the reading thread reads the projector,
    /// and reads and writes `nameIDs`, only after that wait.
    final class Decoder: @unchecked Sendable {
        let inflater: Inflater
        let values = DecodedValueCache()
        /// What the decoder's block projected; lent to the decoding whole, and read by the
        /// reading thread only once the block is decoded.
        var projector = PayloadProjector()
        /// By id of the projector's strings: its id in the reading thread's names, -1 until
        /// looked up. Only the reading thread touches it.
        var nameIDs: [Int32] = []
        init() throws {
            inflater = try Inflater(format: .raw)
        }
    }

    /// A decoder's projected strings and lists, and the ids their strings have in the reading
    /// thread's names (each looked up by name once), taken out of the decoder for one block.
    struct ProjectedNames {
        let decoder: Decoder
        let strings: PayloadStrings
        let lists: [Int32]
        /// By string id: its name id, -1 until looked up.
        private var ids: [Int32] = []

        init(_ decoder: Decoder) {
            self.decoder = decoder
            strings = decoder.projector.strings
            lists = decoder.projector.lists
            swap(&ids, &decoder.nameIDs)
        }

        /// The name of string `id`; nil for -1, no string.
        mutating func name(_ id: Int32, in names: inout NameTable) -> NameID? {
            guard id >= 0 else { return nil }
            if Int(id) >= ids.count { ids += repeatElement(-1, count: strings.count - ids.count) }
            let known = ids[Int(id)]
            if known >= 0 { return NameID(rawValue: known) }
            let interned = names.id(of: strings.string(id))
            ids[Int(id)] = interned.rawValue
            return interned
        }

        /// Puts the ids back in the decoder, for its next block.
        mutating func giveBack() {
            swap(&ids, &decoder.nameIDs)
        }
    }

    /// Decoders of pages handed out, for the next ones.
    private var freeDecoders: [Decoder] = []

    /// How payloads are read, by kind id (``internedReading(ofKind:)``), worked out ahead for
    /// every kind the file has now: decoding threads must not reach for the connection, and a
    /// block with a kind new since then is decoded again on the reading thread.
    private func plannedReadings() throws -> [EventBlock.PayloadReading?] {
        var names: [Int64: String] = [:]
        try file.loadKinds(into: &names)
        if viewModelKind == nil { viewModelKind = names.first { $0.value == EventKind.viewModelChange.rawValue }?.key }
        for id in names.keys where id >= 0 && id < EventBlock.denseKindIDs {
            if planned.count <= id { planned += [EventBlock.PayloadReading?](repeating: nil, count: Int(id) + 1 - planned.count) }
            if planned[Int(id)] == nil { planned[Int(id)] = try internedReading(ofKind: id) }
        }
        return planned
    }

    private var planned: [EventBlock.PayloadReading?] = []

    /// A page of blocks being decoded, each on a thread of its own: each decoding touches only
    /// its own block, decoder and result, and ``wait()`` orders them before they are read,
    /// which is why this may cross threads (`@unchecked Sendable`).
    final class DecodingPage: @unchecked Sendable {
        let after: UInt64
        let blocks: [(id: Int64, lastSeq: UInt64, count: Int64)]
        /// The rows read, in order; fewer than `blocks` when reading one failed with `rowError`.
        let stored: [StoredBlock]
        let rowError: (any Error)?
        let decoders: [Decoder]
        /// By kind id, how payloads are read; nil reads every payload as its values.
        let readings: [EventBlock.PayloadReading?]?
        let viewModelKind: Int64?
        let digested: Bool
        /// How decoding one block went.
        enum Outcome {
            case decoded(DecodedBlock)
            case failed(any Error)
            /// The block has a kind the plan did not cover: the reading thread decodes it.
            case unplanned
        }

        /// Each block's outcome, at its index, once ``wait()`` returned.
        private let results: UnsafeMutablePointer<Outcome?>
        private let group = DispatchGroup()

        init(after: UInt64, blocks: [(id: Int64, lastSeq: UInt64, count: Int64)], stored: [StoredBlock], rowError: (any Error)?,
             decoders: [Decoder], readings: [EventBlock.PayloadReading?]?, viewModelKind: Int64?, digested: Bool) {
            self.after = after
            self.blocks = blocks
            self.stored = stored
            self.rowError = rowError
            self.decoders = decoders
            self.readings = readings
            self.viewModelKind = viewModelKind
            self.digested = digested
            results = .allocate(capacity: stored.count)
            results.initialize(repeating: nil, count: stored.count)
        }

        deinit {
            group.wait()
            results.deinitialize(count: stored.count)
            results.deallocate()
        }

        /// The outcome of block `index`; call ``wait()`` first.
        func outcome(_ index: Int) -> Outcome? { results[index] }

        /// The last seq of the blocks selected.
        var lastSeq: UInt64 { blocks.last?.lastSeq ?? after }

        func start() {
            for index in stored.indices {
                DispatchQueue.global().async(group: group) { self.results[index] = self.decode(index) }
            }
        }

        func wait() {
            group.wait()
        }

        private func decode(_ index: Int) -> Outcome {
            var isUnplanned = false
            let plan: ((Int64) throws -> EventBlock.PayloadReading)? = readings.map { readings in
                { id in
                    guard id >= 0, id < readings.count, let reading = readings[Int(id)] else {
                        isUnplanned = true
                        throw UnplannedKind()
                    }
                    return reading
                }
            }
            do {
                let decoder = decoders[index]
                return .decoded(DecodedBlock(
                    try JournalFileReader.decode(stored[index], inflater: decoder.inflater, values: decoder.values, plan: plan,
                                                 projector: &decoder.projector),
                    decoder: decoder, viewModelKind: viewModelKind, digested: digested))
            } catch {
                return isUnplanned ? .unplanned : .failed(error)
            }
        }
    }

    /// A block's columns, with the payloads its decoder projected (``PayloadProjector``) and
    /// the ``InternedEvent/snapshotFingerprints`` of its view-model changes, worked out where
    /// it was decoded.
    struct DecodedBlock {
        var columns: EventBlock.Columns
        /// The decoder, whose projector holds this block's projected payloads until the block is interned.
        let decoder: Decoder
        /// By event: its projected payload; empty when the block projected none.
        let projected: [ProjectedPayload]
        /// By event: its snapshots' fingerprints, for a `viewmodel.change` whose payload was
        /// read as its value; empty when there are none.
        var fingerprints: [SnapshotFingerprints?] = []

        init(_ columns: EventBlock.Columns, decoder: Decoder, viewModelKind: Int64?, digested: Bool) {
            self.columns = columns
            self.decoder = decoder
            projected = decoder.projector.events
            guard let viewModelKind else { return }
            for index in 0..<columns.count where columns.kind[index] == viewModelKind && (projected.isEmpty || !projected[index].isProjected) {
                if fingerprints.isEmpty { fingerprints = [SnapshotFingerprints?](repeating: nil, count: columns.count) }
                fingerprints[index] = InternedEvent.snapshotFingerprints(ofPayload: columns.payload[index], digested: digested)
            }
        }
    }

    /// The file's kind id of `viewmodel.change`, once looked up.
    private var viewModelKind: Int64?

    /// Thrown while decoding in parallel for a kind id the plan did not cover.
    private struct UnplannedKind: Error {}

    /// What ``internedEvents(after:blockLimit:eventBudget:names:newSessions:)`` knows of this
    /// file's ids.
    private struct Interning {
        /// By string id: its id in the names.
        var strings = IDTable<NameID>()
        /// By session id: its number, and whether the filter's sessions and runs take it.
        var sessions = IDTable<(number: Int32, matches: Bool)>()
        var sessionCount: Int32 = 0
        /// By kind id: the kind, and whether its events come as their envelope only.
        var kinds = IDTable<(kind: EventKind, isEnvelopeOnly: Bool)>()
    }

    private var interning = Interning()

    /// Appends the event at `index` of `columns` to `events` as an ``InternedEvent`` unless the
    /// filter leaves it out. An envelope-only event's subject is `noName`, the empty name.
    private func intern(_ index: Int, of block: DecodedBlock, blockID: Int64, noName: NameID, state: inout Interning,
                        payloadNames: inout ProjectedNames, names: inout NameTable, newSessions: inout [SessionIdentity],
                        storage: InternedEventStorage, into events: inout [InternedEvent]) throws {
        let columns = block.columns
        func damaged(_ reason: String) -> JournalError {
            let seq = columns.seq[index]
            return .damagedBlock(path: path, firstSeq: seq, lastSeq: seq, reason: "block \(blockID) refers to \(reason)")
        }
        func name(_ id: Int64) throws -> NameID {
            if let known = state.strings[id] { return known }
            if strings[id] == nil {
                var fresh: [Int64: String] = [:]
                try file.loadStrings(after: strings.lastID, into: &fresh)
                strings.add(fresh)
            }
            guard let value = strings[id] else { throw damaged("unknown string \(id)") }
            let interned = names.id(of: value)
            state.strings.add([id: interned])
            return interned
        }
        let sessionID = columns.session[index]
        let session: (number: Int32, matches: Bool)
        if let known = state.sessions[sessionID] {
            session = known
        } else {
            if sessions[sessionID] == nil {
                var rows: [Int64: (name: String, run: String)] = [:]
                try file.loadSessions(into: &rows)
                sessions.add(rows)
            }
            guard let row = sessions[sessionID] else { throw damaged("unknown session \(sessionID)") }
            session = (state.sessionCount, filter.matches(session: row.name, run: row.run))
            state.sessionCount += 1
            state.sessions.add([sessionID: session])
            newSessions.append(SessionIdentity(run: row.run, session: row.name))
        }
        let kindID = columns.kind[index]
        let kind: (kind: EventKind, isEnvelopeOnly: Bool)
        if let known = state.kinds[kindID] {
            kind = known
        } else {
            guard let found = try self.kind(kindID) else { throw damaged("unknown kind \(kindID)") }
            kind = (found, isEnvelopeOnly(kindID))
            state.kinds.add([kindID: kind])
        }
        let wall = columns.wall[index]
        guard session.matches else { return }
        if let kinds = filter.kinds, !kinds.contains(kind.kind) { return }
        if let since = filter.since, wall < since { return }
        if let until = filter.until, wall >= until { return }
        if kind.isEnvelopeOnly {
            events.append(InternedEvent(
                seq: columns.seq[index], wallNanoseconds: wall, monotonicNanoseconds: columns.monotonic[index], session: session.number,
                sessionSeq: columns.sessionSeq[index], kind: kind.kind, cause: columns.cause[index], subject: noName, screen: nil,
                parent: nil, payload: Self.emptyPayload, names: &names, storage: storage))
            return
        }
        let screenID = columns.screen[index]
        let parentID = columns.parent[index]
        let subject = try name(columns.subject[index])
        let screen = screenID == 0 ? nil : try name(screenID)
        let parent = parentID == 0 ? nil : try name(parentID)
        guard !block.projected.isEmpty, block.projected[index].isProjected else {
            events.append(InternedEvent(
                seq: columns.seq[index], wallNanoseconds: wall, monotonicNanoseconds: columns.monotonic[index], session: session.number,
                sessionSeq: columns.sessionSeq[index], kind: kind.kind, cause: columns.cause[index], subject: subject, screen: screen,
                parent: parent, payload: columns.payload[index], names: &names, storage: storage, digestedSnapshots: digestsSnapshots,
                snapshotFingerprints: block.fingerprints.isEmpty ? nil : block.fingerprints[index]))
            return
        }
        let projected = block.projected[index]
        func payloadName(_ id: Int32) -> NameID? { payloadNames.name(id, in: &names) }
        var lists: UnsafePointer<NameID>?
        let listCount = Int(max(projected.removedCount, 0) + max(projected.boundCount, 0) + max(projected.changedCount, 0))
        if listCount > 0 {
            let room = storage.reserve(listCount)
            for offset in 0..<listCount {
                (room + offset).initialize(to: payloadName(payloadNames.lists[Int(projected.listStart) + offset])!)
            }
            lists = UnsafePointer(room)
        }
        events.append(InternedEvent(
            seq: columns.seq[index], wallNanoseconds: wall, monotonicNanoseconds: columns.monotonic[index], session: session.number,
            sessionSeq: columns.sessionSeq[index], kind: kind.kind, cause: columns.cause[index], subject: subject, screen: screen,
            parent: parent, member: payloadName(projected.member), root: payloadName(projected.root), content: payloadName(projected.content),
            level: projected.level, lists: lists, removedCount: projected.removedCount, boundCount: projected.boundCount,
            changedCount: projected.changedCount, payloadIndex: -1, storage: storage, snapshotFingerprints: projected.fingerprints))
    }

    private func matches(session: String, run: String, kind: EventKind, wallNanoseconds: Int64) -> Bool {
        if !filter.matches(session: session, run: run) { return false }
        if let kinds = filter.kinds, !kinds.contains(kind) { return false }
        if let since = filter.since, wallNanoseconds < since { return false }
        if let until = filter.until, wallNanoseconds >= until { return false }
        return true
    }

    /// The statement ``readBlock(_:in:inflater:values:row:near:)`` reads a block's row with.
    static func prepareBlockRow(in file: JournalFile) throws -> SQLiteStatement {
        try file.database.prepare("SELECT first_seq, last_seq, event_count, raw_bytes, crc32, data FROM \(file.schemaPrefix)block WHERE id = ?")
    }

    /// Reads block `id` of `file`, checking its length, CRC-32 and layout.
    ///
    /// `row`, when given, is a statement ``prepareBlockRow(in:)`` made, reused from block to
    /// block; it is reset before this returns, so no read stays open.
    static func readBlock(_ id: Int64, in file: JournalFile, inflater: Inflater, values: DecodedValueCache? = nil,
                          row: SQLiteStatement? = nil, near seq: UInt64,
                          plan: ((Int64) throws -> EventBlock.PayloadReading)? = nil) throws -> EventBlock.Columns {
        try decode(StoredBlock(id, in: file, row: row, near: seq), inflater: inflater, values: values, plan: plan)
    }

    /// Inflates, checks and decodes `block`: the part of ``readBlock(_:in:inflater:values:row:near:plan:)``
    /// that needs no connection, so blocks can be decoded on several threads, each with its
    /// own `inflater` and `values`.
    static func decode(_ block: StoredBlock, inflater: Inflater, values: DecodedValueCache? = nil,
                       plan: ((Int64) throws -> EventBlock.PayloadReading)? = nil) throws -> EventBlock.Columns {
        var projector = PayloadProjector()
        return try decode(block, inflater: inflater, values: values, plan: plan, projector: &projector)
    }

    /// ``decode(_:inflater:values:plan:)``, projecting payloads into `projector` as the plan says.
    static func decode(_ block: StoredBlock, inflater: Inflater, values: DecodedValueCache?,
                       plan: ((Int64) throws -> EventBlock.PayloadReading)?, projector: inout PayloadProjector) throws -> EventBlock.Columns {
        let raw: [UInt8]
        do {
            raw = try inflater.decompressAll(block.data, expectedCount: block.rawBytes, context: "inflating block \(block.id) of \(block.path)")
        } catch let error as ZlibError {
            throw block.damaged("\(error)")
        }
        guard crc32Checksum(raw) == block.checksum else { throw block.damaged("CRC-32 mismatch after inflating") }
        let columns: EventBlock.Columns
        do {
            columns = try EventBlock.decodeColumns(raw, cache: values, plan: plan, projector: &projector)
        } catch {
            throw block.damaged("\(error)")
        }
        try block.check(count: columns.count, first: columns.seq.first, last: columns.seq.last)
        return columns
    }

    /// Reads the envelope columns of block `id` of `file` to `depth`, inflating only the front
    /// of the block that holds them, and checks their layout and the event count, first and
    /// last seq against the block's row. The block's CRC-32 covers all of it and so is not
    /// checked (`navlog verify` checks it).
    static func readEnvelope(_ id: Int64, in file: JournalFile, through depth: EventBlock.EnvelopeDepth, inflater: Inflater,
                             row: SQLiteStatement? = nil, near seq: UInt64) throws -> EventBlock.Envelope {
        let block = try StoredBlock(id, in: file, row: row, near: seq)
        let envelope: EventBlock.Envelope
        do {
            envelope = try EventBlock.inflateEnvelope(block.data, rawBytes: block.rawBytes, through: depth, inflater: inflater,
                                                      firstGuess: 64 + block.count * depth.bytesPerEventGuess,
                                                      context: "inflating block \(id) of \(file.path)")
        } catch {
            throw block.damaged("\(error)")
        }
        try block.check(count: envelope.count, first: envelope.seq.first, last: envelope.seq.last)
        return envelope
    }

    /// The kind with row id `id`, reloading the table once when it is not known yet; nil when
    /// the file has no such kind.
    private func kind(_ id: Int64) throws -> EventKind? {
        if let kind = kinds[id] { return kind }
        var names: [Int64: String] = [:]
        try file.loadKinds(into: &names)
        kinds.add(names.mapValues(EventKind.init(rawValue:)))
        return kinds[id]
    }

    /// Whether the filter wants every payload as it is.
    private var readsAllPayloads: Bool { filter.digestedMembers.isEmpty && filter.envelopeOnlyKinds.isEmpty }

    /// How the filter wants payloads of kind id `id` read; noting envelope-only kinds for
    /// ``resolve(_:of:blockID:into:)``. An unknown id reads values; resolving the event then
    /// reports it.
    private func payloadReading(ofKind id: Int64) throws -> EventBlock.PayloadReading {
        guard let kind = try kind(id) else { return .values }
        // Kind ids are small; one a damaged file makes huge is read in full.
        if filter.envelopeOnlyKinds.contains(kind), id >= 0, id < EventBlock.denseKindIDs {
            if envelopeOnly.count <= id { envelopeOnly += [Bool](repeating: false, count: Int(id) + 1 - envelopeOnly.count) }
            envelopeOnly[Int(id)] = true
            return .skipped
        }
        return filter.digestedMembers[kind].map { .digesting($0) } ?? .values
    }

    /// How the interning reader reads payloads of kind id `id`: the members the session
    /// trackers read (``InternedEvent/payloadSlots(of:)``) projected, nothing of kinds they
    /// read nothing of, the whole of a `session.start`, and as ``payloadReading(ofKind:)``
    /// says for envelope-only kinds.
    private func internedReading(ofKind id: Int64) throws -> EventBlock.PayloadReading {
        let reading = try payloadReading(ofKind: id)
        guard reading != .skipped, let kind = try kind(id), kind != .sessionStart else { return reading }
        let slots = InternedEvent.payloadSlots(of: kind)
        return slots.isEmpty ? .skipped : .projecting(PayloadProjection(slots))
    }

    /// Whether events of kind id `id` come as their envelope only.
    private func isEnvelopeOnly(_ id: Int64) -> Bool {
        id >= 0 && id < envelopeOnly.count && envelopeOnly[Int(id)]
    }

    /// The payload of an envelope-only event, made once: a `[:]` literal built a dictionary
    /// for each event.
    private static let emptyPayload: JSONValue = .object([:])

    /// Replaces ids with strings, reloading the tables once when a newer id turns up, and
    /// initializes `slot` with the event unless it does not match the filter; returns whether
    /// it did.
    ///
    /// It builds the event in place: returning it, or appending it to an array, copied the
    /// event, retaining and then releasing every string and the payload.
    private func resolve(_ index: Int, of columns: EventBlock.Columns, blockID: Int64, into slot: UnsafeMutablePointer<Event>) throws -> Bool {
        func damaged(_ reason: String) -> JournalError {
            let seq = columns.seq[index]
            return .damagedBlock(path: path, firstSeq: seq, lastSeq: seq, reason: "block \(blockID) refers to \(reason)")
        }
        func lookup(_ id: Int64) throws -> String {
            if let value = strings[id] { return value }
            var fresh: [Int64: String] = [:]
            try file.loadStrings(after: strings.lastID, into: &fresh)
            strings.add(fresh)
            guard let value = strings[id] else { throw damaged("unknown string \(id)") }
            return value
        }
        func kind(_ id: Int64) throws -> EventKind {
            guard let kind = try self.kind(id) else { throw damaged("unknown kind \(id)") }
            return kind
        }
        func session(_ id: Int64) throws -> (name: String, run: String) {
            if let session = sessions[id] { return session }
            var rows: [Int64: (name: String, run: String)] = [:]
            try file.loadSessions(into: &rows)
            sessions.add(rows)
            guard let session = sessions[id] else { throw damaged("unknown session \(id)") }
            return session
        }
        let session = try session(columns.session[index])
        let kind = try kind(columns.kind[index])
        guard matches(session: session.name, run: session.run, kind: kind, wallNanoseconds: columns.wall[index]) else { return false }
        if isEnvelopeOnly(columns.kind[index]) {
            slot.initialize(to: Event(
                seq: columns.seq[index], wallNanoseconds: columns.wall[index], monotonicNanoseconds: columns.monotonic[index],
                run: session.run, session: session.name, sessionSeq: columns.sessionSeq[index],
                kind: kind, subject: "", cause: columns.cause[index], payload: Self.emptyPayload))
            return true
        }
        let screenID = columns.screen[index]
        let parentID = columns.parent[index]
        // Every lookup that can throw happens before the event is made, so it is built
        // straight into the array.
        let subject = try lookup(columns.subject[index])
        let screen = screenID == 0 ? nil : try lookup(screenID)
        let parent = parentID == 0 ? nil : try lookup(parentID)
        slot.initialize(to: Event(
            seq: columns.seq[index], wallNanoseconds: columns.wall[index], monotonicNanoseconds: columns.monotonic[index],
            run: session.run, session: session.name, sessionSeq: columns.sessionSeq[index],
            kind: kind, subject: subject, screen: screen, cause: columns.cause[index],
            parent: parent, payload: columns.payload[index]))
        return true
    }

}

/// One of a file's tables by row id (strings, kinds, sessions), loaded as rows turn up.
/// Row ids are small and dense, so they index an array; an id a damaged file makes too large
/// for that (beyond twice the rows plus 1024) goes to a dictionary instead.
struct IDTable<Value> {
    private var dense: [Value?] = []
    private var sparse: [Int64: Value] = [:]
    private var count = 0
    /// The highest id added.
    private(set) var lastID: Int64 = 0

    subscript(id: Int64) -> Value? {
        if id >= 0, id < dense.count, let value = dense[Int(id)] { return value }
        return sparse[id]
    }

    mutating func add(_ rows: [Int64: Value]) {
        let limit = Int64(count + rows.count) * 2 + 1024
        for (id, value) in rows {
            if self[id] == nil { count += 1 }
            lastID = max(lastID, id)
            if id >= 0, id < limit {
                if id >= dense.count { dense += [Value?](repeating: nil, count: Int(id) + 1 - dense.count) }
                dense[Int(id)] = value
            } else {
                sparse[id] = value
            }
        }
    }
}

/// A set of row ids, dense in a bit array for the small ids tables hand out.
struct IDSet {
    private var dense: [Bool] = []
    private var sparse: Set<Int64> = []

    func contains(_ id: Int64) -> Bool {
        if id >= 0, id < dense.count { return dense[Int(id)] }
        return sparse.contains(id)
    }

    mutating func insert(_ id: Int64) {
        if id >= 0, id < 1 << 20 {
            if id >= dense.count { dense += [Bool](repeating: false, count: Int(id) + 1 - dense.count) }
            dense[Int(id)] = true
        } else {
            sparse.insert(id)
        }
    }
}
