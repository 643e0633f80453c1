import Foundation
import NavlogEvents
import XCTest

/// What a run of the built `navlog` binary did.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum CLI {
    /// The directory holding the built products (the test bundle runs from there).
    static let productsDirectory: URL = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        // macOS runs tests from inside the .xctest bundle.
        while directory.lastPathComponent.hasSuffix(".xctest") || directory.path.contains(".xctest/") {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }()

    /// The package root, for Config/ and docs/.
    static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }()

    /// Runs `navlog` with `arguments` in `directory` and waits for it.
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> CommandResult {
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("navlog")
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? packageRoot
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        // stderr goes to a file, so reading stdout to its end cannot deadlock on a full pipe.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("navlog-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let out = Pipe()
        let err = try FileHandle(forWritingTo: errorFile)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try err.close()
        let stderrData = try Data(contentsOf: errorFile)
        return CommandResult(status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self), stderr: String(decoding: stderrData, as: UTF8.self))
    }

    /// A fresh temporary directory, removed when the test ends.
    static func makeTemporaryDirectory(_ test: XCTestCase) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("navlog-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// Parses `navlog show --output json` output into events.
    static func events(fromJSONLines text: String) throws -> [Event] {
        try text.split(separator: "\n").map { try Event(json: try JSONValue(parsing: String($0))) }
    }
}
