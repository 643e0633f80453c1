import Foundation

// MARK: - The write-ahead log and the space it takes

extension JournalFileWriter {
    /// The most the write-ahead log grows between two checkpoints on a roomy volume: about
    /// 4000 pages of 4 KiB, SQLite's default interval (`wal_autocheckpoint`, which the writer
    /// turns off and does itself).
    static let maximumLogBytes: Int64 = 16_384_000

    /// The share of the space the log could grow into (its own bytes and what the volume has
    /// free) that it may take before it is checkpointed: a quarter, so the database can take in
    /// the log's pages and the log still has room to grow meanwhile.
    static let logShareDivisor: Int64 = 4

    /// Bytes of the write-ahead log file (`-wal`), 0 without one.
    var logBytes: Int64 { JournalDirectory.fileSize(path + "-wal") }

    /// The log size at which ``checkpointIfDue()`` checkpoints, for `logBytes` of log with
    /// `freeBytes` free on the volume: a quarter of the two together, at most
    /// ``maximumLogBytes``.
    static func checkpointThreshold(logBytes: Int64, freeBytes: Int64?) -> Int64 {
        guard let freeBytes else { return maximumLogBytes }
        return min(maximumLogBytes, (logBytes + max(0, freeBytes)) / logShareDivisor)
    }

    /// Checkpoints and truncates the log once it holds more than its share of the space left
    /// (``checkpointThreshold(logBytes:freeBytes:)``, from `statvfs` of the journal directory).
    ///
    /// On a volume smaller than ``maximumLogBytes`` the log would otherwise grow until the
    /// volume is full, and then fill it again right after space comes back. A checkpoint that
    /// fails (the database cannot grow) is left for the next write to meet as a full volume.
    func checkpointIfDue() {
        let log = logBytes
        guard log > 0 else { return }
        let directory = (path as NSString).deletingLastPathComponent
        guard log >= Self.checkpointThreshold(logBytes: log, freeBytes: JournalDirectory.availableBytes(directory)) else { return }
        _ = try? file.database.checkpointTruncatingLog()
    }

    /// Gives the log's space back to the volume: checkpoints and truncates it. Returns whether
    /// the log was there and is now empty; false when there was nothing to give back, a
    /// reader kept the log from being reset, or the checkpoint failed (say the database
    /// could not grow to take in the log's pages).
    @discardableResult
    func reclaimLogSpace() -> Bool {
        guard logBytes > 0 else { return false }
        let isTruncated = (try? file.database.checkpointTruncatingLog()) ?? false
        return isTruncated && logBytes == 0
    }

    /// Runs `transaction`; when it fails because the volume is full, gives the log's space
    /// back (``reclaimLogSpace()``) and, if there was any, runs it once more. After such a
    /// failure the next transaction starts by giving the log's space back too, since the
    /// failed attempts may have left uncommitted frames in it.
    ///
    /// `transaction` must leave nothing behind when it throws (it rolls back).
    func reclaimingSpace<Result>(_ transaction: () throws -> Result) throws -> Result {
        if isShortOfSpace { reclaimLogSpace() }
        do {
            let result = try transaction()
            isShortOfSpace = false
            return result
        } catch let error as JournalError where error.isDiskFull {
            isShortOfSpace = true
            guard reclaimLogSpace() else { throw error }
            let result = try transaction()
            isShortOfSpace = false
            return result
        }
    }
}
