import Foundation

/// What a run of a child process did: its exit status and everything it wrote.
public struct ProcessResult: Sendable, Equatable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// An executable of the package, built next to the test bundle (`navlog`, `navlogd`,
/// `journal-test-child`), that tests run as users do.
///
/// ```swift
/// let result = try Product.navlog.run(["verify", journal])
/// XCTAssertEqual(result.status, 0, result.stderr)
/// ```
public struct Product: Sendable {
    /// The executable's name, as Package.swift declares it.
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public static let navlog = Product("navlog")
    public static let navlogd = Product("navlogd")
    public static let journalTestChild = Product("journal-test-child")

    /// The directory holding the built products (`.build/debug`): the test bundle runs from
    /// there (on macOS from inside the `.xctest` bundle, which is skipped).
    public static let directory: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.lastPathComponent.hasSuffix(".xctest") || directory.path.contains(".xctest/") {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }()

    /// The path of the built executable.
    public var path: String { Self.directory.appendingPathComponent(name).path }

    /// The path of the built dynamic library product `name` (`NavlogSQLite` gives
    /// `.build/debug/libNavlogSQLite.so`), without the file extension, as SQLite's `.load` and
    /// `load_extension` take it.
    public static func libraryPath(_ name: String) -> String {
        directory.appendingPathComponent("lib" + name).path
    }

    /// Runs the executable with `arguments` and waits for it; see ``runTool(_:_:in:environment:input:)``.
    public func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
        try runTool(path, arguments, in: directory, environment: environment)
    }
}

/// Returns the path of the executable `name` built next to the test bundle.
public func productPath(_ name: String) -> String { Product(name).path }

/// Runs `path` with `arguments` to completion and returns its status and output.
///
/// It runs in `directory` (the repository root by default) with `NO_COLOR=1` and `environment`
/// added to the test's own, reading `input` (nothing when nil). Standard input, output and
/// error go through files, so no pipe can fill up and stall the child or the test.
public func runTool(
    _ path: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], input: String? = nil
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.currentDirectoryURL = directory ?? Repository.root
    var variables = ProcessInfo.processInfo.environment
    variables["NO_COLOR"] = "1"
    variables.merge(environment) { _, given in given }
    process.environment = variables
    let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("navlog-out-\(UUID().uuidString)")
    let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("navlog-err-\(UUID().uuidString)")
    let inputFile = FileManager.default.temporaryDirectory.appendingPathComponent("navlog-in-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    defer {
        try? FileManager.default.removeItem(at: outputFile)
        try? FileManager.default.removeItem(at: errorFile)
        try? FileManager.default.removeItem(at: inputFile)
    }
    let output = try FileHandle(forWritingTo: outputFile)
    let error = try FileHandle(forWritingTo: errorFile)
    process.standardOutput = output
    process.standardError = error
    if let input {
        try Data(input.utf8).write(to: inputFile)
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
    } else {
        process.standardInput = FileHandle.nullDevice
    }
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
