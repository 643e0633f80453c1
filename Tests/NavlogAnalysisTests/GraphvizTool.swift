import Foundation
import XCTest

/// Finds Graphviz's `dot` for tests, installing the `graphviz` Debian package when it is
/// missing and the test runs as root with apt; skips only when neither works.
enum GraphvizTool {
    struct Result {
        var status: Int32
        var output: String
        var error: String
    }

    /// Returns the path of `dot`.
    static func dot() throws -> String {
        if let path = find() { return path }
        if getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/apt-get") {
            _ = try? run("/usr/bin/env", arguments: ["DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq", "graphviz"], input: "")
        }
        guard let path = find() else {
            throw XCTSkip("Graphviz `dot` is not installed and could not be installed (apt-get install graphviz)")
        }
        return path
    }

    private static func find() -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return (directories.map(String.init) + ["/usr/bin", "/usr/local/bin"])
            .map { "\($0)/dot" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `executable` with `input` on standard input and waits for it to exit.
    static func run(_ executable: String, arguments: [String], input: String) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        // Read the pipes to the end before waiting; dot's diagnostics are short.
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let error = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self), error: String(decoding: error, as: UTF8.self))
    }
}
