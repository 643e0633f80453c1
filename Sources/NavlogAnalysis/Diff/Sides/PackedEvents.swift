import Foundation
import NavlogEvents
import NavlogJournal

/// The events of the packed sequences of a baseline file, all in one: NDJSON in which each
/// distinct event is written once, deflated (zlib format) and base64'd.
///
/// The lines of the NDJSON are, sequence after sequence, in order of the events:
/// - an event object as inline (`c`, `k`, `n`, `p`, `parent`, `s`, `screen`), except that `n`
///   is the step from the previous event's `n` in its sequence (from 0 at the start of each,
///   so mostly 1) and `c` is how far back the cause is (`n` minus the cause's `n`). The same
///   event later, in that session or another, then gives the same line. It becomes the next
///   distinct line, numbered from 0;
/// - or an integer `i`: distinct line `i` again.
///
/// Seeded walks repeat themselves: 724,313 events of 13,500 steps of the articles app are
/// 40,899 distinct lines, and pack into 1 MB where inline JSON takes 414 MB.
///
/// ```
/// {"k":"session.start","n":1,"p":{"app":"articles"},"s":"Session#1"}
/// {"c":1,"k":"coordinator.start","n":1,"p":{},"s":"ArticlesCoordinator#1"}
/// 1
/// ```
struct PackedEvents: Equatable {
    /// How many events there are, in all sequences (`count`).
    var count: Int
    /// The length of the NDJSON before deflating (`bytes`).
    var byteCount: Int
    /// The deflated NDJSON, base64'd (`zlib_base64`).
    var base64: String

    init(count: Int, byteCount: Int, base64: String) {
        self.count = count
        self.byteCount = byteCount
        self.base64 = base64
    }

    /// Packs the events of `sequences`, one after the other. `digest` is for tests, which make
    /// every line collide.
    init(_ sequences: [[NormalizedEvent]], digest: @escaping (NormalizedEvent) -> UInt64 = LineNumbers.digest) throws {
        var lines = LineNumbers(digest: digest)
        var text: [UInt8] = []
        for events in sequences {
            var previous: UInt64 = 0
            for event in events {
                let relative = PackedEvents.relative(event, after: previous)
                previous = event.sessionSeq
                if let number = lines.number(of: relative) {
                    text += String(number).utf8
                } else {
                    relative.write(to: &text)
                }
                text.append(UInt8(ascii: "\n"))
            }
        }
        count = sequences.reduce(0) { $0 + $1.count }
        byteCount = text.count
        // Level 5: a long session's lines are mostly distinct (its instances are), and level 6
        // took 40% longer than 5 there; 3 was faster still, but left the pack of a many-session
        // run nearly as large as its journal (docs/PERFORMANCE.md).
        base64 = Data(try Deflater(level: 5, format: .zlib).compressAll(text)).base64EncodedString()
    }

    /// Unpacks the events into sequences of `counts` events each; a damaged pack is an error
    /// saying where.
    func sequences(counts: [Int]) throws -> [[NormalizedEvent]] {
        guard counts.reduce(0, +) == count else { throw failure("the sequences hold \(counts.reduce(0, +)) packed events, not the \(count) of \"count\"") }
        let text = try inflated()
        var distinct: [NormalizedEvent] = []
        var sequences: [[NormalizedEvent]] = []
        var current: [NormalizedEvent] = []
        var remaining = counts[...]
        var previous: UInt64 = 0
        var lineNumber = 0
        var start = 0
        for (index, byte) in text.enumerated() where byte == UInt8(ascii: "\n") {
            let line = text[start..<index]
            start = index + 1
            lineNumber += 1
            while remaining.first == 0 {
                sequences.append([])
                remaining.removeFirst()
            }
            guard let expected = remaining.first else { throw failure("line \(lineNumber) is past the last sequence") }
            let relative: NormalizedEvent
            if line.first == UInt8(ascii: "{") {
                do {
                    relative = try NormalizedEvent(json: try JSONValue(parsing: Data(line)))
                } catch {
                    throw failure("line \(lineNumber): \(error)")
                }
                distinct.append(relative)
            } else if let number = PackedEvents.integer(line), number < distinct.count {
                relative = distinct[number]
            } else {
                throw failure("line \(lineNumber) is neither an event nor the number of one of the \(distinct.count) before it")
            }
            if current.isEmpty { current.reserveCapacity(expected) }
            let event = PackedEvents.absolute(relative, after: previous)
            previous = event.sessionSeq
            current.append(event)
            if current.count == expected {
                sequences.append(current)
                current = []
                previous = 0
                remaining.removeFirst()
            }
        }
        sequences += remaining.map { _ in [] }
        guard start == text.count, lineNumber == count else { throw failure("holds \(lineNumber) lines, not the \(count) of \"count\"") }
        return sequences
    }

