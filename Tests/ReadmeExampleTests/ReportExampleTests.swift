import Foundation
import NavlogAnalysis
import NavlogHost
import NavlogJournal
import NavlogTestSupport
import XCTest

/// The README's "Reports from your own program": what `navlog report` does, in three lines of a
/// program, over the journal the checkout example records.
final class ReportExampleTests: XCTestCase {
    /// The three lines, as the README shows them.
    static let readmeSnippet = """
        let analysis = try FlowReport.read(journals: [directory], options: ReportOptions())
        print(analysis.value.rendered(as: .text, width: 100))
        for gap in analysis.gaps { print("warning: \\(gap)") }
        """

    func testTheReadmeReportSnippetReadsAJournal() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try JournalWriter(configuration: JournalConfiguration(directory: directory))
        let session = try SessionCore(id: "s-1", app: checkout, parameters: try checkout.resolveParameters([:]), sink: journal)
        try session.perform(.action(element: "checkout", value: nil))
        session.end()
        try journal.close()

        let analysis = try FlowReport.read(journals: [directory], options: ReportOptions())
        let text = analysis.value.rendered(as: .text, width: 100)
        XCTAssertTrue(analysis.gaps.isEmpty)
        XCTAssertEqual(analysis.value.summary.sessions, 1)
        XCTAssertEqual(analysis.value.transitions.map { "\($0.from) → \($0.to)" }, ["Cart → Payment"])
        XCTAssertTrue(text.contains("Payment"), text)

        let readme = try Repository.text("README.md")
        XCTAssertTrue(readme.contains(Self.readmeSnippet), "README.md lost the report snippet:\n\(Self.readmeSnippet)")
    }
}
