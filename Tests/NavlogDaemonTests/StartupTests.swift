import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

/// What operators see of a start: the startup line names the version and the pid, and a start
/// that cannot bind its TCP port fails naming the port and leaves no socket file or journal
/// behind.
final class StartupTests: XCTestCase {
    func testStartupLineNamesTheVersionAndThePid() throws {
        let daemon = try DaemonHarness(self)
        let line = try XCTUnwrap(daemon.waitForLog(containing: "msg=listening"))
        XCTAssertTrue(line.contains(" version=0.1.0 "), line)
        XCTAssertTrue(line.contains(" pid=\(daemon.process.processIdentifier) "), line)
    }

    /// A listening TCP socket on loopback, held by the test; its port is the one in use.
    private func occupyPort() throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(descriptor, 1), 0)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        addTeardownBlock { close(descriptor) }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Runs navlogd in `directory` with its socket there and its journal at `journal` (relative),
    /// on `port`; returns its result.
    private func start(in directory: URL, journal: String, port: Int) throws -> ProcessResult {
        let configuration: JSONValue = [
            "listen": ["unix_socket": "navlogd.sock", "tcp": ["host": "127.0.0.1", "port": .int(Int64(port))]],
            "journal": ["directory": .string(journal)],
        ]
        try configuration.serialized().write(to: directory.appendingPathComponent("navlogd.json"), atomically: true, encoding: .utf8)
        return try Product.navlogd.run(["--config", "navlogd.json"], in: directory)
    }

    func testAFailedBindLeavesNoSocketNorJournalBehind() throws {
        let directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
        let (_, port) = try occupyPort()
        let result = try start(in: directory, journal: "state/journal", port: port)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stderr.split(separator: "\n").last.map(String.init),
                       "navlogd: cannot listen: bind 127.0.0.1:\(port): Address already in use; stop what holds port \(port) or choose another listen.tcp.port")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), ["navlogd.json"])
    }

    func testAFailedBindKeepsTheJournalsThatWereThere() throws {
        let directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
        let journal = directory.appendingPathComponent("journal")
        let explore = try Product.navlog.run(["explore", "articles", "--steps", "5", "--journal", journal.path])
        XCTAssertLessThanOrEqual(explore.status, 1, explore.stderr)
        let before = try FileManager.default.contentsOfDirectory(atPath: journal.path).sorted()
        let events = try Product.navlog.run(["show", journal.path, "-o", "json"]).stdout
        let (_, port) = try occupyPort()
        let result = try start(in: directory, journal: "journal", port: port)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("bind 127.0.0.1:\(port): Address already in use"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), ["journal", "navlogd.json"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: journal.path).sorted(), before)
        XCTAssertEqual(try Product.navlog.run(["show", journal.path, "-o", "json"]).stdout, events)
    }
}
