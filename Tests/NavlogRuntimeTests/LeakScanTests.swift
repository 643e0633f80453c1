import XCTest

@testable import NavlogEvents

/// Every kind of leak, found from hand-built event streams, and the look-alikes that are not
/// leaks.
final class LeakScanTests: XCTestCase {
    private func events(_ session: String, _ steps: [(EventKind, String, String?, JSONValue)]) -> [Event] {
        steps.enumerated().map { index, step in
            Event(wallNanoseconds: Int64(index) * 1_000_000, monotonicNanoseconds: UInt64(index) * 1_000_000, session: session,
                  sessionSeq: UInt64(index + 1), kind: step.0, subject: step.1, screen: step.2, payload: step.3)
        }
    }

    func testEachKindOfLeakIsFoundOnceAtTheEventThatShowsIt() {
        let stream = events("s-1", [
            (.sessionStart, "Session", nil, [:]),  // 1
            (.coordinatorStart, "A#1", nil, [:]),  // 2
            (.presenterInit, "P#1", nil, [:]),  // 3
            (.screenPush, "A#1", "S#1", ["bound": ["P#1"]]),  // 4
            (.viewModelChange, "P#1", "S#1", [:]),  // 5: S#1 is shown: fine
            (.screenPop, "A#1", "S#1", [:]),  // 6: A#1's last screen leaves; A#1 goes on
            (.viewModelChange, "P#1", "S#1", [:]),  // 7: a change after its screen left
            (.viewModelChange, "P#1", "S#1", [:]),  // 8: reported once per subject
            (.action, "Session", nil, [:]),  // 9: the next intent: A#1 has not finished
            (.coordinatorStart, "B#1", nil, [:]),  // 10
            (.coordinatorFinish, "B#1", nil, [:]),  // 11: never deallocated
            (.sessionEnd, "Session", nil, [:]),  // 12
        ])
        XCTAssertEqual(LeakDetector.leaks(in: stream), [
            .init(kind: .outlivedScreens, session: "s-1", subject: "A#1", screen: "S#1", sessionSeq: 6),
            .init(kind: .presenterOutlivedScreen, session: "s-1", subject: "P#1", screen: "S#1", sessionSeq: 6),
            .init(kind: .changeAfterDismiss, session: "s-1", subject: "P#1", screen: "S#1", sessionSeq: 7),
            .init(kind: .finishedButAlive, session: "s-1", subject: "B#1", screen: nil, sessionSeq: 11),
        ])
    }

    func testWhatLooksLikeALeakButIsNot() {
        let stream = events("s-2", [
            (.coordinatorStart, "C#1", nil, [:]),  // 1
            (.presenterInit, "Q#1", nil, [:]),  // 2
            (.screenPush, "C#1", "T#1", ["bound": ["Q#1"]]),  // 3
            (.screenPush, "C#1", "U#1", [:]),  // 4: C#1 owns two screens
            (.screenPop, "C#1", "U#1", [:]),  // 5: one is left
            (.action, "Session", nil, [:]),  // 6
            (.screenDismiss, "C#1", "T#1", ["removed": ["T#1"]]),  // 7: the last one leaves...
            (.coordinatorFinish, "C#1", nil, [:]),  // 8: ...and C#1 finishes before the next intent
            (.action, "Session", nil, [:]),  // 9
            (.presenterDeinit, "Q#1", nil, [:]),  // 10
            (.coordinatorDeinit, "C#1", nil, [:]),  // 11
            (.coordinatorStart, "D#1", nil, [:]),  // 12
            (.screenPush, "D#1", "T#1", [:]),  // 13: T#1 is shown again, now D#1's
            (.viewModelChange, "Q#1", "T#1", [:]),  // 14: so this change is fine
            (.windowRoot, "D#1", "Tabs#1", ["root": "V#1"]),  // 15: a container brings V#1: D#1 does not own it
            (.screenDismiss, "D#1", "V#1", [:]),  // 16: V#1 has no owner; D#1 still shows T#1
            (.deepLink, "Session", nil, [:]),  // 17
            (.sessionEnd, "Session", nil, [:]),  // 18
        ])
        XCTAssertEqual(LeakDetector.leaks(in: stream), [])
    }
    func testTheSinkFindsAsItGoesWhatTheDetectorFindsInTheKeptEvents() {
        let first = events("s-1", [
            (.sessionStart, "Session", nil, [:]),
            (.coordinatorStart, "A#1", nil, [:]),
            (.presenterInit, "P#1", nil, [:]),
            (.screenPush, "A#1", "S#1", ["bound": ["P#1"]]),
            (.screenPop, "A#1", "S#1", [:]),
            (.viewModelChange, "P#1", "S#1", [:]),
            (.action, "Session", nil, [:]),
            (.sessionEnd, "Session", nil, [:]),
        ])
        let second = events("s-2", [
            (.coordinatorStart, "B#1", nil, [:]),
            (.coordinatorFinish, "B#1", nil, [:]),
            (.presenterInit, "Q#1", nil, [:]),
            (.screenPush, "B#1", "T#1", ["bound": ["Q#1"]]),
            (.presenterDeinit, "Q#1", nil, [:]),
        ])
        // The sessions interleave, as they do in a journal.
        var interleaved: [Event] = []
        for index in 0..<max(first.count, second.count) {
            if index < second.count { interleaved.append(second[index]) }
            if index < first.count { interleaved.append(first[index]) }
        }
        let sink = LeakScanSink()
        interleaved.forEach(sink.record)
        let expected = LeakDetector.leaks(in: interleaved)
        XCTAssertEqual(expected.map(\.kind), [.finishedButAlive, .outlivedScreens, .presenterOutlivedScreen, .changeAfterDismiss])
        XCTAssertEqual(sink.leaks, expected)
        XCTAssertEqual(sink.leaks, expected, "asking again judges the same events the same way")
    }
}
