import Foundation
import NavlogEvents
import XCTest

/// Returns deterministic events of every known kind but `journal.dropped`, spread over `sessions` sessions.
public func makeEvents(count: Int, sessions: Int = 25, startWall: Int64 = 1_800_000_000_000_000_000) -> [Event] {
    let kinds = EventKind.allKnown.filter { $0 != .journalDropped }
    var sessionSeqs = [UInt64](repeating: 0, count: sessions)
    return (0..<count).map { index in
        let session = (index * 7 + index / 3) % sessions
        sessionSeqs[session] += 1
        let sessionSeq = sessionSeqs[session]
        let kind = kinds[index % kinds.count]
        var payload: JSONValue = ["index": .int(Int64(index))]
        if kind == .viewModelChange {
            payload = ["viewmodel": "MasterViewModel", "changed": ["title"],
                       "snapshot": ["title": .string("Item \(index % 11)"), "isLoading": .bool(index % 2 == 0),
                                    "ratio": .double(Double(index) / 8), "tags": ["a", "b"], "note": .null]]
        }
        return Event(
            wallNanoseconds: startWall + Int64(index) * 1_000_003, monotonicNanoseconds: 10_000 + UInt64(index) * 999_999,
            session: "s-\(session)", sessionSeq: sessionSeq, kind: kind, subject: "Detail\(kind.rawValue.count % 3)Coordinator#\(session % 4 + 1)",
            screen: index % 4 == 0 ? nil : "Detail#\(index % 5)", cause: sessionSeq > 1 && index % 3 != 0 ? sessionSeq - 1 : nil,
            parent: index % 5 == 0 ? "AppCoordinator#1" : nil, payload: payload)
    }
}

/// Returns `events` as a writer stores them: seq from `firstSeq` in order, run filled.
public func numbered(_ events: [Event], firstSeq: UInt64 = 1, run: String) -> [Event] {
    events.enumerated().map { offset, event in
        var event = event
        event.seq = firstSeq + UInt64(offset)
        event.run = run
        return event
    }
}

/// Asserts two event lists are equal, showing a labelled `-`/`+` diff of the first differences.
public func assertEventsEqual(_ actual: [Event], _ expected: [Event], _ message: String = "",
                       file: StaticString = #filePath, line: UInt = #line) {
    guard actual != expected else { return }
    var lines = ["\(message) events differ (Expected: -, Actual: +); expected \(expected.count), actual \(actual.count)"]
    var shown = 0
    for index in 0..<max(actual.count, expected.count) where shown < 5 {
        let left = index < expected.count ? expected[index] : nil
        let right = index < actual.count ? actual[index] : nil
        if left != right {
            lines.append("- [\(index)] \(left?.jsonLine() ?? "(none)")")
            lines.append("+ [\(index)] \(right?.jsonLine() ?? "(none)")")
            shown += 1
        }
    }
    XCTFail(lines.joined(separator: "\n"), file: file, line: line)
}

extension Array where Element == Event {
    /// Parses JSON lines, as `navlog show --output json` prints them, into events.
    public init(jsonLines text: String) throws {
        self = try text.split(separator: "\n").map { try Event(json: try JSONValue(parsing: String($0))) }
    }
}
