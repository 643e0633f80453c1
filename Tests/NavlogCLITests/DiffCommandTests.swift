import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

/// `navlog diff` and `navlog baseline save` end to end, on journals recorded from the seed
/// scenarios by the built binary.
final class DiffCommandTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
    }

    /// Records `script` into a fresh journal named `name` and returns its path.
    @discardableResult
    private func record(_ name: String, script: String = "Config/scenarios/master-detail.scenario", parameters: [String] = [], runs: Int = 1, expectedStatus: Int32 = 0) throws -> String {
        let journal = directory.appendingPathComponent(name).path
        for _ in 0..<runs {
            let result = try Product.navlog.run(["run", "--script", script, "--journal", journal] + parameters.flatMap { ["--param", $0] })
            XCTAssertEqual(result.status, expectedStatus, result.stderr)
        }
        return journal
    }

    private func json(_ text: String) throws -> JSONValue {
        try JSONValue(parsing: text)
    }

    // MARK: - Exact

    func testTheSameScenarioRunTwiceExitsZeroWithNothingFlagged() throws {
        let base = try record("base"), candidate = try record("candidate")
        let result = try Product.navlog.run(["diff", base, candidate])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertTrue(result.stdout.hasPrefix("navlog diff: no regression (0 failed, "), result.stdout)
        XCTAssertTrue(result.stdout.contains("  ok   master-detail s-1: identical event sequence\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("\nStructural: no change\n"), result.stdout)
        XCTAssertFalse(result.stdout.contains("FAIL"), result.stdout)
        XCTAssertFalse(result.stdout.contains("warn"), result.stdout)
    }

    func testMasterDetailSwitchedToModalExitsOneNamingTheTransitionAndTheStyle() throws {
        let base = try record("push")
        // The scenario expects a stack of Master and Detail, so the modal run stops there (exit 1).
        let candidate = try record("modal", parameters: ["detail_style=modal"], expectedStatus: 1)
        let result = try Product.navlog.run(["diff", "--base", base, "--candidate", candidate])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        let lines = result.stdout.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let expected = [
            "FAIL master-detail s-1: event sequence changed: 25 removed, 13 added",
            "Master → Detail: screen.push became screen.present style=sheet",
            #"- 1 session.start Session#1 app=master-detail parameters={"detail_style":"push","now":1796119200} scenario=master-detail"#,
            #"+ 1 session.start Session#1 app=master-detail parameters={"detail_style":"modal","now":1796119200} scenario=master-detail"#,
            #"- 13 screen.push DetailCoordinator#1 [Detail#1] ←11 bound=["DetailPresenter#1"] depth=2 stack=MasterNavigation#1"#,
            #"+ 14 screen.present DetailCoordinator#1 [Detail#1] ←11 content=DetailNavigation#1 level=1 over=Master#1 style=sheet"#,
            "12 presenter.init DetailPresenter#1 ←11 DetailViewModel",
            "FAIL new dead end: Detail: 1 sessions end on it, none in the base",
            "FAIL unreachable screen: Share can no longer be reached from Master (was: Master → Detail → Share)",
        ]
        for line in expected { XCTAssertTrue(lines.contains(line), "missing line: \(line)\n\(result.stdout)") }
    }

    /// On a terminal (script(1) gives the binary one), FAIL is red and the exact diff's lines red
    /// and green; the text is otherwise the piped output, escape sequences aside. NO_COLOR and
    /// TERM=dumb turn the colour off.
    func testDiffIsColouredOnATerminalUnlessNoColorOrADumbTerminal() throws {
        let base = try record("push")
        let candidate = try record("modal", parameters: ["detail_style=modal"], expectedStatus: 1)
        let piped = try Product.navlog.run(["diff", base, candidate])
        XCTAssertEqual(piped.status, 1, piped.stderr)
        XCTAssertFalse(piped.stdout.contains("\u{1B}"), "no colour into a pipe")
        func onTerminal(_ environment: [String: String]) throws -> String {
            try runOnTerminal([Product.navlog.path, "diff", base, candidate], environment: environment).output
        }
        let coloured = try onTerminal([:])
        XCTAssertTrue(coloured.contains("\u{1B}[1;31mFAIL\u{1B}[0m master-detail s-1: event sequence changed"), coloured)
        XCTAssertTrue(coloured.contains("\u{1B}[1;31mnavlog diff: REGRESSION"), coloured)
        XCTAssertTrue(coloured.contains("\u{1B}[31m- 13 screen.push DetailCoordinator#1"), coloured)
        XCTAssertTrue(coloured.contains("\u{1B}[32m+ 14 screen.present DetailCoordinator#1"), coloured)
        XCTAssertTrue(coloured.contains("\u{1B}[36m@@ "), coloured)
        let stripped = coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        XCTAssertEqual(stripped, piped.stdout)
        for environment in [["NO_COLOR": "1"], ["TERM": "dumb"]] {
            let plain = try onTerminal(environment)
            XCTAssertFalse(plain.contains("\u{1B}"), "\(environment): \(plain)")
            XCTAssertEqual(plain, piped.stdout)
        }
    }

    func testChangedViewModelFieldsAreShownFieldByField() throws {
        let base = try record("ana")
        let script = directory.appendingPathComponent("master-detail.scenario")
        let text = try String(contentsOf: Repository.root.appendingPathComponent("Config/scenarios/master-detail.scenario"), encoding: .utf8)
        try text.replacingOccurrences(of: "ana@example.com", with: "bo@example.com").write(to: script, atomically: true, encoding: .utf8)
        let candidate = try record("bo", script: script.path)
        let result = try Product.navlog.run(["diff", base, candidate, "--context", "0"])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("""
                   - 19 action Share#1 ←1 element=share-recipient role=text_field value=ana@example.com
                   - 20 viewmodel.change SharePresenter#1 [Share#1] ←19 ShareViewModel changed=recipient
                   + 19 action Share#1 ←1 element=share-recipient role=text_field value=bo@example.com
                   + 20 viewmodel.change SharePresenter#1 [Share#1] ←19 ShareViewModel changed=recipient
                         - ShareViewModel.recipient: "ana@example.com"
                         + ShareViewModel.recipient: "bo@example.com"
                   @@ -22,2 +22,2 @@
            """), result.stdout)
    }

    // MARK: - Statistical

    func testArticlesWithAddedLatencyFlagDwellAndTimeToConvertButTinyNoiseIsNot() throws {
        let script = directory.appendingPathComponent("articles.scenario")
        try """
            app articles
            expect screen Articles
            wait
            expect no-text "Loading"
            tap article-viper-model-layer
            expect screen ArticleDetail
            wait 4s
            tap open-author
            expect screen Author
            wait 2s
            """.write(to: script, atomically: true, encoding: .utf8)
        // Ten runs a side: the smallest p-value of seven against seven (2 / 3432), times the
        // dozen-odd metrics Holm corrects it with, is not below alpha 0.01 (docs/DIFF.md).
        let base = try record("base", script: script.path, parameters: ["latency_ms=300"], runs: 10)
        let slow = try record("slow", script: script.path, parameters: ["latency_ms=600"], runs: 10)
        let noisy = try record("noisy", script: script.path, parameters: ["latency_ms=302"], runs: 10)
        let options = ["--ignore-field", "parameters.latency_ms", "--funnel", "read=Articles,ArticleDetail,Author", "-o", "json"]

        let regressed = try Product.navlog.run(["diff", base, slow] + options)
        XCTAssertEqual(regressed.status, 1, regressed.stdout + regressed.stderr)
        let metrics = try XCTUnwrap(json(regressed.stdout)["metrics"]?.arrayValue)
        let dwell = try XCTUnwrap(metrics.first { $0["family"] == "dwell" && $0["name"] == "Articles" })
        XCTAssertEqual(dwell["status"], "regression")
        // Ten against ten, completely separated: 2 / C(20, 10) exactly. Dwell samples are
        // whole microseconds of virtual waits plus a little real time, so two runs of a side
        // can tie; the test then falls back to the normal approximation, which says about the same.
        let pValue = try XCTUnwrap(dwell["p_value"]?.doubleValue)
        switch dwell["test"] {
        case "mann-whitney exact": XCTAssertEqual(pValue, 2.0 / 184_756, accuracy: 1e-12)
        case "mann-whitney normal": XCTAssertLessThan(pValue, 0.003)
        default: XCTFail("unexpected test \(String(describing: dwell["test"]))")
        }
        XCTAssertLessThan(try XCTUnwrap(dwell["adjusted_p_value"]?.doubleValue), 0.01)
        XCTAssertGreaterThan(try XCTUnwrap(dwell["relative_change"]?.doubleValue), 0.9)
        let convert = try XCTUnwrap(metrics.first { $0["family"] == "time_to_convert" })
        XCTAssertEqual(convert["status"], "regression")
        XCTAssertEqual(try json(regressed.stdout)["scenarios"]?.arrayValue?.first?["status"], "same", "latency_ms is ignored")

        let quiet = try Product.navlog.run(["diff", base, noisy] + options)
        XCTAssertEqual(quiet.status, 0, quiet.stdout + quiet.stderr)
        for metric in try XCTUnwrap(json(quiet.stdout)["metrics"]?.arrayValue) {
            XCTAssertNotEqual(metric["status"], "regression", metric.serialized())
        }
    }

    func testTooFewSamplesAreReportedAsSuchAndSkippedInJUnit() throws {
        let base = try record("base"), candidate = try record("candidate")
        let junit = directory.appendingPathComponent("diff.xml").path
        let result = try Product.navlog.run(["diff", base, candidate, "-o", "json", "--junit", junit])
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try json(result.stdout)
        let metrics = try XCTUnwrap(report["metrics"]?.arrayValue)
        XCTAssertFalse(metrics.isEmpty)
        for metric in metrics {
            XCTAssertEqual(metric["status"], "too_few_samples", metric.serialized())
            XCTAssertEqual(metric["p_value"], .null)
        }
        let xml = try parseJUnit(junit)
        XCTAssertEqual(xml.skipped, metrics.count)
        XCTAssertEqual(xml.failures, 0)
    }

    // MARK: - JUnit and annotations

    func testJUnitXMLParsesWithOneTestcasePerScenarioCheckAndMetric() throws {
        let base = try record("push")
        let candidate = try record("modal", parameters: ["detail_style=modal"], expectedStatus: 1)
        let junit = directory.appendingPathComponent("junit.xml").path
        let result = try Product.navlog.run(["diff", base, candidate, "-o", "json", "--junit", junit])
        XCTAssertEqual(result.status, 1, result.stderr)
        let counts = try XCTUnwrap(json(result.stdout)["counts"])
        let xml = try parseJUnit(junit)
        XCTAssertEqual(xml.root, "testsuites")
        XCTAssertEqual(xml.suites, ["exact", "structural", "statistical"])
        // No smell: Detail pushed into the modal's own stack and then presented is one screen.
        XCTAssertEqual(xml.failedCases, ["navlog.diff.exact/master-detail s-1", "navlog.diff.structural/new_dead_end", "navlog.diff.structural/unreachable_screen"])
        XCTAssertEqual(xml.failures, 3)
        XCTAssertEqual(Int64(xml.skipped), counts["skipped"]?.intValue)
    }

    func testGitHubAnnotationsNameEachFailure() throws {
        let base = try record("push")
        let candidate = try record("modal", parameters: ["detail_style=modal"], expectedStatus: 1)
        let result = try Product.navlog.run(["diff", base, candidate, "--github-annotations", "-o", "markdown"])
        XCTAssertEqual(result.status, 1)
        let annotations = result.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("::") }
        XCTAssertEqual(annotations.first, "::error title=navlog diff%3A master-detail s-1::event sequence changed: 25 removed, 13 added%0AMaster → Detail: screen.push became screen.present style=sheet%0ADetail → Share (screen.push) no longer happens%0AShare → Detail (screen.pop by=pop) no longer happens%0ADetail → Master (screen.pop by=user_back) no longer happens")
        XCTAssertEqual(annotations.count, 3, annotations.joined(separator: "\n"))
        XCTAssertTrue(result.stdout.contains("## navlog diff: ❌ regression"), result.stdout)
        XCTAssertTrue(result.stdout.contains("```diff\n@@ -1,4 +1,4 @@\n"), result.stdout)
    }

    // MARK: - Helpers

    private struct JUnitSummary: Decodable {
        var root: String
        var suites: [String]
        var failures: Int
        var skipped: Int
        var failedCases: [String]
    }

    /// Parses JUnit XML with Python's `xml.etree` (a real XML parser), summarizing its shape.
    private func parseJUnit(_ path: String) throws -> JUnitSummary {
        let program = """
            import json, sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            cases = root.findall("./testsuite/testcase")
            assert int(root.get("tests")) == len(cases), "tests attribute"
            for suite in root.findall("testsuite"):
                assert int(suite.get("tests")) == len(suite.findall("testcase")), suite.get("name")
            print(json.dumps({
                "root": root.tag,
                "suites": [s.get("name") for s in root.findall("testsuite")],
                "failures": len(root.findall("./testsuite/testcase/failure")),
                "skipped": len(root.findall("./testsuite/testcase/skipped")),
                "failedCases": [c.get("classname") + "/" + c.get("name") for c in cases if c.find("failure") is not None],
            }))
            """
        let result = try python(program, [path])
        XCTAssertEqual(result.status, 0, "python3 could not parse \(path): \(result.stderr)")
        return try JSONDecoder().decode(JUnitSummary.self, from: Data(result.stdout.utf8))
    }
}
