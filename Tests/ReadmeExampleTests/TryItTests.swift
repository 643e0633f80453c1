import Foundation
import NavlogTestSupport
import XCTest

/// The README's "Try it" block runs top to bottom, as written, in a fresh directory: every
/// command exits 0 under `bash -e` (the built products stand in for `.build/release`, which
/// `swift build -c release` would make), and what it writes is there.
final class TryItTests: XCTestCase {
    func testTheReadmesTryItBlockRunsTopToBottom() throws {
        let readme = try Repository.text("README.md")
        let start = try XCTUnwrap(readme.range(of: "## Try it\n\n```sh\n"), "README.md lost its Try it block")
        let end = try XCTUnwrap(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        let block = readme[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(block.first, "swift build -c release", "the block starts by building")
        guard isPortFree(7878) else { throw XCTSkip("port 7878, the daemon's default, is taken on this machine") }

        let directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("Config"), withDestinationURL: Repository.url("Config"))
        let script = block.dropFirst().map { $0.replacingOccurrences(of: ".build/release/", with: Product.directory.path + "/") }
            .joined(separator: "\n") + "\nwait %1\n"
        try script.write(to: directory.appendingPathComponent("try.sh"), atomically: true, encoding: .utf8)
        let result = try runTool("/usr/bin/timeout", ["180", "/bin/bash", "-e", "try.sh"], in: directory)
        XCTAssertEqual(result.status, 0, "the block stopped:\n" + result.stderr.suffix(2000))

        XCTAssertTrue(result.stdout.contains("1 live session(s) in run r-"), "navlog sessions found the daemon")
        XCTAssertTrue(result.stdout.contains("event_view"), "sqlite3 listed the journal's tables")
        for file in ["report.html", "navlog.baseline.json", "junit.xml", "traces.ndjson"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(file).path)[.size] as? Int) ?? 0
            XCTAssertGreaterThan(size, 0, "\(file) was written")
        }
        XCTAssertTrue(result.stderr.contains("msg=stopped sessions_ended=1"), "navlogd drained and ended its session")
    }

    /// Whether nothing listens on `port` at 127.0.0.1.
    private func isPortFree(_ port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return status == 0
    }
}
