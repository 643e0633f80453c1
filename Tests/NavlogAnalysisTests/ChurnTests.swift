@testable import NavlogAnalysis
import NavlogEvents
import XCTest

final class ChurnTests: XCTestCase {
    func testRevertedNonRenderedAndHiddenChanges() throws {
        var script = SessionScript()
        script.launch()
        let presenter = "HomePresenter#1"
        let s0: [String: JSONValue] = ["loading": true, "cursor": 0, "items": []]
        var s1 = s0
        s1["loading"] = false
        var s2 = s0
        s2["cursor"] = 1
        var s3 = s0
        s3["items"] = ["a"]
        var s4 = s3
        s4["items"] = ["a", "b"]
        script.change(presenter, on: "Home#1", from: s0, to: s1)  // c1
        script.change(presenter, on: "Home#1", from: s1, to: s0)  // c2: back to s0, so c1 and c2 are reverted
        script.change(presenter, on: "Home#1", from: s0, to: s2)  // c3: cursor only, not rendered
        script.change(presenter, on: "Home#1", from: s2, to: s0)  // c4: not rendered; its loop holds no rendered change
        script.change(presenter, on: "Home#1", from: s0, to: s3)  // c5: a real change
        let tap = script.action("detail", on: "Home#1")
        script.push("Detail#1", cause: tap)
        script.change(presenter, on: "Home#1", from: s3, to: s4)  // c6: while Detail is visible
        script.pop("Detail#1", to: "Home#1", by: "user_back")
        script.change(presenter, on: "Home#1", from: s4, to: s3)  // c7: a new visit, so not a revert of c6
        script.end()

        let report = makeReport([script], options: ReportOptions(nonRenderedFields: ["HomeViewModel.cursor"]))
        let home = try XCTUnwrap(report.churn.first)
        XCTAssertEqual(report.churn.count, 1)
        XCTAssertEqual(home.screen, "Home")
        XCTAssertEqual(home.visits, 2)
        XCTAssertEqual(home.changes, 7)
        XCTAssertEqual(home.changesPerVisit, 3.5)
        XCTAssertEqual(home.reverted, 2)
        XCTAssertEqual(home.nonRendered, 2)
        XCTAssertEqual(home.ineffective, 4)
        XCTAssertEqual(home.hidden, 1)
    }

    func testFieldNamesWithoutATypeMatchEveryViewModel() {
        let options = ReportOptions(nonRenderedFields: ["cursor"])
        XCTAssertTrue(options.isNonRendered(field: "cursor", viewModel: "AnyViewModel"))
        XCTAssertFalse(options.isNonRendered(field: "title", viewModel: "AnyViewModel"))
    }

    func testPreviousSnapshotIsRebuiltFromTheChange() {
        let payload: JSONValue = [
            "snapshot": ["a": 2, "b": "x", "c": true], "changed": ["a", "c"], "previous": ["a": 1, "c": nil],
        ]
        // a goes back to 1; c was absent (written as null), so it is removed.
        XCTAssertEqual(previousSnapshot(of: payload), ["a": 1, "b": "x"])
    }

    func testFingerprintsTellSnapshotsApartAndRebuildThePreviousOne() {
        let payloads: [JSONValue] = [
            ["snapshot": ["a": 2, "b": "x", "c": true], "changed": ["a", "c", "a"], "previous": ["a": 1, "c": nil]],
            ["snapshot": ["a": 2, "b": "x"], "changed": ["z"], "previous": ["z": "new"]],
            ["snapshot": ["items": ["é", "e\u{301}", 1.5], "n": 3], "changed": ["n"], "previous": ["n": 2.0]],
            ["snapshot": "plain", "changed": [], "previous": ["value": "before"]],
        ]
        for payload in payloads {
            let fields = payload["changed"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let (now, before) = ChurnTracker.fingerprints(of: payload, changed: fields, form: .values)
            XCTAssertEqual(now, JSONFingerprint.of(payload["snapshot"]!), "\(payload)")
            XCTAssertEqual(before(), JSONFingerprint.of(previousSnapshot(of: payload)), "\(payload)")
            // The digests the journal hands the report give the same two fingerprints.
            let (digestNow, digestBefore) = ChurnTracker.fingerprints(of: digested(payload), changed: fields, form: .digests)
            XCTAssertEqual(digestNow, now, "\(payload)")
            XCTAssertEqual(digestBefore(), before(), "\(payload)")
        }
        // A change without a snapshot or previous values counts them as null either way.
        for payload: JSONValue in [["changed": ["a"]], ["snapshot": ["a": 1], "changed": ["a"]]] {
            let (now, before) = ChurnTracker.fingerprints(of: payload, changed: ["a"], form: .values)
            let (digestNow, digestBefore) = ChurnTracker.fingerprints(of: digested(payload), changed: ["a"], form: .digests)
            XCTAssertEqual(digestNow, now, "\(payload)")
            XCTAssertEqual(digestBefore(), before(), "\(payload)")
        }
        // Equal values (as JSONValue's == has them) share a fingerprint; others differ.
        XCTAssertEqual(JSONFingerprint.of(["n": 3, "s": "é"]), JSONFingerprint.of(["s": "e\u{301}", "n": 3.0]))
        XCTAssertEqual(JSONFingerprint.of(0.0), JSONFingerprint.of(-0.0))
        let distinct: [JSONValue] = [
            .null, false, true, 0, 1, -1, 1.5, "", "a", "ab", "abcdefgh", "abcdefghi", [], [1], [1, 2], [2, 1],
            [:], ["a": 1], ["a": 2], ["b": 1], ["a": 1, "b": 2], ["a": [1]], [["a": 1]], ["ab": "c"], ["a": "bc"],
        ]
        XCTAssertEqual(Set(distinct.map { JSONFingerprint.of($0) }).count, distinct.count)
    }

    /// `payload` as the journal reader hands it to the report (``ReportBuilder/digestibleMembers``).
    private func digested(_ payload: JSONValue) -> JSONValue {
        guard case .object(var members) = payload else { return payload }
        for name in ReportBuilder.digestibleMembers[.viewModelChange] ?? [] {
            if let member = members[name] { members[name] = JSONFingerprint.digest(member) }
        }
        return .object(members)
    }

    /// The snapshot before a change, rebuilt in full: the definition the churn tracker's
    /// incremental fingerprint must agree with.
    private func previousSnapshot(of payload: JSONValue) -> JSONValue {
        let previous = payload["previous"]?.objectValue ?? [:]
        guard case .object(var members) = payload["snapshot"] ?? .null else {
            return previous["value"] ?? .null
        }
        for field in payload["changed"]?.arrayValue?.compactMap(\.stringValue) ?? [] {
            // The recorder writes `null` for a field that was absent, which encoders omit.
            if let old = previous[field], old != .null {
                members[field] = old
            } else {
                members[field] = nil
            }
        }
        return .object(members)
    }
}
