import Foundation

// MARK: - Files, rotation and retention

extension JournalWriter {
    /// After the current file was found removed: makes the directory again if it is gone,
    /// and puts back what went with it, so the directory stays this writer's and its
    /// pseudonyms stay stable across restarts. The lock moves to a new lock file when the old
    /// one is gone (another writer that took the recreated directory meanwhile makes this
    /// fail, naming the directory), and the privacy key kept in the directory is written
    /// again, the same key, when its file is missing.
    func restoreDirectory() throws {
        let directory = configuration.directory
        try JournalDirectory.create(directory)
        if !FileManager.default.fileExists(atPath: JournalDirectory.lockPath(directory)) {
            let fresh = try JournalDirectory.lock(directory)
            Glibc.close(lockDescriptor)
            lockDescriptor = fresh
        }
        if configuration.privacyKeyFile == nil {
            try JournalDirectory.restorePrivacyKey(privacyKey, directory: directory)
        }
    }

    /// Creates the next file, named after the first seq it will hold (everything before is
    /// committed); removes a half-created file on failure.
    func openNewFile() throws {
        try JournalDirectory.create(configuration.directory)
        let now = configuration.clock.now()
        let name = JournalDirectory.makeFileName(firstSeq: lastCommittedSeq + 1, wallNanoseconds: now.wall)
        var path = configuration.directory + "/" + name
        var attempt = 1
        while FileManager.default.fileExists(atPath: path) {
            attempt += 1
            path = configuration.directory + "/" + name.dropLast(JournalDirectory.fileExtension.count + 1) + "-\(attempt).navlog"
        }
        do {
            fileWriter = try JournalFileWriter(path: path, run: run, firstSeq: lastCommittedSeq + 1, configuration: configuration,
                                               foreignRuns: foreignRuns)
        } catch {
            JournalDirectory.delete(path)
            throw error
        }
    }

    /// Whether the current file holds events and is past its size or age limit.
    func isRotationDue() -> Bool {
        guard let fileWriter, fileWriter.eventCount > 0 else { return false }
        let age = monotonicNow() &- fileWriter.createdMonotonic
        return fileWriter.bytesOnDisk >= configuration.maximumFileBytes
            || age >= UInt64(max(0, configuration.maximumFileAge.nanoseconds))
    }

    /// Closes the current file, applies retention and opens a new one; returns false, doing
    /// nothing, when the current file holds no events.
    func rotateFile() throws -> Bool {
        if let fileWriter, fileWriter.eventCount == 0 { return false }
        if let error = closeFile(isRunEnding: false) { throw error }
        JournalWriter.applyRetention(configuration, now: configuration.clock.now().wall)
        try openNewFile()
        return true
    }

    /// Closes the current file cleanly; returns the error instead of throwing.
    func closeFile(isRunEnding: Bool) -> JournalError? {
        guard let current = fileWriter else { return nil }
        fileWriter = nil
        do {
            try current.close(closedNanoseconds: configuration.clock.now().wall, isRunEnding: isRunEnding)
            return nil
        } catch {
            return JournalError.wrapping(error, path: current.path)
        }
    }

    // MARK: - Opening a directory

    struct DirectoryScan {
        var highestSeq: UInt64 = 0
        var setAside: [String] = []
        var unreadable: [String] = []
    }

    /// Finds the highest seq in `directory` and sets aside files not closed cleanly.
    static func scan(_ directory: String) throws -> DirectoryScan {
        var scan = DirectoryScan()
        for path in JournalDirectory.listFiles(in: directory) {
            do {
                let file = try JournalFile.openForReading(path: path)
                let isClosed = try file.isClosedCleanly()
                if let range = try file.seqRange() { scan.highestSeq = max(scan.highestSeq, range.upperBound) }
                if let last = try file.meta("last_seq").flatMap(UInt64.init) { scan.highestSeq = max(scan.highestSeq, last) }
                file.close()
                if !isClosed && !JournalDirectory.isSetAside(path) {
                    scan.setAside.append(try JournalDirectory.setAside(path))
                }
            } catch {
                scan.unreadable.append("\(error)")
            }
        }
        return scan
    }

    /// Deletes closed files past the retention age, then the oldest closed files while the
    /// directory exceeds the retention size. Runs while no file is open; never deletes set-aside files.
    static func applyRetention(_ configuration: JournalConfiguration, now: Int64) {
        guard configuration.retentionBytes != nil || configuration.retentionAge != nil else { return }
        struct Entry {
            var path: String
            var bytes: Int64
            var closedAt: Int64?
        }
        var entries: [Entry] = []
        for path in JournalDirectory.listFiles(in: configuration.directory) {
            let bytes = JournalDirectory.fileSize(path) + JournalDirectory.fileSize(path + "-wal")
            var closedAt: Int64?
            if !JournalDirectory.isSetAside(path), let file = try? JournalFile.openForReading(path: path) {
                closedAt = (try? file.meta("closed_at_ns")).flatMap { $0.flatMap { Int64($0) } }
                file.close()
            }
            entries.append(Entry(path: path, bytes: bytes, closedAt: closedAt))
        }
        var total = entries.reduce(0) { $0 + $1.bytes }
        for entry in entries {
            guard let closedAt = entry.closedAt else { continue }
            let isTooOld = configuration.retentionAge.map { now - closedAt > $0.nanoseconds } ?? false
            let isOverSize = configuration.retentionBytes.map { total > $0 } ?? false
            if isTooOld || isOverSize {
                JournalDirectory.delete(entry.path)
                total -= entry.bytes
            }
        }
    }
}
