
/// One writer run found in journals: its id, times and labels.
public struct JournalRun: Sendable, Equatable {
    public var id: String
    public var startedNanoseconds: Int64
    /// When the run closed cleanly; nil for a run still writing or cut short.
    public var endedNanoseconds: Int64?
    public var labels: [String: String]
}

extension JournalReader {
    /// Returns the runs recorded in the journals, in order of start, each once even when its
    /// events span many files. Unreadable files throw an error that names them.
    public func runs() throws -> [JournalRun] {
        var byID: [String: JournalRun] = [:]
        try forEachFile { file in
            for row in try file.database.rows("SELECT id, name, started_ns, ended_ns FROM run ORDER BY id") {
                guard case .integer(let rowID) = row[0], case .text(let name) = row[1], case .integer(let started) = row[2] else { continue }
                var run = byID[name] ?? JournalRun(id: name, startedNanoseconds: started, endedNanoseconds: nil, labels: [:])
                if case .integer(let ended) = row[3] { run.endedNanoseconds = max(run.endedNanoseconds ?? ended, ended) }
                for label in try file.database.rows("SELECT key, value FROM run_label WHERE run = ?", [.integer(rowID)]) {
                    if case .text(let key) = label[0], case .text(let value) = label[1] { run.labels[key] = value }
                }
                byID[name] = run
            }
        }
        return byID.values.sorted { ($0.startedNanoseconds, $0.id) < ($1.startedNanoseconds, $1.id) }
    }

    /// Opens each file for reading in turn and hands it to `body`, closing it after; an error
    /// opening or reading one is thrown naming the file.
    func forEachFile(_ body: (JournalFile) throws -> Void) throws {
        for path in files() {
            let file: JournalFile
            do {
                file = try JournalFile.openForReading(path: path)
            } catch {
                throw JournalError.wrapping(error, path: path)
            }
            defer { file.close() }
            do {
                try body(file)
            } catch {
                throw JournalError.wrapping(error, path: path)
            }
        }
    }
}
