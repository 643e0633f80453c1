import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

/// Bad input gets a clear error on stderr that names the culprit, and the right exit code.
final class CLIErrorTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
    }

    private func script(_ text: String, named name: String = "flow.scenario") throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    private var journal: String { directory.appendingPathComponent("journal").path }

    func testABadScriptLineNamesFileAndLine() throws {
        let path = try script("app master-detail\ntap open-detail\ntapp back\n")
        let result = try Product.navlog.run(["run", "--script", path, "--journal", journal])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "navlog run: \(path):3: unknown command 'tapp'; did you mean 'tap'? (commands: app, tap, enter, back, dismiss, select, deeplink, wait, expect)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal), "nothing is recorded for a script that does not parse")
    }

    func testAnUnknownAppIsAUsageError() throws {
        let path = try script("tap x\n")
        let result = try Product.navlog.run(["run", "masterdetail", "--script", path, "--journal", journal])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stderr, """
            navlog run: unknown app 'masterdetail'; apps: master-detail, articles, tabs, content-list
            See 'navlog run --help'.

            """)
    }

    func testAnUnknownParameterIsAUsageError() throws {
        let path = try script("app articles latency=5\n")
        let result = try Product.navlog.run(["run", "--script", path, "--journal", journal])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.hasPrefix("navlog run: app 'articles' has no parameter 'latency'; its parameters: dataset, failure_rate, inject, latency_ms, seed\n"), result.stderr)
        let plain = try script("tap reload\n", named: "plain.scenario")
        let bad = try Product.navlog.run(["run", "articles", "--param", "latency_ms=soon", "--script", plain, "--journal", journal])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("parameter 'latency_ms' must be an integer from 0 to 60000, not 'soon'"), bad.stderr)
    }

    func testAnUnknownElementFailsTheRunAtItsLineAndKeepsWhatRan() throws {
        let path = try script("app master-detail\ntap open-detail\n\ntap self-destruct\ntap close-detail\n")
        let result = try Product.navlog.run(["run", "--script", path, "--journal", journal])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "\(path):4: tap self-destruct: no element 'self-destruct' on screen Detail#1; actionable elements: toggle-pinned, open-share, close-detail\n")
        XCTAssertTrue(result.stdout.contains(": 1 of 3 steps ran; recorded "), result.stdout)
        let shown = try Product.navlog.run(["show", journal, "--kind", "error", "--no-time"])
        XCTAssertEqual(shown.status, 0)
        XCTAssertTrue(shown.stdout.contains("unknown_element: no element 'self-destruct'"), shown.stdout)
    }

    func testAFailedExpectationShowsExpectedAndActual() throws {
        let path = try script("app master-detail\nexpect screen Detail\n")
        let result = try Product.navlog.run(["run", "--script", path, "--journal", journal])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "\(path):2: expect screen\n  expected: Detail\n  actual:   Master#1\n")
    }

    func testAJournalDirectoryThatCannotBeWrittenIsNamed() throws {
        let blocker = directory.appendingPathComponent("file")
        try Data("not a directory".utf8).write(to: blocker)
        let target = blocker.appendingPathComponent("journal").path
        let path = try script("app master-detail\n")
        let result = try Product.navlog.run(["run", "--script", path, "--journal", target])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("navlog run: cannot record into journal directory '\(target)': "), result.stderr)
        XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, "one line: \(result.stderr)")
    }

    func testAMissingScriptFileIsNamed() throws {
        let result = try Product.navlog.run(["run", "master-detail", "--script", "/nonexistent/x.scenario", "--journal", journal])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("navlog run: cannot read script '/nonexistent/x.scenario': "), result.stderr)
    }

    func testUsageErrors() throws {
        let unknownOption = try Product.navlog.run(["run", "--scrpit", "x"])
        XCTAssertEqual(unknownOption.status, 64)
        XCTAssertEqual(unknownOption.stderr, "navlog run: unknown option '--scrpit'; did you mean '--script'?\nSee 'navlog run --help'.\n")
        let unknownCommand = try Product.navlog.run(["shwo"])
        XCTAssertEqual(unknownCommand.status, 64)
        XCTAssertEqual(unknownCommand.stderr, "navlog: unknown command 'shwo'; did you mean 'show'?\nSee 'navlog --help'.\n")
        let missing = try Product.navlog.run(["run", "--journal", journal])
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.stderr.hasPrefix("navlog run: option '--script' is required\n"), missing.stderr)
        let badKind = try Product.navlog.run(["show", directory.path, "--kind", "screen.puhs"])
        XCTAssertEqual(badKind.status, 64)
        XCTAssertTrue(badKind.stderr.hasPrefix("navlog show: option '--kind': unknown kind 'screen.puhs'; did you mean 'screen.push'?"), badKind.stderr)
    }

    func testGarbageJournalFilesAreReportedByName() throws {
        let garbage = directory.appendingPathComponent("navlog-0000000000000001-20261201T000000Z.navlog")
        try Data(repeating: 0x5A, count: 10_000).write(to: garbage)
        let show = try Product.navlog.run(["show", garbage.path])
        XCTAssertEqual(show.status, 2)
        XCTAssertTrue(show.stderr.contains(garbage.path), show.stderr)
        let verify = try Product.navlog.run(["verify", directory.path])
        XCTAssertEqual(verify.status, 1)
        XCTAssertTrue(verify.stdout.contains("problem: \(garbage.path)"), verify.stdout)
    }

    /// A directory with no journal file in it (a wrong path, a journal not written yet) fails
    /// verify and the readers by name, instead of passing or printing an empty answer; only
    /// following waits for a writer to make the first file.
    func testADirectoryWithoutJournalFilesIsNamedNotReadAsEmpty() throws {
        let empty = directory.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try "not a journal".write(to: empty.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let message = "journal '\(empty.path)' holds no journal file (no *.navlog directly inside it)"

        let verify = try Product.navlog.run(["verify", empty.path])
        XCTAssertEqual(verify.status, 1, "a gate over nothing must not pass")
        XCTAssertEqual(verify.stdout, "problem: \(empty.path): holds no journal file (no *.navlog directly inside it)\n0 file(s), 0 readable event(s), 1 problem(s)\n")
        let json = try JSONValue(parsing: try Product.navlog.run(["verify", "-o", "json", empty.path]).stdout)
        XCTAssertEqual(json["problems"]?.arrayValue?.first?["file"]?.stringValue, empty.path)

        for command in [["report"], ["show"], ["tail"], ["export", "--format", "ndjson"]] {
            let result = try Product.navlog.run(command + [empty.path])
            XCTAssertEqual(result.status, 2, command.joined(separator: " "))
            XCTAssertEqual(result.stdout, "", command.joined(separator: " "))
            XCTAssertEqual(result.stderr, "navlog \(command[0]): \(message)\n")
        }

        // A journal directory beside it still reads, and one empty path among good ones is named.
        let run = try Product.navlog.run(["run", "--script", "Config/scenarios/articles.scenario", "--journal", journal])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try Product.navlog.run(["verify", journal]).status, 0)
        let both = try Product.navlog.run(["report", journal, empty.path])
        XCTAssertEqual(both.status, 2)
        XCTAssertEqual(both.stderr, "navlog report: \(message)\n")
        // diff names the side, whichever it is; baseline save names the journal and writes nothing.
        let noFile = "'\(empty.path)' holds no journal file (no *.navlog directly inside it)"
        let againstEmpty = try Product.navlog.run(["diff", journal, empty.path])
        XCTAssertEqual(againstEmpty.status, 2)
        XCTAssertEqual(againstEmpty.stderr, "navlog diff: candidate \(noFile)\n")
        let fromEmpty = try Product.navlog.run(["diff", empty.path, journal])
        XCTAssertEqual(fromEmpty.stderr, "navlog diff: base \(noFile)\n")
        let baseline = directory.appendingPathComponent("empty.navbase").path
        let save = try Product.navlog.run(["baseline", "save", "-j", empty.path, "-o", baseline])
        XCTAssertEqual(save.status, 2)
        XCTAssertEqual(save.stderr, "navlog baseline save: \(message)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: baseline))
        // push refuses before it reaches for the daemon, and leaves no state file behind.
        let push = try Product.navlog.run(["push", "--to", "http://127.0.0.1:1", empty.path])
        XCTAssertEqual(push.status, 2)
        XCTAssertEqual(push.stderr, "navlog push: \(message)\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: empty.path), ["notes.txt"])

        // Following an empty directory waits, and prints the first file's events once written.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Product.navlog.path)
        // Enough history that the whole session prints whether tail's first scan comes before
        // the run writes or after (by default it would print only the last 10 events).
        process.arguments = ["tail", "-f", "-n", "1000", "-o", "json", empty.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer { if process.isRunning { process.terminate() }; process.waitUntilExit() }
        let recorded = try Product.navlog.run(["run", "--script", "Config/scenarios/articles.scenario", "--journal", empty.path])
        XCTAssertEqual(recorded.status, 0, recorded.stderr)
        var buffer = ""
        let deadline = Date().addingTimeInterval(60)
        while !buffer.contains("\"session.end\""), Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer += String(decoding: chunk, as: UTF8.self)
        }
        XCTAssertTrue(process.isRunning, "tail -f keeps following")
        XCTAssertTrue(buffer.contains("\"session.start\"") && buffer.contains("\"session.end\""), buffer)
    }

    /// A writer that has just created its file (still empty) when `tail -f` starts reading
    /// the history: tail waits for it rather than refusing it as not a journal and exiting,
    /// which the test above met when its run started at that moment.
    func testTailFollowingWaitsForAFileAWriterIsCreating() throws {
        let journal = directory.appendingPathComponent("creating")
        try FileManager.default.createDirectory(at: journal, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: journal.appendingPathComponent("navlog-0000000000000001-20261203T000000Z.navlog").path,
                                                     contents: Data()))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Product.navlog.path)
        process.arguments = ["tail", "-f", journal.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() }; process.waitUntilExit() }
        // What is checked is that tail does not exit: there is no event to await for that, so
        // this waits a while (the old code exited at once, within milliseconds).
        Thread.sleep(forTimeInterval: 1)
        XCTAssertTrue(process.isRunning, "tail -f keeps waiting")
        if !process.isRunning {
            XCTFail(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
        // Without -f the empty file is still refused by name.
        let once = try Product.navlog.run(["tail", journal.path])
        XCTAssertEqual(once.status, 2)
        XCTAssertTrue(once.stderr.contains("the file is empty"), once.stderr)
    }
}

/// An app parameter declared private (tabs' `user_name`) is protected in `session.start`
/// like a private view-model field: no event read back holds it in clear.
final class PrivateParameterTests: XCTestCase {
    func testAPrivateParameterIsHashedInSessionStart() throws {
        let directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
        let journal = directory.appendingPathComponent("journal").path
        let script = directory.appendingPathComponent("t.scenario")
        try "select Settings\ntap open-profile\n".write(to: script, atomically: true, encoding: .utf8)
        let secret = "Zelda Quintessa Private"
        let run = try Product.navlog.run(["run", "tabs", "--param", "user_name=\(secret)", "--script", script.path, "--journal", journal])
        XCTAssertEqual(run.status, 0, run.stderr)
        let shown = try Product.navlog.run(["show", journal, "-o", "json"])
        XCTAssertFalse(shown.stdout.contains("Zelda"), "the private name is in the journal in clear")
        let start = try XCTUnwrap(try [Event](jsonLines: shown.stdout).first { $0.kind == .sessionStart })
        XCTAssertEqual(start.payload["parameters"]?["user_name"]?.stringValue?.hasPrefix("hmac:"), true, "\(start.payload)")
        XCTAssertEqual(start.payload["parameters"]?["start_tab"], "dashboard")
    }
}
