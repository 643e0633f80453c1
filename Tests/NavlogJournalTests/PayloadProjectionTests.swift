import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

/// The interning reader decodes only the payload members the session trackers read, straight
/// from a block's bytes (``PayloadProjection``). Whatever the payloads hold, what it hands out
/// must be what ``InternedEvent/init(_:session:names:digestedSnapshots:)`` takes from the
/// values themselves.
final class PayloadProjectionTests: XCTestCase {
    /// Strings for names, with the ones that catch byte-level shortcuts: empty, non-ASCII,
    /// composed and decomposed (equal as strings, different as bytes), longer than 15 bytes.
    private let texts = ["Home#1", "", "é", "e\u{301}", "日本語のスタック", "NavigationStack#12345678901234", "Detail#2", "Detail#2"]

    /// A value where a name is expected: usually a string, sometimes anything else.
    private func name(_ generator: inout SplitMix64) -> JSONValue {
        switch generator.below(10) {
        case 0: return .int(Int64(generator.below(9)))
        case 1: return .null
        // An object large enough that a shredded payload splits it too.
        case 2: return .object(["inner": .string("a member long enough to be shredded as an object"), "n": 1])
        case 3: return .array([.string("in a list")])
        default: return .string(texts[generator.below(texts.count)])
        }
    }

    /// A value where a list of names is expected: usually a list, with other elements mixed in.
    private func list(_ generator: inout SplitMix64) -> JSONValue {
        switch generator.below(8) {
        case 0: return .string("not a list")
        case 1: return .object(["screens": .array([.string("Home#1")]), "padding": .string("so that it is split when it can be")])
        default:
            return .array((0..<generator.below(5)).map { _ in generator.below(4) == 0 ? [.int(3), .null, .array([]), .object(["x": 1])][generator.below(4)] : .string(texts[generator.below(texts.count)]) })
        }
    }

    private func snapshot(_ generator: inout SplitMix64) -> JSONValue {
        switch generator.below(6) {
        case 0: return .string("not an object")
        case 1: return .object([:])
        case 2: return .object(["value": .int(Int64(generator.below(3)))])
        default:
            var members: [String: JSONValue] = ["title": .string("Item \(generator.below(4))"), "isLoading": .bool(generator.below(2) == 0)]
            if generator.below(2) == 0 { members["detail"] = .object(["subtitle": .string("a nested object long enough to shred"), "count": .int(2)]) }
            if generator.below(2) == 0 { members["ratio"] = .double([1.0, 1.5, -0.0][generator.below(3)]) }
            if generator.below(3) == 0 { members["note"] = .null }
            return .object(members)
        }
    }

    /// A payload for `kind`: its members the trackers read, some left out, some of the wrong
    /// form, and others they do not read; sometimes padded so the shredder splits it.
    private func payload(_ kind: EventKind, _ generator: inout SplitMix64) -> JSONValue {
        if generator.below(12) == 0 { return [.null, .int(1), .string("x"), .object([:])][generator.below(4)] }
        var members: [String: JSONValue] = [:]
        for (key, slot) in InternedEvent.payloadSlots(of: kind) where generator.below(6) != 0 {
            switch slot {
            case .member, .root, .content: members[key] = name(&generator)
            case .removed, .bound: members[key] = list(&generator)
            case .changed:
                members[key] = generator.below(5) == 0 ? list(&generator) : .array([.string("title"), .string("title"), .string("ratio"), .string("missing")].filter { _ in generator.below(2) == 0 })
            case .level: members[key] = [.int(0), .int(2), .double(1.0), .double(1.5), .string("1"), .null][generator.below(6)]
            case .snapshot, .previous: members[key] = snapshot(&generator)
            }
        }
        if generator.below(2) == 0 { members["animated"] = .bool(true) }
        if generator.below(2) == 0 { members["padding"] = .string("enough bytes that the whole payload is shredded by member") }
        return .object(members)
    }

    private func makeEvents(count: Int, seed: UInt64) -> [Event] {
        var generator = SplitMix64(seed: seed)
        let kinds = EventKind.allKnown.filter { $0 != .journalDropped }
        var sessionSeqs = [UInt64](repeating: 0, count: 7)
        return (0..<count).map { index in
            let session = generator.below(7)
            sessionSeqs[session] += 1
            let kind = kinds[generator.below(kinds.count)]
            return Event(wallNanoseconds: 1_800_000_000_000_000_000 + Int64(index) * 1000, monotonicNanoseconds: UInt64(index) * 1000,
                         session: "s-\(session)", sessionSeq: sessionSeqs[session], kind: kind, subject: "Subject#\(generator.below(5))",
                         screen: generator.below(3) == 0 ? nil : texts[generator.below(texts.count)], payload: payload(kind, &generator))
        }
    }

    /// What the trackers can read of an interned event, with its names as strings.
    private func reading(_ event: InternedEvent, _ names: NameTable) -> String {
        var parts = ["\(event.seq) \(event.kind) \(names[event.subjectName]) \(event.screenName.map { names[$0] } ?? "-")"]
        for member in PayloadMember.allCases {
            if let name = event.payloadName(member) { parts.append("\(member)=\(names[name])") }
            if let list = event.payloadNames(member) { parts.append("\(member)=[\(list.map { names[$0] }.joined(separator: ","))]") }
        }
        if let level = event.payloadLevel { parts.append("level=\(level)") }
        if let fingerprints = event.snapshotFingerprints { parts.append("fingerprints=\(fingerprints.now),\(fingerprints.before)") }
        if let payload = event.payload { parts.append("payload=\(payload)") }
        return parts.joined(separator: " ")
    }

