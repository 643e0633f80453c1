@testable import NavlogAnalysis
import NavlogEvents
import NavlogJournal
import XCTest

final class ReportNamesTests: XCTestCase {
    /// A type asked for by name first (not through `type(of:)`) is added to the types and
    /// given back: `typeName(of:)` once subscripted the table of types from before the addition.
    func testATypeNameAskedForFirstIsAdded() {
        let names = ReportNames(options: ReportOptions())
        let detail = names.table.id(of: "Detail#1")
        let home = names.table.id(of: "Home#2")
        XCTAssertEqual(names.typeName(of: home), "Home")
        XCTAssertEqual(names.typeName(of: detail), "Detail")
        XCTAssertEqual(names.type(of: names.table.id(of: "Detail#7")), names.type(of: detail))
        XCTAssertEqual(names.typeName(of: names.table.id(of: "Settings")), "Settings")
    }

    /// A session whose only screen is its window's root (never pushed or presented, so no
    /// smell check asked for its type first), with a view-model change on it, is reported
    /// from events and from a journal alike. Both trapped before.
    func testASessionShowingOnlyItsRootScreen() throws {
        var script = SessionScript()
        script.root("Tabs#1", showing: "Home#1")
        script.wait(100)
        script.change("HomeViewModel#1", on: "Home#1", from: ["title": "a"], to: ["title": "b"])
        script.wait(100)
        script.end()
        let report = makeReport([script])
        XCTAssertEqual(report.screens.map(\.screen), ["Home"])
        XCTAssertEqual(report.churn.map(\.screen), ["Home"])

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("navlog-root-only-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory))
        for event in script.events { writer.record(event) }
        try writer.close()
        // The writer gives the events a run of its own; the rest is the same report.
        var fromJournal = try FlowReport.read(journals: [directory]).value
        XCTAssertEqual(fromJournal.summary.runs.count, 1)
        fromJournal.summary.runs = report.summary.runs
        XCTAssertEqual(fromJournal, report)
    }
}
