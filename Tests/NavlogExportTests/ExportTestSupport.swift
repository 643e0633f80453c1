import Foundation
import NavlogEvents
import NavlogJournal
import XCTest

/// What a run of a child process did.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the built `navlog`, and Python for the checks that need the official OTLP definitions.
enum ExportTestSupport {
    /// The directory holding the built products (the test bundle runs from there).
    static let productsDirectory: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.lastPathComponent.hasSuffix(".xctest") || directory.path.contains(".xctest/") {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }()

    /// The package root, for Config/.
    static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }()

    /// Runs `navlog` with `arguments` from the package root.
    static func navlog(_ arguments: [String]) throws -> ProcessResult {
        try run(productsDirectory.appendingPathComponent("navlog").path, arguments)
    }

    /// Runs `python3` on `script` with `arguments`.
    static func python(_ script: String, _ arguments: [String] = []) throws -> ProcessResult {
        try run("/usr/bin/env", ["python3", "-c", script] + arguments)
    }

    /// Runs a program and waits for it; stdout and stderr go through files, so neither pipe can
    /// fill up and stall the child.
    static func run(_ executable: String, _ arguments: [String]) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("export-out-\(UUID().uuidString)")
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("export-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        let output = try FileHandle(forWritingTo: outputFile)
        let error = try FileHandle(forWritingTo: errorFile)
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try output.close()
        try error.close()
        return ProcessResult(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self)
        )
    }

    /// Runs `navlog` and fails the test unless it exits 0; returns stdout.
    static func export(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try navlog(arguments)
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
        let scenarios = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Config/scenarios").path)) ?? []
        for scenario in scenarios.filter({ $0.hasSuffix(".scenario") }).sorted() {
            _ = try? navlog(["run", "--script", "Config/scenarios/\(scenario)", "--journal", directory, "--label", "scenario=\(scenario)"])
        }
        for (name, script) in loadScenarios {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("navlog-export-\(name)-\(UUID().uuidString).scenario")
            try? script.write(to: file, atomically: true, encoding: .utf8)
            _ = try? navlog(["run", "--script", file.path, "--journal", directory, "--label", "scenario=\(name)"])
            try? FileManager.default.removeItem(at: file)
        }
        for app in ["master-detail", "tabs"] {
            // Explorer findings exit 1; the journal is what matters here.
            _ = try? navlog(["explore", app, "--seed", "11", "--steps", "30", "--sessions", "6", "--journal", directory, "--label", "explore=\(app)"])
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

    /// Makes sure Python can import the official OTLP protobuf definitions, installing them
    /// (`python3 -m pip install opentelemetry-proto protobuf`) the first time if needed.
    static let pythonHasOTLP: Result<Void, PythonSetupError> = {
        let probe = "import google.protobuf, opentelemetry.proto.collector.trace.v1.trace_service_pb2"
        if (try? python(probe))?.status == 0 { return .success(()) }
        let install = try? run("/usr/bin/env", ["python3", "-m", "pip", "install", "--quiet", "opentelemetry-proto", "protobuf"])
        if (try? python(probe))?.status == 0 { return .success(()) }
        return .failure(PythonSetupError(message: "python3 cannot import opentelemetry-proto; run: python3 -m pip install opentelemetry-proto protobuf (\(install?.stderr ?? "no pip"))"))
    }()
}

struct PythonSetupError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
