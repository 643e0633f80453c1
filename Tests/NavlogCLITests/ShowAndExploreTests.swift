import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

final class ShowAndExploreTests: XCTestCase {
    private var journal: String!

    override func setUpWithError() throws {
        journal = URL(fileURLWithPath: makeTemporaryDirectory(self)).appendingPathComponent("journal").path
        for app in ["master-detail", "tabs"] {
            let run = try Product.navlog.run(["run", "--script", "Config/scenarios/\(app).scenario", "--journal", journal, "--session", "s-\(app)"])
            XCTAssertEqual(run.status, 0, run.stderr)
        }
    }

    func testFiltersBySessionKindAndCursor() throws {
        let all = try [Event](jsonLines: try Product.navlog.run(["show", journal, "-o", "json"]).stdout)
        XCTAssertEqual(Set(all.map(\.session)), ["s-master-detail", "s-tabs"])

        let tabs = try [Event](jsonLines: try Product.navlog.run(["show", journal, "-o", "json", "--session", "s-tabs", "--kind", "tab.select"]).stdout)
        XCTAssertEqual(tabs.map(\.payload["tab"]), ["Settings", "Dashboard", "Settings"])

        let middle = all[all.count / 2]
        let json = try JSONValue(parsing: String(try Product.navlog.run(["show", journal, "-o", "json"]).stdout.split(separator: "\n")[all.count / 2]))
        let cursor = try XCTUnwrap(json["cursor"]?.stringValue)
        let rest = try [Event](jsonLines: try Product.navlog.run(["show", journal, "-o", "json", "--after-cursor", cursor]).stdout)
        XCTAssertEqual(rest.map(\.seq), all.map(\.seq).filter { $0 > middle.seq })

        let badCursor = try Product.navlog.run(["show", journal, "--after-cursor", "yesterday"])
        XCTAssertEqual(badCursor.status, 64)
    }

