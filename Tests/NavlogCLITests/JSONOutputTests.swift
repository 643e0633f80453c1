import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

/// `--output json` of `verify` and `demo`: the same findings and events as their text, in a
/// form a script can read.
final class JSONOutputTests: XCTestCase {
    private func object(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    func testVerifyJSONCountsWhatShowReads() throws {
        let directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
        let journal = directory.appendingPathComponent("journal").path
        let explore = try Product.navlog.run(["explore", "articles", "--steps", "20", "--journal", journal])
        XCTAssertLessThanOrEqual(explore.status, 1, explore.stderr)
        let result = try Product.navlog.run(["verify", journal, "-o", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try object(result.stdout)
        let files = try XCTUnwrap(report["files"] as? [String])
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: journal).filter { $0.hasSuffix(".navlog") }
        XCTAssertEqual(files.map { URL(fileURLWithPath: $0).lastPathComponent }.sorted(), onDisk.sorted())
        let shown = try Product.navlog.run(["show", journal, "-o", "json"]).stdout.split(separator: "\n").count
        XCTAssertGreaterThan(shown, 0)
        XCTAssertEqual(report["readable_events"] as? Int, shown)
        XCTAssertEqual((report["problems"] as? [Any])?.count, 0)
    }

    func testVerifyJSONHoldsTheProblemsTheTextPrints() throws {
        let directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
        let garbage = directory.appendingPathComponent("navlog-0000000000000001-20261201T000000Z.navlog")
        try Data(repeating: 0x5A, count: 10_000).write(to: garbage)
        let text = try Product.navlog.run(["verify", directory.path])
        let json = try Product.navlog.run(["verify", directory.path, "--output", "json"])
        XCTAssertEqual(text.status, 1)
        XCTAssertEqual(json.status, 1)
        let problems = try XCTUnwrap(try object(json.stdout)["problems"] as? [[String: Any]])
        XCTAssertFalse(problems.isEmpty)
        // The text's `problem:` lines, rebuilt from the JSON fields.
        let rebuilt = problems.map { problem -> String in
            let file = problem["file"] as? String ?? "?"
            let range = (problem["seq_first"] as? Int).map { " (seq \($0)...\(problem["seq_last"] as? Int ?? -1))" } ?? ""
            return "problem: \(file)\(range): \(problem["message"] as? String ?? "?")"
        }
        XCTAssertEqual(rebuilt, text.stdout.split(separator: "\n").filter { $0.hasPrefix("problem: ") }.map(String.init))
        XCTAssertTrue(rebuilt.allSatisfy { $0.hasPrefix("problem: \(garbage.path)") }, "\(rebuilt)")
    }

    func testDemoJSONIsTheEventsOfItsText() throws {
        let text = try Product.navlog.run(["demo"])
        let json = try Product.navlog.run(["demo", "-o", "json"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(json.status, 0, json.stderr)
        let events = try [Event](jsonLines: json.stdout)
        XCTAssertEqual(events.count, text.stdout.split(separator: "\n").count)
        XCTAssertEqual(events.first?.kind, .sessionStart)
        XCTAssertEqual(events.last?.kind, .sessionEnd)
        XCTAssertEqual(Set(events.map(\.session)), ["s-1"])
        XCTAssertEqual(events.map(\.sessionSeq), Array(1...UInt64(events.count)))
        // Each text line reads `SESSION SEQ KIND SUBJECT …`.
        let columns = text.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).prefix(4).map(String.init) }
        XCTAssertEqual(events.map { [$0.session, String($0.sessionSeq), $0.kind.rawValue, $0.subject] }, columns)
        let pushed = events.filter { $0.kind == .screenPush }.compactMap(\.screen)
        XCTAssertEqual(pushed, ["Master#1", "Detail#1"], "the script opens on Master and taps through to Detail")
    }
}
