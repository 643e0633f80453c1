import Foundation
import XCTest

/// A tmpfs of a few MiB for disk-full tests, mounted on a fresh directory and unmounted (and
/// removed) when the test ends. Mounting needs root: without it the test is skipped, saying so.
///
/// ```swift
/// let volume = try SmallVolume(self, size: "4m")
/// let writer = try JournalWriter(configuration: JournalConfiguration(directory: volume.path + "/journal"))
/// try volume.fill()        // until a write fails: the volume is full
/// try volume.free()        // removes what `fill` wrote
/// ```
public struct SmallVolume: Sendable {
    /// The mount point.
    public let path: String

    /// Mounts a tmpfs of `size` (`mount -t tmpfs -o size=SIZE`, such as `4m`).
    public init(_ test: XCTestCase, size: String) throws {
        path = "/tmp/navlog-volume-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard mount("tmpfs", path, "tmpfs", 0, "size=\(size)") == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: path)
            throw XCTSkip("mounting a tmpfs needs root: \(reason)")
        }
        test.addTeardownBlock { [path] in
            umount2(path, Int32(MNT_DETACH))
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// The filler file of ``fill(_:)`` and ``free(_:)``.
    private func fillerPath(_ name: String) -> String { path + "/" + name }

    /// Writes the file `name` until a write fails, so the volume is full to the last page;
    /// returns the bytes written.
    @discardableResult
    public func fill(_ name: String = "filler") throws -> Int {
        let filler = fillerPath(name)
        if !FileManager.default.fileExists(atPath: filler) {
            guard FileManager.default.createFile(atPath: filler, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: filler])
            }
        }
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: filler))
        defer { try? handle.close() }
        try handle.seekToEnd()
        var written = 0
        // Large chunks first, then single pages for what is left.
        for chunk in [Data(count: 64 << 10), Data(count: 4 << 10)] {
            while (try? handle.write(contentsOf: chunk)) != nil { written += chunk.count }
        }
        return written
    }

    /// Removes the file `name` that ``fill(_:)`` wrote; returns the bytes it held.
    @discardableResult
    public func free(_ name: String = "filler") throws -> Int {
        let filler = fillerPath(name)
        let size = try FileManager.default.attributesOfItem(atPath: filler)[.size] as? Int ?? 0
        try FileManager.default.removeItem(atPath: filler)
        return size
    }

    /// Bytes free on the volume (`statvfs`).
    public var freeBytes: Int {
        var status = statvfs()
        guard statvfs(path, &status) == 0 else { return 0 }
        return Int(status.f_bavail) * Int(status.f_frsize)
    }
}
