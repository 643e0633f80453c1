import Foundation
import NavlogTestSupport
import XCTest

/// The HTML report of a real explored journal, rendered by headless Chromium through Selenium
/// (`Tests/browser/check_report.py`): no two text labels of one SVG overlap, every SVG fits in
/// the viewport's width, and the console shows no error.
final class BrowserReportTests: XCTestCase {
    /// Writes the HTML report of `journal` with `arguments` and returns the checker's findings.
    private func check(journal: String, _ arguments: [String], in directory: URL) throws -> ProcessResult {
        let report = try Product.navlog.run(["report", journal, "-o", "html"] + arguments)
        XCTAssertEqual(report.status, 0, report.stderr)
        let page = directory.appendingPathComponent("report.html")
        try report.stdout.write(to: page, atomically: true, encoding: .utf8)
        return try Browser.runChecker("check_report.py", [page.path])
    }

    func testReportOfAnExploredJournalRendersCleanly() throws {
        try Browser.require()
        let directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
        let journal = directory.appendingPathComponent("journal").path
        let explore = try Product.navlog.run(["explore", "tabs", "--seed", "3", "--steps", "2000", "--sessions", "8", "--journal", journal])
        XCTAssertLessThanOrEqual(explore.status, 1, explore.stderr)
        let check = try check(journal: journal, ["--funnel", "Dashboard,Report", "--funnel", "Dashboard,Settings,Profile"], in: directory)
        XCTAssertEqual(check.status, 0, "the rendered report has problems:\n\(check.stdout)\(check.stderr)")
        XCTAssertEqual(check.stdout, "")
    }

    /// Four apps in one journal: 17 screens, four start screens, a loop, many labels to place.
    func testReportOfManyScreensRendersCleanly() throws {
        try Browser.require()
        let directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
        let journal = directory.appendingPathComponent("journal").path
        for app in ["tabs", "articles", "master-detail", "content-list"] {
            let explore = try Product.navlog.run(["explore", app, "--seed", "2", "--steps", "300", "--sessions", "4", "--journal", journal])
            XCTAssertLessThanOrEqual(explore.status, 1, explore.stderr)
        }
        let check = try check(journal: journal, ["--funnel", "Articles,ArticleDetail,Author"], in: directory)
        XCTAssertEqual(check.status, 0, "the rendered report has problems:\n\(check.stdout)\(check.stderr)")
        XCTAssertEqual(check.stdout, "")
    }
}
