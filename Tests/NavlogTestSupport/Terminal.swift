import Foundation

/// Runs `arguments` (a program and its arguments) under script(1), which gives it a
/// pseudo-terminal, and returns what the terminal showed, line endings as `\n`: how tests see
/// progress lines and colours, which are drawn only on a terminal. `TERM` is `xterm` and
/// `NO_COLOR` unset unless `environment` says otherwise; with `discardsStandardOutput` only
/// stderr reaches the terminal.
public func runOnTerminal(_ arguments: [String], environment: [String: String] = [:], discardsStandardOutput: Bool = false) throws -> (output: String, status: Int32) {
    let command = arguments.map { "'\($0)'" }.joined(separator: " ") + (discardsStandardOutput ? " > /dev/null" : "")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["script", "-qec", command, "/dev/null"]
    var env = ProcessInfo.processInfo.environment
    env["TERM"] = "xterm"
    env["NO_COLOR"] = nil
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"), process.terminationStatus)
}
