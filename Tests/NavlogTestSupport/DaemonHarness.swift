import Foundation
import NavlogEvents
import Synchronization
import XCTest

/// A built `navlogd` running on a temporary directory: a Unix socket, a free TCP port on
/// loopback, and its stderr collected line by line.
public final class DaemonHarness {
    public let directory: String
    public let configurationPath: String
    public let socketPath: String
    public let process = Process()
    private let stderrLines = LineBuffer()
    private let lineArrived = NSCondition()
    public private(set) var tcpPort: Int?

    /// Writes a configuration (the `overrides` sections merged over a test base) and starts
    /// the daemon; waits until it logs that it listens and answers its health check.
    /// `directory` reuses the directory (and journal) of a daemon that stopped.
    public init(_ test: XCTestCase, overrides: [String: JSONValue] = [:], token: String? = nil, directory: String? = nil) throws {
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
    public func writeConfiguration(_ overrides: [String: JSONValue]) throws {
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
    public var log: String { stderrLines.lines.withLock { $0.joined(separator: "\n") } }

    /// Waits (at most 20 s, a bound, not a timing) for a log line containing `text`.
    public func waitForLog(containing text: String) -> String? {
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
    public func request(_ method: String, _ path: String, body: String? = nil, token: String? = nil, overTCP: Bool = false) throws -> (status: Int, body: String) {
        var arguments = ["-s", "-S", "-X", method, "-w", "\n%{http_code}", "--max-time", "20"]
        if overTCP { arguments += ["http://127.0.0.1:\(tcpPort ?? 0)\(path)"] } else { arguments += ["--unix-socket", socketPath, "http://localhost\(path)"] }
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
        let output = try runTool("/usr/bin/curl", arguments)
        let parts = output.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(parts.last ?? "") ?? 0, parts.dropLast().joined(separator: "\n"))
    }

    /// Sends SIGTERM and waits for the exit; returns the exit status.
    public func terminate(signal: Int32 = SIGTERM) -> Int32 {
        kill(process.processIdentifier, signal)
        return waitForExit()
    }

    /// Waits for the daemon to exit (after a signal sent some other way); returns the status.
    public func waitForExit() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The daemon's resident set size in bytes (`VmRSS` in `/proc/PID/status`).
    public func residentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try XCTUnwrap(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }

    /// The journal's events, read with `navlog show --output json`.
    public func journalEvents() throws -> [JSONValue] {
        let output = try runTool(productPath("navlog"), ["show", "--output", "json", directory + "/journal"])
        XCTAssertEqual(output.status, 0, output.stderr)
        return try output.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    }
}

/// The daemon's stderr lines, shared with the pipe's reading thread.
final class LineBuffer: Sendable {
    let lines = Mutex<[String]>([])
}

/// The JSON value of a response body.
public func json(_ body: String) throws -> JSONValue { try JSONValue(parsing: body) }