    /// The NDJSON, checked against `bytes`.
    private func inflated() throws -> [UInt8] {
        guard let deflated = Data(base64Encoded: base64) else { throw failure("\"zlib_base64\" is not base64") }
        // Deflate expands at most 1032 to 1: a larger length is damage, not a reason to allocate.
        guard byteCount >= 0, byteCount <= deflated.count * 1032 + 64 else {
            throw failure("\"bytes\" \(byteCount) cannot be the length of \(deflated.count) deflated bytes")
        }
        do {
            return try Inflater(format: .zlib).decompressAll([UInt8](deflated), expectedCount: byteCount, context: "inflating \"zlib_base64\"")
        } catch {
            throw failure("\(error)")
        }
    }

    // MARK: - Lines

    /// The distinct lines written so far, found by a 64-bit digest of each: a table of 16-byte
    /// entries where one of whole events cost a cache miss per lookup, and a long session's
    /// instances make most of its lines distinct. A digest shared by different events (about
    /// 2⁻⁶⁴ a pair) is told apart by comparing them, and the later one kept aside.
    struct LineNumbers {
        private let digest: (NormalizedEvent) -> UInt64
        private var byDigest: [UInt64: Int] = [:]
        private var distinct: [NormalizedEvent] = []
        /// The later lines of a digest that more than one has.
        private var collided: [UInt64: [Int]] = [:]

        init(digest: @escaping (NormalizedEvent) -> UInt64) {
            self.digest = digest
        }

        /// The number of a line already written, or nil after numbering `event` as the next.
        mutating func number(of event: NormalizedEvent) -> Int? {
            let digest = digest(event)
            if let number = byDigest[digest] {
                if distinct[number] == event { return number }
                if let number = collided[digest]?.first(where: { distinct[$0] == event }) { return number }
                collided[digest, default: []].append(distinct.count)
            } else {
                byDigest[digest] = distinct.count
            }
            distinct.append(event)
            return nil
        }

        /// Every field of a relative event; the payload by its ``JSONFingerprint``.
        static func digest(_ event: NormalizedEvent) -> UInt64 {
            func optional(_ text: String?) -> UInt64 { text.map(JSONFingerprint.of) ?? JSONFingerprint.null }
            var state = JSONFingerprint.arrayStart(count: 7)
            state = JSONFingerprint.arrayStep(state, element: JSONFingerprint.of(event.payload))
            state = JSONFingerprint.arrayStep(state, element: event.sessionSeq)
            state = JSONFingerprint.arrayStep(state, element: event.cause.map { JSONFingerprint.of(Double($0)) } ?? JSONFingerprint.null)
            state = JSONFingerprint.arrayStep(state, element: JSONFingerprint.of(event.kind.rawValue))
            state = JSONFingerprint.arrayStep(state, element: JSONFingerprint.of(event.subject))
            state = JSONFingerprint.arrayStep(state, element: optional(event.screen))
            return JSONFingerprint.arrayStep(state, element: optional(event.parent))
        }
    }

    /// `event` with `n` the step from `previous` and `c` the distance back to the cause.
    /// Steps and distances wrap rather than trap, so any `n` and `c` come back as they were.
    private static func relative(_ event: NormalizedEvent, after previous: UInt64) -> NormalizedEvent {
        var relative = event
        relative.sessionSeq = event.sessionSeq &- previous
        relative.cause = event.cause.map { event.sessionSeq &- $0 }
        return relative
    }

    /// The inverse of ``relative(_:after:)``.
    private static func absolute(_ relative: NormalizedEvent, after previous: UInt64) -> NormalizedEvent {
        var event = relative
        event.sessionSeq = previous &+ relative.sessionSeq
        event.cause = relative.cause.map { event.sessionSeq &- $0 }
        return event
    }

    /// The decimal number `bytes` spells, if it spells one.
    private static func integer(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private func failure(_ reason: String) -> DiffBaseline.FormatError {
        DiffBaseline.FormatError(description: "packed events: \(reason)")
    }
}
