import Foundation
import NavlogTestSupport
import XCTest

/// Finds Graphviz's `dot` for tests, installing the `graphviz` Debian package when it is
/// missing and the test runs as root with apt; skips only when neither works.
enum GraphvizTool {
    /// Returns the path of `dot`.
    static func dot() throws -> String {
        if let path = find() { return path }
        if getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/apt-get") {
            _ = try? runTool("/usr/bin/env", ["DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq", "graphviz"])
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
}
