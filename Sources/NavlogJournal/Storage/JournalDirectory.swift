import Foundation

/// The files of a journal directory: naming, listing, locking, setting aside and retention.
enum JournalDirectory {
    /// The extension of journal files.
    static let fileExtension = "navlog"
    /// The suffix of files set aside because they were not closed cleanly.
    static let uncleanSuffix = ".unclean.navlog"

    /// Returns the name of a new file: `navlog-<first seq, 16 digits>-<UTC time>.navlog`, so names
    /// sort in seq order.
    static func makeFileName(firstSeq: UInt64, wallNanoseconds: Int64) -> String {
        let digits = String(firstSeq)
        let padded = String(repeating: "0", count: max(0, 16 - digits.count)) + digits
        let time = String(formatCompactTime(wallNanoseconds))
        return "navlog-\(padded)-\(time).\(fileExtension)"
    }

    /// Returns the `.navlog` files directly inside `directory`, sorted by name.
    static func listFiles(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix("." + fileExtension) }.sorted().map { directory + "/" + $0 }
    }

    /// Whether `path` was set aside as not closed cleanly.
    static func isSetAside(_ path: String) -> Bool { path.hasSuffix(uncleanSuffix) }

    /// Returns the size of `path` in bytes, 0 when it does not exist.
    static func fileSize(_ path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }

    /// Returns the bytes free for an unprivileged writer on the volume holding `path`
    /// (`statvfs`), nil when it cannot be read.
    static func availableBytes(_ path: String) -> Int64? {
        var status = statvfs()
        guard statvfs(path, &status) == 0 else { return nil }
        return Int64(status.f_bavail) * Int64(status.f_frsize)
    }

    /// Renames `path` and its `-wal` and `-shm` companions to the unclean name; returns the new path.
    ///
    /// A file set aside earlier may already have that name (two killed runs that committed
    /// nothing start at the same seq within the same second): the new one then gets `-2`,
    /// `-3`…, so no set-aside file is ever replaced.
    static func setAside(_ path: String) throws -> String {
        let base = String(path.dropLast(fileExtension.count + 1))
        var target = base + uncleanSuffix
        var attempt = 1
        while ["", "-wal", "-shm"].contains(where: { FileManager.default.fileExists(atPath: target + $0) }) {
            attempt += 1
            target = base + "-\(attempt)" + uncleanSuffix
        }
        for suffix in ["-wal", "-shm", ""] where FileManager.default.fileExists(atPath: path + suffix) {
            guard rename(path + suffix, target + suffix) == 0 else {
                throw JournalError.fileSystem(path: path + suffix, operation: "setting aside", reason: String(cString: strerror(errno)))
            }
        }
        return target
    }

    /// Deletes `path` and its companions.
    static func delete(_ path: String) {
        for suffix in ["-wal", "-shm", "-journal", ""] { unlink(path + suffix) }
    }

    // MARK: - Locking

    /// The lock file of `directory`.
    static func lockPath(_ directory: String) -> String { directory + "/.navlog.lock" }

    /// Takes the directory's writer lock (`flock` on `.navlog.lock`); returns the descriptor to keep open.
    static func lock(_ directory: String) throws -> Int32 {
        let lockPath = lockPath(directory)
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw JournalError.fileSystem(path: lockPath, operation: "opening", reason: String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            Glibc.close(descriptor)
            throw JournalError.directoryLocked(path: directory)
        }
        return descriptor
    }

    /// Creates `directory` and its parents when missing; the error names the path and the
    /// system's reason ("Read-only file system", "Permission denied").
    static func create(_ directory: String) throws {
        var current = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0, errno != EEXIST {
                throw JournalError.fileSystem(path: directory, operation: "creating", reason: String(cString: strerror(errno)))
            }
        }
    }

    // MARK: - Time

    /// Formats wall time as `20261201T100000Z`.
    /// When the file at `path` was created, from the time ``makeFileName(firstSeq:wallNanoseconds:)``
    /// put in its name (to the second, rounded down); nil for a name of another shape.
    static func creationNanoseconds(of path: String) -> Int64? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let parts = name.split(separator: "-", maxSplits: 2)
        guard parts.count == 3, parts[0] == "navlog" else { return nil }
        let time = Array(parts[2].utf8.prefix(16))
        guard time.count == 16, time[8] == UInt8(ascii: "T"), time[15] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var value: Int32 = 0
            for byte in time[range] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int32(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8), let hour = number(9..<11),
              let minute = number(11..<13), let second = number(13..<15),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fields = tm()
        fields.tm_year = year - 1900
        fields.tm_mon = month - 1
        fields.tm_mday = day
        fields.tm_hour = hour
        fields.tm_min = minute
        fields.tm_sec = second
        let seconds = timegm(&fields)
        return seconds == -1 ? nil : Int64(seconds) * 1_000_000_000
    }

    private static func formatCompactTime(_ nanoseconds: Int64) -> String {
        var time = time_t(nanoseconds / 1_000_000_000)
        var parts = tm()
        gmtime_r(&time, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))\(pad(parts.tm_mon + 1, 2))\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2))\(pad(parts.tm_min, 2))\(pad(parts.tm_sec, 2))Z"
    }
}
