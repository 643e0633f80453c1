import Foundation

/// A foreign run's row in one file and its sessions' rows by name (a cache of the tables).
final class ForeignRunRows {
    let name: String
    let id: Int64
    var sessions: [String: Int64] = [:]

    init(name: String, id: Int64) {
        self.name = name
        self.id = id
    }
}
