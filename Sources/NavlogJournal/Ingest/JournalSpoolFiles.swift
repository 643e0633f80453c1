import Foundation

/// The files of a journal used as a spool (an app's events on their way to a daemon):
/// removing what was delivered.
public enum JournalSpoolFiles {
    /// Deletes the cleanly closed files of `directory` whose events all have a seq of at most
    /// `seq` (delivered), and such files set aside after a crash; returns how many. The file a
    /// writer has open is neither, so it stays.
    @discardableResult
    public static func deleteDelivered(in directory: String, through seq: UInt64) -> Int {
        var deleted = 0
        for path in JournalDirectory.listFiles(in: directory) {
            guard let file = try? JournalFile.openForReading(path: path) else { continue }
            let isClosed = (try? file.isClosedCleanly()) ?? false
            let last = (try? file.seqRange())??.upperBound
            file.close()
            guard isClosed || JournalDirectory.isSetAside(path), let last, last <= seq else { continue }
            JournalDirectory.delete(path)
            deleted += 1
        }
        return deleted
    }
}
