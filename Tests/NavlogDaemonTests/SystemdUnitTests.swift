import Foundation
import NavlogTestSupport
import XCTest

/// The example systemd unit stays hardened: `systemd-analyze security` scores it, offline, at
/// an exposure of at most 4.0 (it was 8.5 EXPOSED before the sandboxing directives), and keeps
/// the socket under its RuntimeDirectory, where `navlog sessions` looks.
final class SystemdUnitTests: XCTestCase {
    func testTheExampleUnitScoresAnExposureOfAtMostFour() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else {
            throw XCTSkip("systemd-analyze is not installed (Debian's systemd package)")
        }
        let unit = Repository.root.appendingPathComponent("Config/navlogd.service").path
        let result = try runTool("/usr/bin/systemd-analyze", ["security", "--offline=true", "--no-pager", unit])
        let output = result.stdout + result.stderr
        let line = try XCTUnwrap(output.split(separator: "\n").first { $0.contains("Overall exposure level") }, output)
        // "→ Overall exposure level for navlogd.service: 1.2 OK 🙂"
        let score = try XCTUnwrap(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }, String(line))
        XCTAssertLessThanOrEqual(score, 4.0, String(line))
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        XCTAssertTrue(text.contains("RuntimeDirectory=navlogd"))
        XCTAssertTrue(text.contains("/run/navlogd/navlogd.sock"))
    }
}
