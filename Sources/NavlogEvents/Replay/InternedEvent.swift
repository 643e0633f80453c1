/// A name (of an instance, screen, stack, container, app, view model or field) as its id in a
/// ``NameTable``.
public struct NameID: Hashable, Sendable, Comparable {
    public let rawValue: Int32

    @inlinable
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    @inlinable
    public static func < (lhs: NameID, rhs: NameID) -> Bool { lhs.rawValue < rhs.rawValue }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }

    /// What `Dictionary` and `Set` hash an id with: a few multiplies (MurmurHash3's finalizer
    /// over the id and the table's seed) instead of SipHash. The trackers look ids up several
    /// times per event, and the seeded hasher was an eighth of the report's analysis thread.
    /// Ids are handed out in order by the reader, not chosen by whoever wrote the journal, so
    /// nothing is gained by a hash that resists chosen collisions.
    @inlinable
    public func _rawHashValue(seed: Int) -> Int {
        var bits = UInt64(UInt32(bitPattern: rawValue)) ^ UInt64(bitPattern: Int64(seed))
        bits = (bits ^ (bits >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        bits = (bits ^ (bits >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return Int(truncatingIfNeeded: bits ^ (bits >> 33))
    }
}

/// Names by id and ids by name: every distinct string gets the next id, from 0.
///
/// A reader on another thread can keep a copy up to date by appending the names added since
/// it last looked (``names(from:)``, ``append(_:)``), in order, so both give the same ids.
public struct NameTable: Sendable {
    public private(set) var names: [String] = []
    private var ids: [String: NameID] = [:]

    public init() {}

    /// The id of `name`, added when new.
    public mutating func id(of name: String) -> NameID {
        if let id = ids[name] { return id }
        let id = NameID(rawValue: Int32(names.count))
        names.append(name)
        ids[name] = id
        return id
    }

    /// The name with id `id`.
    @inlinable
    public subscript(id: NameID) -> String { names[Int(id.rawValue)] }

    /// How many names there are: ids run from 0 to `count - 1`.
    public var count: Int { names.count }

    /// The names with ids from `start` on, to hand to a copy that has `start` of them.
    public func names(from start: Int) -> ArraySlice<String> { names[start...] }

    /// Adds `names`, the ones another table added after the `count` this one has, in order.
    public mutating func append(_ newNames: some Collection<String>) {
        for name in newNames {
            ids[name] = NameID(rawValue: Int32(names.count))
            names.append(name)
        }
    }
}

/// What ``InternedEvent``s point to instead of holding: their name lists and the whole
/// payloads of `session.start`s. Whoever keeps the events keeps their storage, and an event
/// must not be read once its storage is gone (a page of a journal and its storage go
/// together, ``InternedEvent/init(_:session:names:storage:digestedSnapshots:)`` takes one).
///
/// An event that held its lists as an array and its payload as a `JSONValue` allocated when it
/// was built, retained and released them at each copy, and freed them on another thread than
/// the one that made them (glibc's slow path).
///
/// Lists are written into chunks that never move, so a pointer to one stays good while the
/// storage lives. `@unchecked Sendable`: one thread fills it, then hands it on with its events
/// (through a queue, which orders the writes before the reads), and it is only read after.
public final class InternedEventStorage: @unchecked Sendable {
    private var chunks: [UnsafeMutablePointer<NameID>] = []
    private var next: UnsafeMutablePointer<NameID>?
    private var room = 0
    /// The payloads of `session.start`s, by ``InternedEvent``'s index.
    public private(set) var payloads: [JSONValue] = []

    /// Names per chunk: 64 KiB, a few per page of a journal.
    private static let chunkSize = 16_384

    public init() {}

    deinit {
        for chunk in chunks { chunk.deallocate() }
    }

    /// Room for `count` names, which stays where it is while the storage lives.
    public func reserve(_ count: Int) -> UnsafeMutablePointer<NameID> {
        if count > room || next == nil {
            let size = max(count, Self.chunkSize)
            let chunk = UnsafeMutablePointer<NameID>.allocate(capacity: size)
            chunks.append(chunk)
            next = chunk
            room = size
        }
        let start = next!
        next = start + count
        room -= count
        return start
    }

    /// Keeps `payload` and returns its index.
    public func add(_ payload: JSONValue) -> Int32 {
        payloads.append(payload)
        return Int32(payloads.count - 1)
    }

    /// Forgets every list and payload, keeping the first chunk for the next: for a reader that
    /// builds one event at a time and is done with it before the next.
    public func removeAll() {
        for chunk in chunks.dropFirst() { chunk.deallocate() }
        chunks.removeSubrange(min(1, chunks.count)...)
        next = chunks.first
        room = chunks.isEmpty ? 0 : Self.chunkSize
        payloads.removeAll(keepingCapacity: true)
    }
}

/// An event with its names as ids of a ``NameTable`` and its payload cut to what the session
/// trackers read (``PayloadMember``): what `navlog report` follows sessions with.
///
/// Of the payload it keeps, by kind: the stack, root, content and the `removed` and `bound`
/// lists of shown screens; the stack of `screen.pop`; `to`, `level` and `removed` of
/// `screen.dismiss`; `tabs` of `tab.select`; `child` of `coordinator.coordinate`; `outcome` of
/// `screen.ready`; `app` of `session.start`, whose whole payload stays in ``payload`` too (the
/// report reads its labels); and `viewmodel` and `changed` of `viewmodel.change`, with its
/// snapshots' ``snapshotFingerprints``. ``payloadName(_:)`` answers nil for any other member.
///
/// It allocates nothing of its own: its lists and a `session.start`'s payload are in an
/// ``InternedEventStorage``, which must outlive it. (Its kind holds its name, a literal for
/// every kind this version knows.)
/// `@unchecked Sendable` for the pointer to its lists: it crosses threads with its storage,
/// which is written before and only read after (see ``InternedEventStorage``).
public struct InternedEvent: TrackedEvent, @unchecked Sendable {
    public typealias Name = NameID

    public var seq: UInt64
    public var wallNanoseconds: Int64
    public var monotonicNanoseconds: UInt64
    /// The event's session (its run and name) as an id the reader hands out.
    public var session: Int32
    public var sessionSeq: UInt64
    public var kind: EventKind
    public var cause: UInt64?
    public var subjectName: NameID
    public var screenName: NameID?
    public var parentName: NameID?
    /// The kind's one string member besides `root` and `content` (``PayloadMember``), if any.
    @usableFromInline var member: NameID?
    @usableFromInline var memberKey: PayloadMember?
    @usableFromInline var root: NameID?
    @usableFromInline var content: NameID?
    public var payloadLevel: Int64?
    /// `removed`, then `bound`, then `changed`, each as long as its count says (-1: absent), in
    /// the storage.
    @usableFromInline var lists: UnsafePointer<NameID>?
    @usableFromInline var removedCount: Int32 = -1
    @usableFromInline var boundCount: Int32 = -1
    @usableFromInline var changedCount: Int32 = -1
    /// The index of a `session.start`'s whole payload in the storage; -1 for other kinds.
    @usableFromInline var payloadIndex: Int32 = -1
    @usableFromInline var storage: Unmanaged<InternedEventStorage>
    /// The fingerprints of a `viewmodel.change`'s snapshot and the one before; nil for other kinds.
    public var snapshotFingerprints: SnapshotFingerprints?

    /// The whole payload of `session.start`; nil for other kinds.
    public var payload: JSONValue? {
        guard payloadIndex >= 0 else { return nil }
        return storage.takeUnretainedValue().payloads[Int(payloadIndex)]
    }

    /// The event `event` of session `session`, its names interned in `names` and its lists and
    /// payload kept in `storage`; a `viewmodel.change` holds ``JSONFingerprint/digest(_:)``s of
    /// its snapshots when `digestedSnapshots`.
    public init(_ event: Event, session: Int32, names: inout NameTable, storage: InternedEventStorage, digestedSnapshots: Bool = false) {
        self.init(seq: event.seq, wallNanoseconds: event.wallNanoseconds, monotonicNanoseconds: event.monotonicNanoseconds,
                  session: session, sessionSeq: event.sessionSeq, kind: event.kind, cause: event.cause,
                  subject: names.id(of: event.subject), screen: event.screen.map { names.id(of: $0) },
                  parent: event.parent.map { names.id(of: $0) }, payload: event.payload, names: &names, storage: storage,
                  digestedSnapshots: digestedSnapshots)
    }

    /// The ``snapshotFingerprints`` of a `viewmodel.change` with payload `payload`.
    public static func snapshotFingerprints(ofPayload payload: JSONValue, digested: Bool) -> SnapshotFingerprints {
        guard case .object(let members) = payload else {
            return SnapshotFingerprints(snapshot: nil, previous: nil, changed: [], digested: digested)
        }
        return SnapshotFingerprints(snapshot: members["snapshot"], previous: members["previous"],
                                    changed: (members["changed"]?.arrayValue ?? []).lazy.compactMap(\.stringValue), digested: digested)
    }

    /// An event from its envelope, with names already interned, and its payload, whose
    /// members are interned in `names` and whose lists go in `storage` (see
    /// ``init(_:session:names:storage:digestedSnapshots:)``). A `viewmodel.change`'s
    /// ``snapshotFingerprints`` are worked out unless given.
    public init(seq: UInt64, wallNanoseconds: Int64, monotonicNanoseconds: UInt64, session: Int32, sessionSeq: UInt64, kind: EventKind,
                cause: UInt64?, subject: NameID, screen: NameID?, parent: NameID?, payload: JSONValue, names: inout NameTable,
                storage: InternedEventStorage, digestedSnapshots: Bool = false, snapshotFingerprints: SnapshotFingerprints? = nil) {
        self.init(seq: seq, wallNanoseconds: wallNanoseconds, monotonicNanoseconds: monotonicNanoseconds, session: session, sessionSeq: sessionSeq,
                  kind: kind, cause: cause, subject: subject, screen: screen, parent: parent, member: nil, root: nil, content: nil, level: nil,
                  lists: nil, removedCount: -1, boundCount: -1, changedCount: -1, payloadIndex: -1, storage: storage,
                  snapshotFingerprints: kind == .viewModelChange
                      ? snapshotFingerprints ?? Self.snapshotFingerprints(ofPayload: payload, digested: digestedSnapshots) : nil)
        guard case .object(let members) = payload, !members.isEmpty else { return }
        if kind == .sessionStart { payloadIndex = storage.add(payload) }
        let slots = Self.payloadSlots(of: kind)
        guard !slots.isEmpty else { return }
        var removed: [JSONValue]?
        var bound: [JSONValue]?
        var changed: [JSONValue]?
        for (key, slot) in slots {
            guard let value = members[key] else { continue }
            switch slot {
            case .member: member = value.stringValue.map { names.id(of: $0) }
            case .root: root = value.stringValue.map { names.id(of: $0) }
            case .content: content = value.stringValue.map { names.id(of: $0) }
            case .removed: removed = value.arrayValue
            case .bound: bound = value.arrayValue
            case .changed: changed = value.arrayValue
            case .level: payloadLevel = value.intValue
            case .snapshot, .previous: break
            }
        }
        var ids: [NameID] = []
        func list(_ values: [JSONValue]?) -> Int32 {
            guard let values else { return -1 }
            var count: Int32 = 0
            for case .string(let value) in values {
                ids.append(names.id(of: value))
                count += 1
            }
            return count
        }
        removedCount = list(removed)
        boundCount = list(bound)
        changedCount = list(changed)
        if !ids.isEmpty {
            let room = storage.reserve(ids.count)
            room.initialize(from: ids, count: ids.count)
            lists = UnsafePointer(room)
        }
    }

    /// An event whose envelope and payload members (``payloadSlots(of:)``) a reader has
    /// already interned: `lists` points to `removed`, then `bound`, then `changed` in
    /// `storage`, each as long as its count says (-1: absent or not an array). `payloadIndex`
    /// is the index of a `session.start`'s whole payload in `storage`, -1 for other kinds.
    public init(seq: UInt64, wallNanoseconds: Int64, monotonicNanoseconds: UInt64, session: Int32, sessionSeq: UInt64, kind: EventKind,
                cause: UInt64?, subject: NameID, screen: NameID?, parent: NameID?, member: NameID?, root: NameID?, content: NameID?,
                level: Int64?, lists: UnsafePointer<NameID>?, removedCount: Int32, boundCount: Int32, changedCount: Int32,
                payloadIndex: Int32, storage: InternedEventStorage, snapshotFingerprints: SnapshotFingerprints?) {
        self.seq = seq
        self.wallNanoseconds = wallNanoseconds
        self.monotonicNanoseconds = monotonicNanoseconds
        self.session = session
        self.sessionSeq = sessionSeq
        self.kind = kind
        self.cause = cause
        self.subjectName = subject
        self.screenName = screen
        self.parentName = parent
        self.member = member
        self.memberKey = Self.memberKey(of: kind)
        self.root = root
        self.content = content
        self.payloadLevel = level
        self.lists = lists
        self.removedCount = removedCount
        self.boundCount = boundCount
        self.changedCount = changedCount
        self.payloadIndex = payloadIndex
        self.storage = Unmanaged.passUnretained(storage)
        self.snapshotFingerprints = snapshotFingerprints
    }

    /// Where each payload member the trackers read goes in an ``InternedEvent``.
    public enum PayloadSlot: Sendable, Equatable {
        /// The kind's one string member (``PayloadMember``): `stack`, `to`, `tabs`, `child`,
        /// `outcome`, `app` or `viewmodel`.
        case member
        case root
        case content
        /// String lists.
        case removed, bound, changed
        /// `screen.dismiss`'s `level`, an integer.
        case level
        /// `viewmodel.change`'s snapshot and the one before, read only for their
        /// ``snapshotFingerprints``.
        case snapshot, previous
    }

    /// The payload members of `kind` that the trackers read, and where each goes: the one
    /// definition of what an ``InternedEvent`` keeps, for ``init(_:session:names:digestedSnapshots:)``
    /// and for a journal reader that decodes these members alone. Empty for kinds whose
    /// payload nothing reads. (A `session.start` also keeps its whole payload.)
    public static func payloadSlots(of kind: EventKind) -> [(key: String, slot: PayloadSlot)] {
        switch kind {
        case .screenPush: SlotTables.push
        case .screenPresent, .windowRoot: SlotTables.shown
        case .screenPop: SlotTables.pop
        case .screenDismiss: SlotTables.dismiss
        case .tabSelect: SlotTables.tabSelect
        case .coordinatorCoordinate: SlotTables.coordinate
        case .screenReady: SlotTables.ready
        case .sessionStart: SlotTables.sessionStart
        case .viewModelChange: SlotTables.viewModelChange
        default: []
        }
    }

    /// The tables ``payloadSlots(of:)`` hands out, made once.
    private enum SlotTables {
        static let shown: [(key: String, slot: PayloadSlot)] = [("root", .root), ("content", .content), ("removed", .removed), ("bound", .bound)]
        static let push = [("stack", PayloadSlot.member)] + shown
        static let pop: [(key: String, slot: PayloadSlot)] = [("stack", .member)]
        static let dismiss: [(key: String, slot: PayloadSlot)] = [("to", .member), ("removed", .removed), ("level", .level)]
        static let tabSelect: [(key: String, slot: PayloadSlot)] = [("tabs", .member)]
        static let coordinate: [(key: String, slot: PayloadSlot)] = [("child", .member)]
        static let ready: [(key: String, slot: PayloadSlot)] = [("outcome", .member)]
        static let sessionStart: [(key: String, slot: PayloadSlot)] = [("app", .member)]
        static let viewModelChange: [(key: String, slot: PayloadSlot)] =
            [("viewmodel", .member), ("changed", .changed), ("snapshot", .snapshot), ("previous", .previous)]
    }

    /// Which ``PayloadMember`` the kind's ``PayloadSlot/member`` is.
    static func memberKey(of kind: EventKind) -> PayloadMember? {
        switch kind {
        case .screenPush, .screenPop: .stack
        case .screenDismiss: .to
        case .tabSelect: .tabs
        case .coordinatorCoordinate: .child
        case .screenReady: .outcome
        case .sessionStart: .app
        case .viewModelChange: .viewModel
        default: nil
        }
    }

    @inlinable
    public func payloadName(_ key: PayloadMember) -> NameID? {
        switch key {
        case .root: root
        case .content: content
        default: key == memberKey ? member : nil
        }
    }

    @inlinable
    public func payloadNames(_ key: PayloadMember) -> UnsafeBufferPointer<NameID>? {
        let start: Int32
        let count: Int32
        switch key {
        case .removed: (start, count) = (0, removedCount)
        case .bound: (start, count) = (max(removedCount, 0), boundCount)
        case .changed: (start, count) = (max(removedCount, 0) + max(boundCount, 0), changedCount)
        default: return nil
        }
        guard count >= 0 else { return nil }
        return UnsafeBufferPointer(start: count == 0 ? nil : lists.map { $0 + Int(start) }, count: Int(count))
    }
}
