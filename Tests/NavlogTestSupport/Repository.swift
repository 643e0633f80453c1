import Foundation
import XCTest

/// The package's checkout, for the files tests read: `Config/`, `docs/`, `README.md` and the
/// committed fixtures under `Tests/Fixtures/`.
public enum Repository {
    /// The directory holding `Package.swift`.
    public static let root: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }()

    /// The committed fixtures, `Tests/Fixtures/`.
    public static let fixtures = root.appendingPathComponent("Tests/Fixtures")

    /// Returns the URL of `path`, relative to the root.
    public static func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    /// Returns the text of the file at `path`, relative to the root.
    public static func text(_ path: String) throws -> String {
        try String(contentsOf: url(path), encoding: .utf8)
    }
}

/// Where storage tests run: a directory on disk, and one in memory (tmpfs, `/dev/shm`).
public enum StorageRoot: String, CaseIterable, Sendable {
    case disk
    case memory

    /// The directory new temporary directories go in.
    public var base: String {
        switch self {
        case .disk: return NSTemporaryDirectory()
        case .memory: return FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        }
    }
}

/// Returns a fresh, empty directory, removed when `test` ends.
///
/// Its name holds `name` (the test's, by default), the process and a random number. Keep
/// `name` short where a daemon puts its Unix socket inside: a socket path has 107 bytes.
public func makeTemporaryDirectory(_ test: XCTestCase, root: StorageRoot = .disk, name: String = #function) -> String {
    let safe = name.filter { $0.isLetter || $0.isNumber || $0 == "-" }
    let path = root.base + "/navlog-tests-\(safe)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try? FileManager.default.removeItem(atPath: path)
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    return path
}
