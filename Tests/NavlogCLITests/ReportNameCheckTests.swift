import Foundation
import NavlogTestSupport
import XCTest

/// `navlog report` warns on stderr about each app or screen it was given that no session read
/// shows (a typo otherwise gives an empty report without a word), and exits 1 for them with
/// `--strict`; the report on stdout is the same either way.
final class ReportNameCheckTests: XCTestCase {
    private var journal: String!
    /// The screen types the journal shows, from its `screen.push` events: computed here, not by
    /// the report.
    private var pushedScreens: [String] = []

    override func setUpWithError() throws {
        journal = URL(fileURLWithPath: makeTemporaryDirectory(self)).appendingPathComponent("journal").path
        let explore = try Product.navlog.run(["explore", "articles", "--seed", "1", "--steps", "30", "--journal", journal])
        XCTAssertLessThanOrEqual(explore.status, 1, explore.stderr)
        let show = try Product.navlog.run(["show", journal, "-o", "json"])
        XCTAssertEqual(show.status, 0, show.stderr)
        var screens: Set<String> = []
        for line in show.stdout.split(separator: "\n") {
            let event = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if event["kind"] as? String == "screen.push", let screen = event["screen"] as? String {
                screens.insert(String(screen.prefix { $0 != "#" }))
            }
        }
        pushedScreens = screens.sorted()
        XCTAssertGreaterThanOrEqual(pushedScreens.count, 2, "the walk should push at least two screen types")
    }

    private func report(_ arguments: [String]) throws -> ProcessResult {
        try Product.navlog.run(["report", journal] + arguments)
    }

    func testUnseenScreensAreWarnedAboutOneLineEach() throws {
        let arguments = ["--funnel", "Nope,Zilch", "--from", "Nope", "--to", pushedScreens[0], "--ending", "Gone"]
        let result = try report(arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, """
            navlog report: warning: --funnel names screen 'Nope', which no session read shows
            navlog report: warning: --funnel names screen 'Zilch', which no session read shows
            navlog report: warning: --from names screen 'Nope', which no session read shows
            navlog report: warning: --ending names screen 'Gone', which no session read shows

            """)
        let strict = try report(arguments + ["--strict"])
        XCTAssertEqual(strict.status, 1)
        XCTAssertEqual(strict.stderr, result.stderr)
        XCTAssertEqual(strict.stdout, result.stdout, "--strict changes the exit code, not the report")
    }

    func testUnseenAppIsWarnedAbout() throws {
        let result = try report(["--app", "nosuch", "--strict", "-o", "json"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "navlog report: warning: --app names app 'nosuch', which no session read belongs to\n")
        let other = try report(["--app", "tabs"])
        XCTAssertEqual(other.stderr, "navlog report: warning: --app names app 'tabs', which no session read belongs to\n")
    }

    func testNamesSeenGiveNoWarning() throws {
        let funnel = pushedScreens.joined(separator: ",")
        let result = try report(["--app", "articles", "--funnel", "seen=\(funnel)", "--from", pushedScreens[1], "--to", pushedScreens[0],
                                 "--ending", pushedScreens[1], "--strict"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
    }

    func testStrictIsInTheHelp() throws {
        let help = try Product.navlog.run(["report", "--help"])
        XCTAssertTrue(help.stdout.contains(
            "  --strict                  Exit 1 when --app, --funnel, --from, --to or --ending names something no session read shows.\n"
        ), help.stdout)
    }
}
