import Foundation
import NavlogTestSupport
import XCTest

/// `navlogd`'s own command line: `--help` in the layout of `navlog --help`, `--version`, and
/// refusing what it does not know, all through the built binary.
final class CommandLineTests: XCTestCase {
    func testHelpIsPinnedInNavlogsLayout() throws {
        for flag in ["--help", "-h"] {
            let result = try Product.navlogd.run([flag])
            XCTAssertEqual(result.status, 0, flag)
            XCTAssertEqual(result.stderr, "", flag)
            XCTAssertEqual(result.stdout, """
                OVERVIEW: Host navigation sessions behind an HTTP API and journal every event.

                Signals: SIGTERM/SIGINT drain and stop; SIGHUP rotates the journal and reloads the configuration.
                Exit codes: 0 stopped cleanly (or a valid --check-config), 2 it could not run, 64 bad arguments or a bad configuration. See docs/DAEMON.md.

                USAGE: navlogd [options]

                OPTIONS:
                  --config FILE             The JSON configuration. (default: the embedded Config/navlogd.json)
                  --check-config            Validate the configuration, print nothing, and exit 0 (or 64).
                  --print-default-config    Print the embedded default configuration and exit.
                  --version                 Print the version and exit.
                  -h, --help                Show help information.

                """, flag)
        }
    }

    func testHelpEndsWithTheSameHelpRowAsNavlogs() throws {
        let daemon = try Product.navlogd.run(["--help"]).stdout.split(separator: "\n")
        let cli = try Product.navlog.run(["--help"]).stdout.split(separator: "\n")
        XCTAssertEqual(daemon.first { $0.hasPrefix("  -h, --help") }, cli.first { $0.hasPrefix("  -h, --help") })
    }

    func testVersionIsNavlogsVersion() throws {
        let daemon = try Product.navlogd.run(["--version"])
        XCTAssertEqual(daemon.status, 0)
        XCTAssertEqual(daemon.stdout, "navlogd 0.1.0\n")
        let cli = try Product.navlog.run(["--version"])
        XCTAssertEqual(cli.stdout, "navlog 0.1.0\n")
    }

    func testUnknownArgumentsAreRefusedByName() throws {
        let option = try Product.navlogd.run(["--verison"])
        XCTAssertEqual(option.status, 64)
        XCTAssertEqual(option.stdout, "")
        XCTAssertEqual(option.stderr, "navlogd: unknown option '--verison'\nSee 'navlogd --help'.\n")
        let argument = try Product.navlogd.run(["serve"])
        XCTAssertEqual(argument.status, 64)
        XCTAssertEqual(argument.stderr, "navlogd: unexpected argument 'serve'\nSee 'navlogd --help'.\n")
        let missing = try Product.navlogd.run(["--config"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertEqual(missing.stderr, "navlogd: option '--config' needs a value (FILE)\nSee 'navlogd --help'.\n")
    }
}