    func testProjectedPayloadsReadAsTheirValues() throws {
        let directory = makeTemporaryDirectory(self, name: name)
        let events = makeEvents(count: 6000, seed: 18)
        // Blocks of 500, so every block has events of every kind, and their shapes vary.
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, blockSize: 500))
        for event in events { writer.record(event) }
        try writer.close()

        let pages = JournalPrefetcher(interning: JournalReader(paths: [directory]), filter: EventFilter(), depth: 2)
        var names = NameTable()
        var interned: [InternedEvent] = []
        // The events point into their pages' storage: kept while they are read.
        var storages: [InternedEventStorage] = []
        while let page = try pages.nextInterned() {
            names.append(page.newNames)
            interned += page.events
            storages.append(page.storage)
        }
        XCTAssertEqual(interned.count, events.count)
        var expectedNames = NameTable()
        let expectedStorage = InternedEventStorage()
        for (event, got) in zip(numbered(events, run: ""), interned) {
            let expected = InternedEvent(event, session: 0, names: &expectedNames, storage: expectedStorage)
            XCTAssertEqual(reading(got, names), reading(expected, expectedNames), "seq \(event.seq), payload \(event.payload)")
        }
        let kindsWithMembers = Set(events.map(\.kind).filter { !InternedEvent.payloadSlots(of: $0).isEmpty })
        XCTAssertEqual(kindsWithMembers.count, 10, "the events cover every kind with members to read")
    }

    func testBothBlockFormatsProjectTheSame() throws {
        let events = makeEvents(count: 3000, seed: 5)
        var kindIDs: [EventKind: Int64] = [:]
        let stored = events.enumerated().map { index, event in
            let kind = kindIDs[event.kind] ?? Int64(kindIDs.count + 1)
            kindIDs[event.kind] = kind
            return StoredEvent(seq: UInt64(index + 1), wallNanoseconds: event.wallNanoseconds, monotonicNanoseconds: event.monotonicNanoseconds,
                               session: 1, kind: kind, sessionSeq: UInt64(index + 1), subject: Int64(index % 9 + 1), screen: 0, cause: nil,
                               parent: 0, payload: event.payload)
        }
        let kinds = Dictionary(uniqueKeysWithValues: kindIDs.map { ($1, $0) })
        let plan: (Int64) -> EventBlock.PayloadReading = { id in
            let slots = InternedEvent.payloadSlots(of: kinds[id]!)
            return slots.isEmpty ? .skipped : .projecting(PayloadProjection(slots))
        }
        var results: [[String]] = []
        for version: UInt8 in [1, 2] {
            var projector = PayloadProjector()
            _ = try EventBlock.decodeColumns(EventBlock.encode(stored, version: version), cache: DecodedValueCache(), plan: plan, projector: &projector)
            results.append(projector.events.map { event in
                func text(_ id: Int32) -> String { id < 0 ? "-" : projector.strings.string(id) }
                let lists = projector.lists[Int(event.listStart)...].prefix(Int(max(event.removedCount, 0) + max(event.boundCount, 0) + max(event.changedCount, 0)))
                return "\(event.isProjected) \(text(event.member)) \(text(event.root)) \(text(event.content)) \(event.level ?? -1) "
                    + "\(event.removedCount) \(event.boundCount) \(event.changedCount) \(lists.map(text)) \(String(describing: event.fingerprints))"
            })
        }
        XCTAssertEqual(results[0], results[1])
        XCTAssertTrue(results[1].contains { $0.hasPrefix("true") })
    }

    func testDamagedStreamsAreRefusedNotCrashedOn() throws {
        let events = makeEvents(count: 800, seed: 9)
        let stored = events.enumerated().map { index, event in
            StoredEvent(seq: UInt64(index + 1), wallNanoseconds: event.wallNanoseconds, monotonicNanoseconds: event.monotonicNanoseconds,
                        session: 1, kind: event.kind == .viewModelChange ? 1 : event.kind == .screenPush ? 2 : 3, sessionSeq: UInt64(index + 1),
                        subject: Int64(index % 9 + 1), screen: 0, cause: nil, parent: 0, payload: event.payload)
        }
        let plan: (Int64) -> EventBlock.PayloadReading = { id in
            .projecting(PayloadProjection(InternedEvent.payloadSlots(of: [1: EventKind.viewModelChange, 2: .screenPush][id] ?? .screenDismiss)))
        }
        let block = EventBlock.encode(stored)
        var generator = SplitMix64(seed: 3)
        var refused = 0
        for _ in 0..<400 {
            var damaged = block
            for _ in 0..<(1 + generator.below(3)) {
                let position = block.count / 3 + generator.below(block.count - block.count / 3)
                damaged[position] = UInt8(truncatingIfNeeded: generator.next())
            }
            do {
                var projector = PayloadProjector()
                _ = try EventBlock.decodeColumns(damaged, cache: DecodedValueCache(), plan: plan, projector: &projector)
            } catch {
                refused += 1
            }
        }
        XCTAssertGreaterThan(refused, 100, "most damage to the payload streams is noticed")
    }
}
