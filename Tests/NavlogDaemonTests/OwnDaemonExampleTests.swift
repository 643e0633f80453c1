import Foundation
import NavlogDaemon
import NavlogEvents
import NavlogHost
import NavlogJournal
import NavlogTestSupport
import XCTest

/// The "your own daemon" example of docs/DAEMON.md: the same code, and it works.
final class OwnDaemonExampleTests: XCTestCase {
    func testDocumentedExampleIsThisCode() throws {
        let root = Repository.root
        let document = try String(contentsOf: root.appendingPathComponent("docs/DAEMON.md"), encoding: .utf8)
        let source = try String(contentsOf: root.appendingPathComponent("Tests/NavlogDaemonTests/OwnDaemonExample.swift"), encoding: .utf8)
        let block = try XCTUnwrap(document.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "```\n").first)
        XCTAssertEqual(block, source)
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = "<!-- Tests/NavlogDaemonTests/OwnDaemonExample.swift -->\n```swift\n"
        let inReadme = try XCTUnwrap(readme.components(separatedBy: marker).dropFirst().first?.components(separatedBy: "```\n").first)
        XCTAssertEqual(inReadme, source, "README.md shows a different own-daemon example")
    }

    func testExampleDaemonServesItsApp() async throws {
        let catalog = try AppCatalog([MyDaemon.greeter])
        var configuration = try DaemonConfiguration(parsing: MyDaemon.defaultConfiguration, catalog: catalog)
        XCTAssertEqual(configuration.labels, ["service": "my-daemon"])
        let directory = "/tmp/nld-example-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        configuration.journal.directory = directory + "/journal"
        configuration.listen.unixSocket = directory + ".sock"
        let daemon = Daemon(configuration: configuration, catalog: catalog, log: Logger(minimumLevel: .warn))
        let endpoints = try await daemon.start()
        let connection = try DaemonClient(unixSocket: try XCTUnwrap(endpoints.unixSocket))
        XCTAssertEqual(try connection.send("POST", "/v1/sessions", body: Array(#"{"app": "greeter"}"#.utf8)).status, 201)
        let waved = try connection.send("POST", "/v1/sessions/s-1/actions", body: Array(#"{"element": "wave"}"#.utf8))
        XCTAssertEqual(try JSONValue(parsing: Data(waved.body))["state"]?["visible"]?["id"]?.stringValue, "Wave#1")
        try await daemon.stop()
        let kinds = try JournalReader(paths: [directory + "/journal"]).allEvents().map(\.kind.rawValue)
        XCTAssertEqual(kinds.first, "session.start")
        XCTAssertEqual(kinds.last, "session.end")
    }
}
