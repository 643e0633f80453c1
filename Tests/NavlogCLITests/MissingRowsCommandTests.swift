import Foundation
import XCTest

@testable import Journal

/// Rows deleted from a journal, through the CLI: `verify` exits 1 naming what is missing.
final class MissingRowsCommandTests: XCTestCase {
    private var directory: URL!
    /// Three runs of the content-list scenario: three files.
    private var journal: String!

    override func setUpWithError() throws {
        directory = try CLI.makeTemporaryDirectory(self)
        journal = directory.appendingPathComponent("journal").path
        for _ in 0..<3 {
            let run = try CLI.run(["run", "--script", "Config/scenarios/content-list.scenario", "--journal", journal])
            XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        }
        XCTAssertEqual(JournalDirectory.listFiles(in: journal).count, 3)
    }

    /// Copies the journal to `name` and runs `sql` on the copy's second file; returns the copy
    /// and that file.
    private func damagedCopy(_ name: String, _ sql: String) throws -> (journal: String, file: String) {
        let copy = directory.appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: journal, toPath: copy)
        let file = JournalDirectory.listFiles(in: copy)[1]
        let database = try SQLiteDatabase(path: file)
        try database.execute(sql)
        database.close()
        return (copy, file)
    }

    func testVerifyExitsOneNamingEachTableWithRowsMissing() throws {
        XCTAssertEqual(try CLI.run(["verify", journal]).status, 0)
        let expectations: [(table: String, problems: [String])] = [
            ("session", ["references from events to rows missing from table session: ids 1"]),
            ("run", ["session rows (ids 1) refer to rows missing from table run: ids 1"]),
            ("kind", ["references from events to rows missing from table kind: ids 1, 2, 3, 4, 5"]),
            ("string", ["references from events to rows missing from table string: ids 1, 2, 3, 4, 5"]),
            ("meta", ["table meta lacks format, created_at_ns, first_seq, run"]),
            ("migration", ["table migration holds 0 of the 1 schema steps the file's version counts"]),
            ("block", ["event index rows point at no block", "closed with", "seq gap not accounted for by any journal.dropped record"]),
            ("event", ["event index rows disagree"]),
        ]
        for expectation in expectations {
            let (copy, file) = try damagedCopy("no-\(expectation.table)", "DELETE FROM \(expectation.table)")
            let verified = try CLI.run(["verify", copy])
            XCTAssertEqual(verified.status, 1, "\(expectation.table): \(verified.stdout)")
            let problems = verified.stdout.split(separator: "\n").filter { $0.hasPrefix("problem: ") }
            XCTAssertEqual(problems.count, expectation.problems.count, "\(expectation.table): \(verified.stdout)")
            for (line, text) in zip(problems, expectation.problems) {
                XCTAssertTrue(line.hasPrefix("problem: \(file)") && line.contains(text), "\(expectation.table): \(line)")
            }
        }
    }
}
