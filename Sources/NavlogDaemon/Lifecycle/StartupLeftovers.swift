import Foundation

/// What a start that fails after opening the journal must take away again, so that it leaves
/// nothing behind: the Unix socket it bound, and the journal directories and files it created.
///
/// Taken before the journal opens (``init(journalDirectory:)``), it notes the first directory
/// of the journal's path that does not exist yet, or else the entries the directory holds.
/// ``remove(socketPath:)`` then deletes what is new: that directory with all in it, or the
/// files the failed start added to a directory that was there (the empty journal file, its
/// lock, a privacy key made for it). Journals already there are never touched.
struct StartupLeftovers {
    /// The journal directory as configured.
    let journalDirectory: String
    /// The outermost directory of the path that the start creates, when any.
    private let createdDirectory: String?
    /// The entries of the journal directory before the start, when it existed.
    private let entriesBefore: Set<String>

    init(journalDirectory: String) {
        self.journalDirectory = journalDirectory
        let fileManager = FileManager.default
        var missing: String?
        var path = URL(fileURLWithPath: journalDirectory).standardizedFileURL
        while !fileManager.fileExists(atPath: path.path) {
            missing = path.path
            let parent = path.deletingLastPathComponent()
            if parent.path == path.path { break }
            path = parent
        }
        createdDirectory = missing
        entriesBefore = missing == nil ? Set((try? fileManager.contentsOfDirectory(atPath: journalDirectory)) ?? []) : []
    }

    /// Deletes the socket file at `socketPath` (when the start bound it) and what the start
    /// added to the journal's path; call it after the journal writer closed.
    func remove(socketPath: String?) {
        if let socketPath { unlink(socketPath) }
        let fileManager = FileManager.default
        if let createdDirectory {
            try? fileManager.removeItem(atPath: createdDirectory)
            return
        }
        let entriesNow = Set((try? fileManager.contentsOfDirectory(atPath: journalDirectory)) ?? [])
        for entry in entriesNow.subtracting(entriesBefore) {
            try? fileManager.removeItem(atPath: (journalDirectory as NSString).appendingPathComponent(entry))
        }
    }
}
