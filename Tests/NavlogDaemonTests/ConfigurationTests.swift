import Foundation
import NavlogDaemon
import NavlogHost
import NavlogRuntime
import NavlogTestSupport
import XCTest

/// Parsing and validating `navlogd` configurations, and refusing bad ones before anything starts.
final class ConfigurationTests: XCTestCase {
    /// A catalog with the sample apps' names and parameters, without linking them.
    static let catalog = AppCatalog.sampleSignatures

    func testEmbeddedDefaultIsConfigNavlogdJSON() throws {
        let file = try String(contentsOf: Repository.url("Config/navlogd.json"), encoding: .utf8)
        XCTAssertEqual(DaemonConfiguration.defaultText, file)
    }

    func testMissingKeysTakeTheDocumentedDefaults() throws {
        var documented = try DaemonConfiguration(parsing: DaemonConfiguration.defaultText, catalog: Self.catalog)
        XCTAssertEqual(documented.apps?.map(\.name), ["master-detail", "articles", "tabs", "content-list"])
        XCTAssertEqual(documented.apps?.first?.parameters, ["detail_style": "push"])
        documented.apps = nil
        XCTAssertEqual(try DaemonConfiguration(parsing: "{}", catalog: Self.catalog), documented)
    }

    func testBadValuesAreRefusedWithTheirKeyPath() {
        let cases: [(text: String, message: String)] = [
            (#"{"journal": {"flush_interval_ms": "fast"}}"#, #"journal.flush_interval_ms: must be a positive integer, got "fast""#),
            (#"{"journal": {"flush_interval_ms": 0}}"#, "journal.flush_interval_ms: must be a positive integer, got 0"),
            (#"{"journal": {"overflow": "spill"}}"#, #"journal.overflow: must be "block" or "drop", got "spill""#),
            (#"{"log": {"access": "yes"}}"#, #"log.access: must be true or false, got "yes""#),
            (#"{"log": {"acces": true}}"#, "log.acces: unknown key; known keys here: access"),
            (#"{"journal": {"flush_interval": 100}}"#, "journal.flush_interval: unknown key; known keys here: batch_size, directory, durability, flush_interval_ms, "
                + "overflow, queue_capacity, retention_age_s, retention_bytes, rotate_age_s, rotate_bytes"),
            (#"{"listen": {"tcp": {"host": "example.org"}}}"#, #"listen.tcp.host: must be an IPv4 address such as 127.0.0.1, got "example.org""#),
            (#"{"listen": {"tcp": {"port": 70000}}}"#, "listen.tcp.port: must be a port from 0 to 65535, got 70000"),
            (#"{"listen": {"unix_socket": null, "tcp": null}}"#, "listen: needs a unix_socket, a tcp address, or both"),
            (#"{"listen": {"tcp": {"host": "0.0.0.0", "port": 7878}}}"#, "auth.token: is required because listen.tcp.host 0.0.0.0 is beyond loopback; "
                + "set auth.token or auth.token_file, or listen on 127.0.0.1"),
            (#"{"auth": {"token": "short"}}"#, "auth.token: must be at least 16 characters without spaces"),
            (#"{"limits": {"max_sessions": -1}}"#, "limits.max_sessions: must be a positive integer, got -1"),
            (#"{"limits": {"close_timeout_s": 0}}"#, "limits.close_timeout_s: must be a positive integer, got 0"),
            (#"{"limits": {"close_timeout_s": 3601}}"#, "limits.close_timeout_s: must be a positive integer (at most 3600), got 3601"),
            (#"{"ingest": {"idempotency_max_bytes": 0}}"#, "ingest.idempotency_max_bytes: must be a positive integer, got 0"),
            (#"{"ingest": {"idempotency_max_bytes": 1099511627777}}"#, "ingest.idempotency_max_bytes: must be a positive integer (at most 1099511627776), got 1099511627777"),
            (#"{"listen": {"tcp": {"host": "127.0.0.1", "port": 70000}}}"#, "listen.tcp.port: must be a port from 0 to 65535, got 70000"),
            (#"{"apps": {"chess": {}}}"#, "apps.chess: unknown app; apps: master-detail, articles, tabs, content-list"),
            (#"{"apps": {"tabs": {"enabled": "yes"}}}"#, #"apps.tabs.enabled: must be true or false, got "yes""#),
            (#"{"apps": {"tabs": {"parameters": {"start_tab": "inbox"}}}}"#,
             "apps.tabs.parameters: app 'tabs': parameter 'start_tab' must be one of dashboard, settings, not 'inbox'"),
            (#"{"labels": {"team": 7}}"#, "labels.team: must be a string"),
            (#"{"journal": 5}"#, "journal: must be an object, got 5"),
            (#"{"journal": "#, "not valid JSON: invalid JSON at byte 12: unexpected end of input"),
        ]
        for item in cases {
            XCTAssertThrowsError(try DaemonConfiguration(parsing: item.text, catalog: Self.catalog), item.text) { error in
                XCTAssertEqual("\(error)", item.message)
            }
        }
    }

    func testConfigurationErrorExits64BeforeAnythingStarts() throws {
        let directory = NSTemporaryDirectory() + "navlogd-config-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/navlogd.json"
        try #"{"journal": {"directory": "\#(directory)/journal"}, "listen": {"tcp": {"host": "10.0.0.1", "port": 7878}, "unix_socket": null}}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let result = try runTool(productPath("navlogd"), ["--config", path])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stderr, "navlogd: \(path): auth.token: is required because listen.tcp.host 10.0.0.1 is beyond loopback; "
            + "set auth.token or auth.token_file, or listen on 127.0.0.1\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/journal"))
        XCTAssertEqual(try runTool(productPath("navlogd"), ["--check-config"]).status, 0)
        XCTAssertEqual(try runTool(productPath("navlogd"), ["--print-default-config"]).stdout, DaemonConfiguration.defaultText)
    }
}
