import Foundation
import NavlogDaemon
import NavlogEvents
import Synchronization
import XCTest

/// A built `navlogd` running on a temporary directory: a Unix socket, a free TCP port on
/// loopback, and its stderr collected line by line.
final class DaemonHarness {
    let directory: String
    let configurationPath: String
    let socketPath: String
    let process = Process()
    private let stderrLines = LineBuffer()
    private let lineArrived = NSCondition()
    private(set) var tcpPort: Int?

    /// Writes a configuration (the `overrides` sections merged over a test base) and starts
    /// the daemon; waits until it logs that it listens and answers its health check.
    /// `directory` reuses the directory (and journal) of a daemon that stopped.
    init(_ test: XCTestCase, overrides: [String: JSONValue] = [:], token: String? = nil, directory: String? = nil) throws {
        self.directory = directory ?? "/tmp/nld-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: self.directory, withIntermediateDirectories: true)
        configurationPath = self.directory + "/navlogd.json"
        socketPath = self.directory + "/navlogd.sock"
        try writeConfiguration(overrides)
        process.executableURL = URL(fileURLWithPath: productPath("navlogd"))
        process.arguments = ["--config", configurationPath]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        errors.fileHandleForReading.readabilityHandler = { [stderrLines, lineArrived] handle in
            let data = handle.availableData
            guard !data.isEmpty else { handle.readabilityHandler = nil; return }
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            stderrLines.lines.withLock { $0 += lines }
            // Under the condition's lock: waitForLog checks the lines and waits under it, so
            // a line cannot arrive between its check and its wait unheard.
            lineArrived.lock()
            lineArrived.broadcast()
            lineArrived.unlock()
        }
        try process.run()
        test.addTeardownBlock { [process, directory = self.directory] in
            if process.isRunning { process.terminate(); process.waitUntilExit() }
            try? FileManager.default.removeItem(atPath: directory)
        }
        let listening = try XCTUnwrap(waitForLog(containing: "msg=listening"), "navlogd did not start:\n\(log)")
        if let range = listening.range(of: #"tcp=127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
            tcpPort = Int(listening[range].split(separator: ":").last!)
        }
        XCTAssertEqual(try request("GET", "/v1/health", token: token).status, 200)
    }

    /// Writes the test base configuration with `overrides` replacing whole sections.
    func writeConfiguration(_ overrides: [String: JSONValue]) throws {
        var document: [String: JSONValue] = [
            "journal": ["directory": .string(directory + "/journal"), "flush_interval_ms": 50],
            "listen": ["unix_socket": .string(socketPath), "tcp": ["host": "127.0.0.1", "port": 0]],
            "apps": ["master-detail": ["parameters": ["detail_style": "push"]], "tabs": [:]],
        ]
        for (key, value) in overrides { document[key] = value }
        try JSONValue.object(document).serialized().write(toFile: configurationPath, atomically: true, encoding: .utf8)
    }

    // MARK: - Logs

    /// Everything the daemon logged so far.
    var log: String { stderrLines.lines.withLock { $0.joined(separator: "\n") } }

    /// Waits (at most 20 s, a bound, not a timing) for a log line containing `text`.
    func waitForLog(containing text: String) -> String? {
        let deadline = Date().addingTimeInterval(20)
        lineArrived.lock()
        defer { lineArrived.unlock() }
        while true {
            if let line = stderrLines.lines.withLock({ $0.first { $0.contains(text) } }) { return line }
            guard lineArrived.wait(until: deadline) else { return nil }
        }
    }

    // MARK: - Requests

    /// Sends a request with curl over the Unix socket (or TCP) and returns the status and body.
    @discardableResult
    func request(_ method: String, _ path: String, body: String? = nil, token: String? = nil, overTCP: Bool = false) throws -> (status: Int, body: String) {
        var arguments = ["-s", "-S", "-X", method, "-w", "\n%{http_code}", "--max-time", "20"]
        if overTCP { arguments += ["http://127.0.0.1:\(tcpPort ?? 0)\(path)"] } else { arguments += ["--unix-socket", socketPath, "http://localhost\(path)"] }
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
        let output = try runTool("/usr/bin/curl", arguments)
        let parts = output.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(parts.last ?? "") ?? 0, parts.dropLast().joined(separator: "\n"))
    }

    /// Sends SIGTERM and waits for the exit; returns the exit status.
    func terminate(signal: Int32 = SIGTERM) -> Int32 {
        kill(process.processIdentifier, signal)
        return waitForExit()
    }

    /// Waits for the daemon to exit (after a signal sent some other way); returns the status.
    func waitForExit() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The daemon's resident set size in bytes (`VmRSS` in `/proc/PID/status`).
    func residentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try XCTUnwrap(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }

    /// The journal's events, read with `navlog show --output json`.
    func journalEvents() throws -> [JSONValue] {
        let output = try runTool(productPath("navlog"), ["show", "--output", "json", directory + "/journal"])
        XCTAssertEqual(output.status, 0, output.stderr)
        return try output.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    }
}

/// The daemon's stderr lines, shared with the pipe's reading thread.
final class LineBuffer: Sendable {
    let lines = Mutex<[String]>([])
}

// MARK: - Processes

/// Runs `path` with `arguments` to completion; returns its status and output.
func runTool(_ path: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
}

/// Returns the path of an executable built next to the test bundle.
func productPath(_ name: String) -> String {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        directory = directory.deletingLastPathComponent()
    }
    return Bundle.main.bundleURL.appendingPathComponent(name).path
}

/// The JSON object of a response body.
func json(_ body: String) throws -> JSONValue { try JSONValue(parsing: body) }