    func testTimeFilters() throws {
        let all = try [Event](jsonLines: try Product.navlog.run(["show", journal, "-o", "json"]).stdout)
        let pivot = all[10]
        let since = try [Event](jsonLines: try Product.navlog.run(["show", journal, "-o", "json", "--since", Event.formatTime(pivot.wallNanoseconds)]).stdout)
        XCTAssertEqual(since.map(\.seq), all.filter { $0.wallNanoseconds >= pivot.wallNanoseconds }.map(\.seq))
        let recent = try Product.navlog.run(["show", journal, "--since=-1h", "-o", "json"])
        XCTAssertEqual(recent.stdout.split(separator: "\n").count, all.count)
        let bad = try Product.navlog.run(["show", journal, "--since", "last tuesday"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("'last tuesday' is not an RFC 3339 time"), bad.stderr)
    }

    func testTextShowsViewModelChangesAsDiffs() throws {
        let text = try Product.navlog.run(["show", journal, "--session", "s-tabs", "--kind", "viewmodel.change", "--no-time"]).stdout
        XCTAssertTrue(text.contains("ReportViewModel\n        - rangeDays: 7\n        + rangeDays: 30\n"), text)
    }

    func testJSONSeqFraming() throws {
        let output = try Product.navlog.run(["show", journal, "-o", "json-seq", "--session", "s-master-detail"]).stdout
        let records = output.split(separator: "\u{1E}", omittingEmptySubsequences: true)
        XCTAssertGreaterThan(records.count, 10)
        for record in records {
            XCTAssertTrue(record.hasSuffix("\n"))
            XCTAssertNoThrow(try JSONValue(parsing: String(record.dropLast())))
        }
    }

    func testTailPrintsTheLastEventsAndFollowsNewOnes() throws {
        let last = try Product.navlog.run(["tail", journal, "-n", "2", "--no-time"])
        XCTAssertEqual(last.stdout.split(separator: "\n").count, 2)
        XCTAssertTrue(last.stdout.split(separator: "\n").last!.contains("session.end"), last.stdout)

        // Follow: start tail -f, wait for its one line of history (so its first scan is over),
        // then record another session and read until that session's end shows up.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Product.navlog.path)
        process.arguments = ["tail", "-f", "-n", "1", "-o", "json", journal]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        defer { if process.isRunning { process.terminate() }; process.waitUntilExit() }
        var buffer = ""
        /// Reads until a whole line containing `marker` has arrived.
        func read(until marker: String) {
            func hasWholeLine() -> Bool {
                guard let found = buffer.range(of: marker) else { return false }
                return buffer[found.upperBound...].contains("\n")
            }
            let deadline = Date().addingTimeInterval(60)
            while !hasWholeLine(), Date() < deadline {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                buffer += String(decoding: chunk, as: UTF8.self)
            }
        }
        read(until: "\"cursor\"")
        XCTAssertTrue(buffer.contains("\"session.end\""), buffer)
        buffer = ""
        let run = try Product.navlog.run(["run", "--script", "Config/scenarios/articles.scenario", "--journal", journal, "--session", "s-followed"])
        XCTAssertEqual(run.status, 0, run.stderr)
        read(until: "\"s-followed\",\"session_seq\":36")
        let followed = try [Event](jsonLines: buffer.split(separator: "\n").filter { $0.hasSuffix("}") }.joined(separator: "\n"))
        XCTAssertEqual(Set(followed.map(\.session)), ["s-followed"])
        XCTAssertEqual(followed.first?.kind, .sessionStart)
        XCTAssertEqual(followed.last?.kind, .sessionEnd)
    }

    func testExploreIsDeterministicAndReportsFindings() throws {
        let directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
        func explore(_ name: String) throws -> [String] {
            let path = directory.appendingPathComponent(name).path
            // The tabs app keeps the user's name private: journals compare hashes only under one key.
            let key = directory.appendingPathComponent("privacy-key").path
            let result = try Product.navlog.run(["explore", "tabs", "--seed", "7", "--steps", "80", "--sessions", "3", "--journal", path, "--privacy-key", key])
            XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
            XCTAssertTrue(result.stdout.contains("explored 3 session(s) of tabs from seed 7"), result.stdout)
            return try [Event](jsonLines: try Product.navlog.run(["show", path, "-o", "json"]).stdout)
                .map { "\($0.session) \($0.sessionSeq) \($0.kind) \($0.subject) \($0.payload.serialized())" }
                .sorted()
        }
        let first = try explore("a")
        XCTAssertEqual(first, try explore("b"))
        XCTAssertGreaterThan(first.count, 100)
    }

    /// Explored time is simulated: the summary says how far past the clock the events are
    /// stamped, and the journal's last event agrees with it (within the run's own seconds).
    func testExploreSaysHowFarItsSimulatedTimeRunsAhead() throws {
        let path = makeTemporaryDirectory(self) + "/journal"
        let result = try Product.navlog.run(["explore", "articles", "--seed", "7", "--steps", "100", "--sessions", "1", "--journal", path])
        let finished = Date()
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let line = try XCTUnwrap(result.stdout.split(separator: "\n").last.map(String.init))
        let prefix = "times are simulated: waits are skipped, not slept, so the events are stamped up to "
        XCTAssertTrue(line.hasPrefix(prefix) && line.hasSuffix(" past the time they were recorded"), result.stdout)
        // "2 min 44 s" or "44 s", in seconds.
        let words = line.dropFirst(prefix.count).split(separator: " ")
        var stated = 0
        if words.count >= 4, words[1] == "min", let minutes = Int(words[0]), let seconds = Int(words[2]) { stated = minutes * 60 + seconds }
        else if let seconds = Int(words[0]), words[1] == "s" { stated = seconds }
        XCTAssertGreaterThan(stated, 10, line)
        let events = try [Event](jsonLines: try Product.navlog.run(["show", path, "-o", "json"]).stdout)
        let last = try XCTUnwrap(events.map(\.wallNanoseconds).max())
        let ahead = Double(last) / 1e9 - finished.timeIntervalSince1970
        XCTAssertEqual(ahead, Double(stated), accuracy: 5, "the last event is \(ahead) s past the end of the run; the summary says \(stated) s")
    }

    /// show prints each time with its date and zone: the local one from TZ, or UTC with --utc,
    /// the same instant as the JSON's time.
    func testShowPrintsTimesInTheLocalZoneOrUTC() throws {
        let path = makeTemporaryDirectory(self) + "/journal"
        XCTAssertEqual(try Product.navlog.run(["run", "--script", "Config/scenarios/tabs.scenario", "--journal", path]).status, 0)
        let first = try XCTUnwrap(try [Event](jsonLines: try Product.navlog.run(["show", path, "-o", "json"]).stdout).first)
        let utc = Event.formatTime(first.wallNanoseconds, fractionDigits: 3)
        let local = try Product.navlog.run(["show", path], environment: ["TZ": "Asia/Kolkata"]).stdout
        let shifted = String(Event.formatTime(first.wallNanoseconds + 19_800_000_000_000, fractionDigits: 3).dropLast()) + "+05:30"
        XCTAssertTrue(local.split(separator: "\n").first?.contains("  \(shifted)  ") == true, "\(shifted) in \(local.prefix(200))")
        let inUTC = try Product.navlog.run(["show", path, "--utc"], environment: ["TZ": "Asia/Kolkata"]).stdout
        XCTAssertTrue(inUTC.split(separator: "\n").first?.contains("  \(utc)  ") == true, "\(utc) in \(inUTC.prefix(200))")
    }

    /// `-o json` of explore and run: one object whose counts and run match the journal they
    /// wrote, read back with show.
    func testExploreAndRunPrintOneJSONObjectThatMatchesTheirJournal() throws {
        let directory = makeTemporaryDirectory(self)
        let explored = try Product.navlog.run(["explore", "articles", "--seed", "3", "--steps", "40", "--sessions", "2", "--journal", directory + "/explore", "-o", "json"])
        XCTAssertLessThanOrEqual(explored.status, 1, explored.stderr)
        let summary = try JSONValue(parsing: explored.stdout)
        let events = try [Event](jsonLines: try Product.navlog.run(["show", directory + "/explore", "-o", "json"]).stdout)
        XCTAssertEqual(summary["events"]?.intValue, Int64(events.count))
        XCTAssertEqual(summary["run"]?.stringValue, events.first?.run)
        XCTAssertEqual(summary["sessions"]?.arrayValue?.compactMap { $0["session"]?.stringValue }, ["s-1", "s-2"])
        XCTAssertEqual(summary["sessions"]?.arrayValue?.first?["steps"]?.intValue, 40)
        XCTAssertEqual(summary["findings"]?.intValue, 0)

        let ran = try Product.navlog.run(["run", "--script", "Config/scenarios/master-detail.scenario", "--journal", directory + "/run", "-o", "json"])
        XCTAssertEqual(ran.status, 0, ran.stderr)
        let result = try JSONValue(parsing: ran.stdout)
        let recorded = try [Event](jsonLines: try Product.navlog.run(["show", directory + "/run", "-o", "json"]).stdout)
        XCTAssertEqual(result["events"]?.intValue, Int64(recorded.count))
        XCTAssertEqual(result["run"]?.stringValue, recorded.first?.run)
        XCTAssertEqual(result["passed"], true)
        XCTAssertEqual(result["failure"], .null)
        XCTAssertEqual(result["steps_run"], result["steps"])

        let failed = try Product.navlog.run(["run", "--script", "Config/scenarios/master-detail.scenario", "--param", "detail_style=modal",
                                             "--journal", directory + "/failed", "-o", "json"])
        XCTAssertEqual(failed.status, 1)
        let failure = try JSONValue(parsing: failed.stdout)
        XCTAssertEqual(failure["passed"], false)
        XCTAssertEqual(failure["failure"]?["file"]?.stringValue, "Config/scenarios/master-detail.scenario")
        XCTAssertNotNil(failure["failure"]?["line"]?.intValue)
    }

    func testExploreHelpAndBackBiasArePinned() throws {
        let help = try Product.navlog.run(["explore", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertEqual(help.stdout, """
            OVERVIEW: Walk an app at random from a seed, record it, and report what broke.

            Each session walks K steps over the actions available on screen (elements, back, swipe-dismiss, tabs, waiting for pending work); session i uses seed N+i, so the same seed gives the same events. Where a step can go back, it does with probability P (--back-bias) before picking uniformly among all moves, so walks come back up as people's do; --back-bias 0 walks as navlog did before 0.33 became the default, drifting ever deeper in apps whose screens lead to more screens. Reports actions that threw, dead ends and leaks; any of these exits 1.

            USAGE: navlog explore [options] APP

            ARGUMENTS:
              APP                       The app to explore (see 'navlog apps').

            OPTIONS:
              --seed N                  The seed of the first session. (default: 1)
              --steps K                 Steps per session. (from 1 to 1,000,000) (default: 100)
              --sessions S              How many sessions to walk, in parallel. (from 1 to 100,000) (default: 1)
              --back-bias P             The chance, from 0 to 1, that a step goes back where it can. (default: 0.33)
              -p, --param KEY=VALUE     An app parameter. (repeatable)
              -o, --output FORMAT       text or json (one object: each session's steps, screens and findings). (default: text)
              -j, --journal DIR         The journal directory to record into; created when missing.
              --label KEY=VALUE         A label of this run, such as scenario=checkout or git_sha=abc123. (repeatable)
              --redact RULE             Protect a private value: ViewModelType.field (or *.field), action.value:ELEMENT (or action.value:*), deeplink.url or error.message. (repeatable)
              --redact-mode MODE        What becomes of private values: hash (hmac:…, keyed per journal) or remove. (default: hash)
              --privacy-key FILE        The key file for hashes, shared by journals to compare; default: in the journal directory.
              -h, --help                Show help information.

            """)
        let bad = try Product.navlog.run(["explore", "articles", "--back-bias", "1.5", "--journal", makeTemporaryDirectory(self)])
        XCTAssertEqual(bad.status, 64)
        XCTAssertEqual(bad.stderr, """
            navlog explore: option '--back-bias' must be a number from 0 to 1, not '1.5'
            See 'navlog explore --help'.

            """)
    }

    func testHelpTextIsPinned() throws {
        let help = try Product.navlog.run(["run", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertEqual(help.stdout, """
            OVERVIEW: Run a scenario script headless and record it into a journal.

            The script's 'app' line names the app unless APP is given; --param overrides its parameters. Waits in the script skip time instead of sleeping. The run stops at the first refused action or failed expectation, which is printed with file:line (exit 1); everything up to it is recorded. See docs/SCENARIOS.md for the language.

            USAGE: navlog run [options] [APP]

            ARGUMENTS:
              APP                       The app to run (see 'navlog apps').

            OPTIONS:
              -s, --script FILE         The scenario to run.
              -p, --param KEY=VALUE     An app parameter. (repeatable)
              -j, --journal DIR         The journal directory to record into; created when missing.
              --label KEY=VALUE         A label of this run, such as scenario=checkout or git_sha=abc123. (repeatable)
              --redact RULE             Protect a private value: ViewModelType.field (or *.field), action.value:ELEMENT (or action.value:*), deeplink.url or error.message. (repeatable)
              --redact-mode MODE        What becomes of private values: hash (hmac:…, keyed per journal) or remove. (default: hash)
              --privacy-key FILE        The key file for hashes, shared by journals to compare; default: in the journal directory.
              --session ID              The session id to record under. (default: s-1)
              -o, --output FORMAT       text or json (one object: steps, events, run, journal, failure). (default: text)
              -h, --help                Show help information.

            """)
        for command in ["apps", "explore", "show", "tail", "verify", "demo"] {
            let result = try Product.navlog.run([command, "--help"])
            XCTAssertEqual(result.status, 0, command)
            XCTAssertTrue(result.stdout.hasPrefix("OVERVIEW: "), command)
        }
    }
}
