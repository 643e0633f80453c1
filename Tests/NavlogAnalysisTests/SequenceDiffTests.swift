@testable import NavlogAnalysis
import NavlogEvents
import NavlogRuntime
import XCTest

/// The exact comparison's pieces: normalization, hunks with context, snapshot fields, and
/// navigation steps.
final class SequenceDiffTests: XCTestCase {
    private func event(_ n: UInt64, _ kind: EventKind, _ subject: String, screen: String? = nil, cause: UInt64? = nil, payload: JSONValue = [:], wall: Int64 = 0) -> NormalizedEvent {
        NormalizedEvent(Event(seq: n + 100, wallNanoseconds: wall, monotonicNanoseconds: UInt64(wall), run: "r-\(wall)", session: "s-1", sessionSeq: n, kind: kind, subject: subject, screen: screen, cause: cause, payload: payload))
    }

    func testNormalizationDropsTimesRunsAndIgnoredFields() {
        let payload: JSONValue = ["parameters": ["latency_ms": 300, "style": "push"], "elapsed_ns": 5, "time": "x"]
        let a = NormalizedEvent(Event(seq: 1, wallNanoseconds: 1, monotonicNanoseconds: 1, run: "r-1", session: "s-1", sessionSeq: 1, kind: .sessionStart, subject: "Session#1", payload: payload), ignoring: [["parameters", "latency_ms"]])
        let b = NormalizedEvent(Event(seq: 9, wallNanoseconds: 7, monotonicNanoseconds: 7, run: "r-2", session: "s-1", sessionSeq: 1, kind: .sessionStart, subject: "Session#1", payload: payload), ignoring: [["parameters", "latency_ms"]])
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.payload, ["parameters": ["style": "push"]])
    }

    func testHunksKeepContextAndShowChangedSnapshotFields() {
        let before: JSONValue = ["viewmodel": "CartViewModel", "changed": ["total"], "snapshot": ["total": 10, "items": 1]]
        let after: JSONValue = ["viewmodel": "CartViewModel", "changed": ["total"], "snapshot": ["total": 12, "items": 1]]
        let common = (1...6).map { event($0, .action, "Cart#1", screen: "Cart#1", payload: ["element": .string("e\($0)")]) }
        let base = common + [event(7, .viewModelChange, "CartPresenter#1", screen: "Cart#1", cause: 6, payload: before)]
        let candidate = common + [event(7, .viewModelChange, "CartPresenter#1", screen: "Cart#1", cause: 6, payload: after)]
        let diff = SequenceDiff(base: base, candidate: candidate, context: 2)
        XCTAssertEqual(diff.hunks.map(\.header), ["@@ -5,3 +5,3 @@"])
        XCTAssertEqual(diff.hunks.first?.lines, [
            "  5 action Cart#1 element=e5",
            "  6 action Cart#1 element=e6",
            "- 7 viewmodel.change CartPresenter#1 [Cart#1] ←6 CartViewModel changed=total",
            "+ 7 viewmodel.change CartPresenter#1 [Cart#1] ←6 CartViewModel changed=total",
            "      - CartViewModel.total: 10",
            "      + CartViewModel.total: 12",
        ])
        XCTAssertTrue(SequenceDiff(base: base, candidate: base).isEmpty)
    }

    func testNavigationStepsNameAPushThatBecameAPresent() {
        let base = [
            event(1, .screenPush, "Root#1", screen: "Master#1", payload: ["stack": "Nav#1"]),
            event(2, .windowRoot, "Root#1", screen: "Master#1", payload: ["root": "Nav#1"]),
            event(3, .screenPush, "Detail#1", screen: "Detail#1", cause: 2, payload: ["stack": "Nav#1"]),
        ]
        let candidate = Array(base.prefix(2)) + [
            event(3, .screenPush, "Detail#1", screen: "Detail#1", cause: 2, payload: ["stack": "Nav#2"]),
            event(4, .screenPresent, "Detail#1", screen: "Detail#1", cause: 2, payload: ["content": "Nav#2", "style": "sheet"]),
        ]
        XCTAssertEqual(
            NavigationStep.changes(from: NavigationStep.steps(in: base), to: NavigationStep.steps(in: candidate)),
            ["Master → Detail: screen.push became screen.present style=sheet"]
        )
    }
}
