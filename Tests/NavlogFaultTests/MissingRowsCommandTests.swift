import Foundation
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

/// Rows deleted from a journal, through the CLI: `verify` exits 1 naming what is missing, and
/// every command that reads journals produces its output from what is there, warns on stderr
/// (one line naming the file and the seqs missing without a journal.dropped record) and
/// exits 1.
final class MissingRowsCommandTests: XCTestCase {
    private var directory: URL!
    /// Three runs of the content-list scenario: three files.
    private var journal: String!

    override func setUpWithError() throws {
        directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
        journal = directory.appendingPathComponent("journal").path
        for _ in 0..<3 {
            let run = try Product.navlog.run(["run", "--script", "Config/scenarios/content-list.scenario", "--journal", journal])
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
        XCTAssertEqual(try Product.navlog.run(["verify", journal]).status, 0)
        let expectations: [(table: String, problems: [String])] = [
            ("session", ["references from events to rows missing from table session: ids 1"]),
            ("run", ["session rows (ids 1) refer to rows missing from table run: ids 1"]),
            ("kind", ["references from events to rows missing from table kind: ids 1, 2, 3, 4, 5"]),
            ("string", ["references from events to rows missing from table string: ids 1, 2, 3, 4, 5"]),
            ("meta", ["table meta lacks format, created_at_ns, first_seq, run"]),
            ("migration", ["table migration holds 0 of the 3 schema steps the file's version counts"]),
            ("block", ["event index rows point at no block", "closed with", "seq gap not accounted for by any journal.dropped record"]),
            ("event", ["event index rows disagree"]),
        ]
        for expectation in expectations {
            let (copy, file) = try damagedCopy("no-\(expectation.table)", "DELETE FROM \(expectation.table)")
            let verified = try Product.navlog.run(["verify", copy])
            XCTAssertEqual(verified.status, 1, "\(expectation.table): \(verified.stdout)")
            let problems = verified.stdout.split(separator: "\n").filter { $0.hasPrefix("problem: ") }
            XCTAssertEqual(problems.count, expectation.problems.count, "\(expectation.table): \(verified.stdout)")
            for (line, text) in zip(problems, expectation.problems) {
                XCTAssertTrue(line.hasPrefix("problem: \(file)") && line.contains(text), "\(expectation.table): \(line)")
            }
        }
    }

    func testEveryReaderWarnsOfSeqsMissingWithoutARecordAndExitsOne() throws {
        let intact = directory.appendingPathComponent("intact").path
        try FileManager.default.copyItem(atPath: journal, toPath: intact)
        let (damaged, file) = try damagedCopy("damaged", "DELETE FROM block")
        let reader = try JournalFile.openForReading(path: JournalDirectory.listFiles(in: intact)[1])
        let seqs = try XCTUnwrap(try reader.seqRange())
        reader.close()
        let gap = "\(file): seq \(seqs.lowerBound)...\(seqs.upperBound) (\(seqs.count) events) missing, and no journal.dropped record accounts for them"

        let baseline = directory.appendingPathComponent("baseline.json").path
        let commands: [(name: String, arguments: [String])] = [
            ("show", ["show", damaged]),
            ("tail", ["tail", damaged]),
            ("report", ["report", damaged]),
            ("export", ["export", "--format", "otlp-json", damaged]),
            ("diff", ["diff", intact, damaged]),
            ("baseline save", ["baseline", "save", "--journal", damaged, "--output", baseline]),
        ]
        for command in commands {
            let result = try Product.navlog.run(command.arguments)
            XCTAssertEqual(result.status, 1, "\(command.name): \(result.stderr)")
            XCTAssertEqual(result.stderr, "navlog \(command.name): warning: \(gap)\n", command.name)
            XCTAssertFalse(result.stdout.isEmpty, "\(command.name) still prints what it read")
            let clean = try Product.navlog.run(command.arguments.map { $0 == damaged ? intact : $0 })
            XCTAssertEqual(clean.status, 0, "\(command.name) on the intact journal: \(clean.stderr)")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: baseline), "the baseline is saved all the same")
    }
}
