import Foundation
import NavlogTestSupport
import XCTest

/// `navlog baseline save`, diffing against a baseline file with `--record`, and the inputs and
/// configurations `navlog diff` refuses.
final class BaselineCommandTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
    }

    private func record(_ name: String, app: String = "master-detail", parameters: [String] = [], expectedStatus: Int32 = 0) throws -> String {
        let journal = directory.appendingPathComponent(name).path
        let result = try Product.navlog.run(["run", "--script", "Config/scenarios/\(app).scenario", "--journal", journal] + parameters.flatMap { ["--param", $0] })
        XCTAssertEqual(result.status, expectedStatus, result.stderr)
        return journal
    }

    // MARK: - Round trip

    func testBaselineRoundTripComparesLikeTheJournalItCameFrom() throws {
        let journal = try record("base")
        let baseline = directory.appendingPathComponent("ci/master-detail.baseline.json").path
        let save = try Product.navlog.run(["baseline", "save", "--journal", journal, "-o", baseline])
        XCTAssertEqual(save.status, 0, save.stderr)
        XCTAssertEqual(save.stdout, "saved baseline \(baseline): 1 scenario sessions, 1 sessions, 36 events\n")
        let text = try String(contentsOfFile: baseline, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("{\n  \"format\": \"navlog-baseline\",\n"), text)
        XCTAssertTrue(text.contains("\n  \"version\": 2\n"), text)
        XCTAssertFalse(text.contains("packed_events"), "a short scripted run stays one event per line")
        XCTAssertTrue(text.contains(#"{"c":4,"k":"screen.push","n":6,"p":{"bound":["MasterPresenter#1"],"depth":1,"stack":"MasterNavigation#1"},"s":"RootMasterCoordinator#1","screen":"Master#1"}"#), text)

        // Two baselines of two runs compare as the same: nothing of the time or run is kept.
        let again = directory.appendingPathComponent("again.json").path
        XCTAssertEqual(try Product.navlog.run(["baseline", "save", "--journal", try record("again"), "-o", again]).status, 0)
        let same = try Product.navlog.run(["diff", baseline, again, "--record", "never", "-o", "json"])
        XCTAssertEqual(same.status, 0, same.stdout + same.stderr)

        let fromJournal = try Product.navlog.run(["diff", journal, try record("candidate", parameters: ["detail_style=modal"], expectedStatus: 1), "-o", "json"])
        let fromBaseline = try Product.navlog.run(["diff", baseline, directory.appendingPathComponent("candidate").path, "--record", "never", "-o", "json"])
        XCTAssertEqual(fromBaseline.status, 1, fromBaseline.stderr)
        XCTAssertEqual(fromBaseline.stdout, fromJournal.stdout, "a baseline compares exactly as its journal")
    }

    func testPackedWalksDiffExactlyAsTheJournalTheyCameFrom() throws {
        func explore(_ name: String, _ parameters: [String] = []) throws -> String {
            let journal = directory.appendingPathComponent(name).path
            let result = try Product.navlog.run(["explore", "tabs", "--seed", "1", "--steps", "15", "--sessions", "2", "--journal", journal] + parameters.flatMap { ["-p", $0] })
            XCTAssertEqual(result.status, 0, result.stderr)
            return journal
        }
        let base = try explore("base"), candidate = try explore("candidate", ["notifications=false"])
        let baseline = directory.appendingPathComponent("walks.json").path
        XCTAssertEqual(try Product.navlog.run(["baseline", "save", "--journal", base, "-o", baseline]).status, 0)
        let text = try String(contentsOfFile: baseline, encoding: .utf8)
        XCTAssertTrue(text.contains("\n  \"packed_events\": {\n    \"bytes\": "), text)
        XCTAssertEqual(text.components(separatedBy: "\"events_packed\": ").count, 3, text)
        XCTAssertFalse(text.contains("\"events\": ["), "walks are packed")

        for format in ["text", "json"] {
            let fromJournal = try Product.navlog.run(["diff", base, candidate, "-o", format])
            let fromBaseline = try Product.navlog.run(["diff", baseline, candidate, "--record", "never", "-o", format])
            XCTAssertEqual(fromJournal.status, 1, fromJournal.stderr)
            XCTAssertEqual(fromBaseline.status, 1, fromBaseline.stderr)
            XCTAssertTrue(fromJournal.stdout.contains("@@ -6,7 +6,7 @@"), fromJournal.stdout)
            XCTAssertEqual(fromBaseline.stdout, fromJournal.stdout, "a packed baseline compares exactly as its journal (\(format))")
        }
    }

    func testAnAbsentBaseIsRecordedOnlyWhenAskedAndNeverPassesSilently() throws {
        let journal = try record("base")
        let baseline = directory.appendingPathComponent("new.json").path
        let junit = directory.appendingPathComponent("junit.xml").path
        let never = try Product.navlog.run(["diff", baseline, journal, "--record", "never"])
        XCTAssertEqual(never.status, 2)
        XCTAssertEqual(never.stderr, "navlog diff: base '\(baseline)' does not exist\n")

        // Not given, locally or under CI: a missing base is trouble, and no JUnit is written.
        for ci in ["", "1", "true"] {
            let unasked = try Product.navlog.run(["diff", baseline, journal, "--junit", junit], environment: ["CI": ci])
            XCTAssertEqual(unasked.status, 2, "CI=\(ci)")
            XCTAssertEqual(unasked.stdout, "")
            XCTAssertEqual(unasked.stderr, "navlog diff: base '\(baseline)' does not exist (pass --record missing to record a baseline there)\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: baseline))
            XCTAssertFalse(FileManager.default.fileExists(atPath: junit))
        }

        let missing = try Product.navlog.run(["diff", baseline, journal, "--record", "missing", "--junit", junit], environment: ["CI": "1"])
        XCTAssertEqual(missing.status, 0, missing.stderr)
        XCTAssertEqual(missing.stdout, "")
        XCTAssertEqual(missing.stderr, "navlog diff: no baseline at '\(baseline)'; recorded one from the candidate (1 scenario sessions, 1 sessions); nothing compared\n")
        XCTAssertEqual(try String(contentsOfFile: junit, encoding: .utf8), """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="navlog diff" tests="1" failures="0" errors="0" skipped="1">
              <testsuite name="baseline" tests="1" failures="0" errors="0" skipped="1">
                <testcase classname="navlog.diff.baseline" name="\(baseline)">
                  <skipped message="baseline recorded at \(baseline) from the candidate; nothing compared"/>
                </testcase>
              </testsuite>
            </testsuites>

            """)
        XCTAssertEqual(try Product.navlog.run(["diff", baseline, journal, "--record", "never"]).status, 0)

        // A scenario the baseline lacks is added to it under `missing`.
        let tabs = try record("tabs", app: "tabs")
        let added = try Product.navlog.run(["diff", "--base", baseline, "--candidate", journal, "--candidate", tabs, "--ending", "Settings", "--record", "missing"])
        XCTAssertEqual(added.status, 0, added.stdout + added.stderr)
        XCTAssertTrue(added.stderr.contains("recorded 1 new scenario session(s) into baseline '\(baseline)': tabs s-1"), added.stderr)
        let text = try String(contentsOfFile: baseline, encoding: .utf8)
        XCTAssertTrue(text.contains("\"scenario\": \"tabs\""), text)
    }

    func testAPathThatReadsAsADirectoryOrJournalIsNeverWrittenAsABaseline() throws {
        let journal = try record("base")
        for (path, message) in [
            ("base-journal/", "cannot write a baseline to 'base-journal/': it names a directory; give a file, such as navlog.baseline.json"),
            ("base-journal", "cannot record a baseline at 'base-journal': it reads as a journal, not a baseline file; give a name such as navlog.baseline.json"),
            ("base.navlog", "cannot record a baseline at 'base.navlog': it reads as a journal, not a baseline file; give a name such as navlog.baseline.json"),
        ] {
            let result = try Product.navlog.run(["diff", path, journal, "--record", "all"], in: directory)
            XCTAssertEqual(result.status, 64, path)
            XCTAssertEqual(result.stderr, "navlog diff: \(message)\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent(path).path), path)
            // Without --record, the path is only missing.
            let unasked = try Product.navlog.run(["diff", path, journal], in: directory)
            XCTAssertEqual(unasked.status, 2, path)
            XCTAssertEqual(unasked.stderr, "navlog diff: base '\(path)' does not exist\n")
        }
        let save = try Product.navlog.run(["baseline", "save", "--journal", journal, "-o", "ci/"], in: directory)
        XCTAssertEqual(save.status, 64)
        XCTAssertEqual(save.stderr, "navlog baseline save: cannot write a baseline to 'ci/': it names a directory; give a file, such as navlog.baseline.json\n")
    }

    // MARK: - Refused input

    func testUnreadableOrUnrelatedInputExitsTwoNamingIt() throws {
        let journal = try record("base")
        let garbage = directory.appendingPathComponent("garbage.json")
        try "{ not json".write(to: garbage, atomically: true, encoding: .utf8)
        let damaged = try Product.navlog.run(["diff", garbage.path, journal])
        XCTAssertEqual(damaged.status, 2)
        XCTAssertTrue(damaged.stderr.hasPrefix("navlog diff: baseline '\(garbage.path)': not a baseline: "), damaged.stderr)
        XCTAssertEqual(damaged.stderr.filter { $0 == "\n" }.count, 1)
        // Other JSON is named as not a baseline, not as a damaged SQLite file.
        let array = directory.appendingPathComponent("results.json")
        try "\n  [1, 2]\n".write(to: array, atomically: true, encoding: .utf8)
        let listed = try Product.navlog.run(["diff", array.path, journal])
        XCTAssertEqual(listed.status, 2)
        XCTAssertEqual(listed.stderr, "navlog diff: baseline '\(array.path)': not a baseline: \"format\" is not \"navlog-baseline\"\n")

        let missing = try Product.navlog.run(["diff", journal, directory.appendingPathComponent("nope").path])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "navlog diff: candidate '\(directory.appendingPathComponent("nope").path)' does not exist\n")

        let unrelated = try Product.navlog.run(["diff", journal, try record("tabs", app: "tabs")])
        XCTAssertEqual(unrelated.status, 2, unrelated.stdout)
        XCTAssertTrue(unrelated.stderr.hasPrefix("navlog diff: nothing in common to compare: "), unrelated.stderr)
    }

    func testConfigurationIsCheckedKeyByKey() throws {
        let journal = try record("base")
        let example = try Product.navlog.run(["diff", journal, journal, "--config", "Config/diff.json"])
        XCTAssertEqual(example.status, 0, example.stderr)

        let config = directory.appendingPathComponent("diff.json")
        let cases: [(String, String)] = [
            (#"{"alpah": 0.05}"#, "key 'alpah': unknown key"),
            (#"{"gate": {"dwel": true}}"#, "key 'gate.dwel': unknown metric"),
            (#"{"noise_threshold": "5%"}"#, "key 'noise_threshold': must be a number"),
            (#"{"funnels": [{"name": "f", "steps": ["A"]}]}"#, "key 'funnels[0].steps': needs at least two screens"),
        ]
        for (text, message) in cases {
            try text.write(to: config, atomically: true, encoding: .utf8)
            let result = try Product.navlog.run(["diff", journal, journal, "--config", config.path])
            XCTAssertEqual(result.status, 64, text)
            XCTAssertTrue(result.stderr.hasPrefix("navlog diff: config '\(config.path)': \(message)"), result.stderr)
        }
        let flag = try Product.navlog.run(["diff", journal, journal, "--gate", "speed"])
        XCTAssertEqual(flag.status, 64)
        XCTAssertTrue(flag.stderr.hasPrefix("navlog diff: option '--gate': unknown metric 'speed'"), flag.stderr)
        XCTAssertEqual(try Product.navlog.run(["diff", journal]).status, 64)
    }
}
