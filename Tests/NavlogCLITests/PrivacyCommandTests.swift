import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

/// Privacy through the CLI: values marked private in app code (the tabs app's profile name) and
/// values redacted with `--redact` never reach the journal, and show, report and diff still work.
final class PrivacyCommandTests: XCTestCase {
    private let profileName = "Zelda Quintessa"
    private let recipient = "zelda@private.example"

    private func writeScripts(in directory: URL) throws -> (tabs: String, share: String) {
        let tabs = directory.appendingPathComponent("profile.scenario")
        try """
            app tabs
            deeplink tabs://settings/profile
            enter profile-name "\(profileName)"
            tap save-profile
            expect screen Settings
            """.write(to: tabs, atomically: true, encoding: .utf8)
        let share = directory.appendingPathComponent("share.scenario")
        let seed = try String(contentsOfFile: "Config/scenarios/master-detail.scenario", encoding: .utf8)
        try seed.replacingOccurrences(of: "ana@example.com", with: recipient).write(to: share, atomically: true, encoding: .utf8)
        return (tabs.path, share.path)
    }

    func testPrivateValuesStayOutOfShowReportAndDiffWhichStillWork() throws {
        let directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
        let scripts = try writeScripts(in: directory)
        var journals: [String] = []
        for side in ["base", "candidate"] {
            let journal = directory.appendingPathComponent(side).path
            for script in [scripts.tabs, scripts.share] {
                // The recipient also lands in Detail's list of people shared with.
                let run = try Product.navlog.run(["run", "--script", script, "--journal", journal, "--redact", "ShareViewModel.recipient",
                                       "--redact", "action.value:share-recipient", "--redact", "DetailViewModel.sharedWith"])
                XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
            }
            journals.append(journal)
        }
        let shown = try Product.navlog.run(["show", journals[0], "-o", "json"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        for secret in [profileName, recipient] {
            XCTAssertFalse(shown.stdout.contains(secret), "\(secret) is shown")
        }
        let events = try [Event](jsonLines: shown.stdout)
        let entered = try XCTUnwrap(events.first { $0.kind == .action && $0.payload["element"] == "profile-name" })
        let hash = try XCTUnwrap(entered.payload["value"]?.stringValue)
        XCTAssertTrue(hash.hasPrefix("hmac:"), hash)
        XCTAssertTrue(events.contains { $0.payload["snapshot"]?["name"]?.stringValue == hash }, "equal values hash equally within a journal")
        XCTAssertTrue(events.contains { $0.payload["snapshot"]?["recipient"]?.stringValue?.hasPrefix("hmac:") == true })

        let text = try Product.navlog.run(["show", journals[0]])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertFalse(text.stdout.contains(profileName) || text.stdout.contains(recipient), text.stdout)
        let report = try Product.navlog.run(["report", journals[0], "--output", "json"])
        XCTAssertEqual(report.status, 0, report.stderr)
        XCTAssertFalse(report.stdout.contains(profileName) || report.stdout.contains(recipient))
        XCTAssertTrue(report.stdout.contains("Profile"), "the flow is still reported")
        // Two journals, two keys: diff sees the private values as hashed on both sides, not as changes.
        let diff = try Product.navlog.run(["diff", journals[0], journals[1]])
        XCTAssertEqual(diff.status, 0, diff.stdout + diff.stderr)
        XCTAssertFalse(diff.stdout.contains(profileName) || diff.stdout.contains(recipient))
        XCTAssertEqual(try Product.navlog.run(["verify", journals[0]]).status, 0)
        let keyFile = try String(contentsOfFile: journals[0] + "/.navlog.privacy-key", encoding: .utf8)
        XCTAssertFalse(shown.stdout.contains(keyFile.trimmingCharacters(in: .whitespacesAndNewlines)), "show never prints the key")
    }

    func testRemoveModeAndBadRules() throws {
        let directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
        let scripts = try writeScripts(in: directory)
        let journal = directory.appendingPathComponent("removed").path
        let run = try Product.navlog.run(["run", "--script", scripts.tabs, "--journal", journal, "--redact-mode", "remove"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let events = try [Event](jsonLines: try Product.navlog.run(["show", journal, "-o", "json"]).stdout)
        let entered = try XCTUnwrap(events.first { $0.kind == .action && $0.payload["element"] == "profile-name" })
        XCTAssertNil(entered.payload["value"])
        XCTAssertEqual(entered.payload["redacted"], ["value"])
        XCTAssertFalse(events.contains { $0.payload.serialized().contains("hmac:") })

        let bad = try Product.navlog.run(["run", "--script", scripts.tabs, "--journal", journal, "--redact", "email"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertEqual(bad.stderr, "navlog run: option '--redact': redaction rule 'email' must be ViewModelType.field (such as ProfileViewModel.email), action.value:ELEMENT, deeplink.url or error.message\nSee 'navlog run --help'.\n")
    }

    /// `--redact deeplink.url` keeps a link's token out of the journal: from the `deeplink`
    /// event and from the message of the error it failed with; routes still count in the report.
    func testDeepLinkURLsStayOutOfTheJournalWithTheirRule() throws {
        let directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
        let token = "tok-9f8e7d6c5b4a"
        let script = directory.appendingPathComponent("links.scenario")
        try """
            app tabs
            deeplink tabs://settings/profile
            deeplink tabs://reset-password?token=\(token)
            """.write(to: script, atomically: true, encoding: .utf8)
        let journal = directory.appendingPathComponent("journal").path
        let run = try Product.navlog.run(["run", "--script", script.path, "--journal", journal, "--redact", "deeplink.url"])
        XCTAssertEqual(run.status, 1, "the second link cannot be reached: " + run.stdout + run.stderr)
        let shown = try Product.navlog.run(["show", journal, "-o", "json"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertFalse(shown.stdout.contains(token), shown.stdout)
        XCTAssertFalse(shown.stdout.contains("tabs://"), "no URL in clear")
        let events = try [Event](jsonLines: shown.stdout)
        let links = events.filter { $0.kind == .deepLink }
        XCTAssertEqual(links.count, 2)
        XCTAssertTrue(links.allSatisfy { $0.payload["url"]?.stringValue?.hasPrefix("hmac:") == true }, "\(links.map(\.payload))")
        let failure = try XCTUnwrap(events.first { $0.kind == .error })
        XCTAssertEqual(failure.payload["code"], "unreachable_deeplink")
        XCTAssertTrue(failure.payload["message"]?.stringValue?.hasPrefix("hmac:") == true, "\(failure.payload)")
        XCTAssertTrue(events.contains { $0.kind == .screenPush || $0.kind == .tabSelect }, "the first link still navigated")
        let report = try Product.navlog.run(["report", journal, "-o", "json"])
        XCTAssertEqual(report.status, 0, report.stderr)
        XCTAssertFalse(report.stdout.contains(token))
    }
}
