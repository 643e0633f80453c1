import Foundation
import NavlogEvents
import NavlogJournal
import NavlogTestSupport
import XCTest

/// Journals the export tests read, recorded by the built `navlog`.
enum ExportTestSupport {
    /// Runs `navlog` and fails the test unless it exits 0; returns stdout.
    static func export(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try Product.navlog.run(arguments)
        XCTAssertEqual(result.status, 0, "navlog \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result.stdout
    }

    // MARK: - Journals

    /// Scenarios whose loads go the ways the report tells apart: abandoned (the user leaves
    /// while the list loads), failed and empty. (A load still running at the end is censored
    /// only in a session that recorded some screen.ready: see ``LoadFixture``.)
    static let loadScenarios: [(name: String, script: String)] = [
        ("abandoned", "app articles latency_ms=800\nwait 200ms\ntap open-bookmarks\nwait 1s\nback\nwait 500ms\n"),
        ("failed", "app articles latency_ms=500 failure_rate=0.5 seed=3\nwait 1500ms\ntap retry\nwait 500ms\ntap open-bookmarks\nwait 300ms\n"),
        ("empty", "app content-list latency_ms=300 dataset=empty\nwait 1s\n"),
        ("covered", "app content-list latency_ms=2000\ntap open-filter\nwait 300ms\ndismiss\nwait 500ms\n"),
    ]

    /// A journal of the seed scenarios and ``loadScenarios`` (one run each) and of seeded random
    /// walks over two apps (several sessions each, interleaved), recorded once per test process.
    static let seedJournal: String = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("navlog-export-seed-\(UUID().uuidString)").path
        let scenarios = (try? FileManager.default.contentsOfDirectory(atPath: Repository.url("Config/scenarios").path)) ?? []
        for scenario in scenarios.filter({ $0.hasSuffix(".scenario") }).sorted() {
            _ = try? Product.navlog.run(["run", "--script", "Config/scenarios/\(scenario)", "--journal", directory, "--label", "scenario=\(scenario)"])
        }
        for (name, script) in loadScenarios {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("navlog-export-\(name)-\(UUID().uuidString).scenario")
            try? script.write(to: file, atomically: true, encoding: .utf8)
            _ = try? Product.navlog.run(["run", "--script", file.path, "--journal", directory, "--label", "scenario=\(name)"])
            try? FileManager.default.removeItem(at: file)
        }
        for app in ["master-detail", "tabs"] {
            // Explorer findings exit 1; the journal is what matters here.
            _ = try? Product.navlog.run(["explore", app, "--seed", "11", "--steps", "30", "--sessions", "6", "--journal", directory, "--label", "explore=\(app)"])
        }
        return directory
    }()

    /// Every event of `path`, in seq order.
    static func events(in path: String) throws -> [Event] {
        try JournalReader(paths: [path]).allEvents()
    }

    /// Writes `events` into a fresh journal directory and returns its path.
    static func writeJournal(_ events: [Event], test: XCTestCase) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("navlog-export-\(UUID().uuidString)").path
        test.addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, labels: ["case": "leak"]))
        for event in events { writer.record(event) }
        try writer.close()
        return directory
    }
}
