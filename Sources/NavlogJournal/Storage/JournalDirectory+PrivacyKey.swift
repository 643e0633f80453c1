import Foundation

// MARK: - The privacy key

extension JournalDirectory {
    /// The name of the key file inside a journal directory.
    static let privacyKeyName = ".navlog.privacy-key"

    /// Returns the journal's privacy key: 32 random bytes, stored as hex in
    /// `<directory>/.navlog.privacy-key` (mode 0600), or in `keyFile` when given. Created the
    /// first time; kept for every later file and run, so hashes stay comparable within the
    /// journal. It sits beside the `.navlog` files, never inside them: a copied file carries
    /// hashes but not the key that would let its holder test guesses against them.
    static func loadPrivacyKey(directory: String, keyFile: String?) throws -> [UInt8] {
        let path = keyFile ?? directory + "/" + privacyKeyName
        if let key = try readKey(path) { return key }
        var generator = SystemRandomNumberGenerator()
        let key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        if try create(key, at: path, operation: "creating the privacy key") { return key }
        // Another writer sharing `keyFile` created it first: use theirs.
        if let key = try readKey(path) { return key }
        throw JournalError.fileSystem(path: path, operation: "creating the privacy key", reason: "it vanished as it was made")
    }

    /// Writes `key` back to the directory's key file when the file is missing (the directory
    /// was removed under a running writer); an existing file is left as it is.
    static func restorePrivacyKey(_ key: [UInt8], directory: String) throws {
        _ = try create(key, at: directory + "/" + privacyKeyName, operation: "restoring the privacy key")
    }

    /// Creates the key file `path` holding `key` (mode 0600, synced); false when a file is
    /// already there. `operation` names what failed when the file cannot be made.
    private static func create(_ key: [UInt8], at path: String, operation: String) throws -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            if errno == EEXIST { return false }
            throw JournalError.fileSystem(path: path, operation: operation, reason: String(cString: strerror(errno)))
        }
        defer { Glibc.close(descriptor) }
        let text = Array((key.hexString + "\n").utf8)
        guard write(descriptor, text, text.count) == text.count, fsync(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(path)
            throw JournalError.fileSystem(path: path, operation: "writing the privacy key", reason: reason)
        }
        return true
    }

    /// Reads a key file; nil when it does not exist.
    private static func readKey(_ path: String) throws -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw JournalError.fileSystem(path: path, operation: "reading the privacy key", reason: "not readable")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let key = [UInt8](hexString: text), key.count >= 16 else {
            throw JournalError.fileSystem(path: path, operation: "reading the privacy key", reason: "it must hold at least 32 hex digits")
        }
        return key
    }
}
