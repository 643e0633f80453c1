import Foundation
import NavlogEvents
import NavlogJournal
import NavlogTestSupport
import XCTest

/// A journal written for the extension's tests, and the ways to query it: the `sqlite3` CLI and
/// Python's `sqlite3`, each with the built `libNavlogSQLite` loaded, and `navlog show`.
struct SQLiteExtensionHarness {
    /// Sessions `s-0` … `s-3`, one after the other, in blocks of at most 50 events, so most
    /// blocks hold one session.
    static let sessions = 4
    static let eventsPerSession = 120

    let directory: String
    /// The journal's one `.navlog` file.
    let file: String
    /// `navlog show -o json` of the journal, each line an object without its `cursor`.
    let shown: [JSONValue]

    /// The built extension, as `.load` takes it.
    static var library: String { Product.libraryPath("NavlogSQLite") }

    init(_ test: XCTestCase, name: String = #function) throws {
        XCTAssertTrue(FileManager.default.fileExists(atPath: Self.library + ".so"), "\(Self.library).so is not built; run swift build")
        directory = makeTemporaryDirectory(test, name: name)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, blockSize: 50))
        for session in 0..<Self.sessions {
            let start: Int64 = 1_800_000_000_000_000_000 + Int64(session) * 1_000_000_000
            for var event in makeEvents(count: Self.eventsPerSession, sessions: 1, startWall: start) {
                event.session = "s-\(session)"
                writer.record(event)
            }
        }
        try writer.close()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".navlog") }
        XCTAssertEqual(files.count, 1, "\(files)")
        file = directory + "/" + (files.first ?? "")
        let show = try Product.navlog.run(["show", directory, "-o", "json"])
        XCTAssertEqual(show.status, 0, show.stderr)
        shown = try show.stdout.split(separator: "\n").map { line in
            guard case .object(var members) = try JSONValue(parsing: String(line)) else { throw HarnessError("show printed \(line)") }
            members["cursor"] = nil
            return .object(members)
        }
        XCTAssertEqual(shown.count, Self.sessions * Self.eventsPerSession)
    }

    /// Runs `sql` in the `sqlite3` CLI on `database` (the journal by default) with the extension loaded.
    func runCLI(_ sql: String, on database: String? = nil, mode: String = "-json") throws -> ProcessResult {
        try runTool("/usr/bin/sqlite3", [mode, "-cmd", ".load \(Self.library)", database ?? file, sql])
    }

    /// Returns the rows `sql` gives in the `sqlite3` CLI, each as an event's JSON form.
    func eventsThroughCLI(_ sql: String) throws -> [JSONValue] {
        let result = try runCLI(sql)
        guard result.status == 0 else { throw HarnessError("sqlite3 failed: \(result.stderr)") }
        // `-json` prints nothing at all for no rows.
        guard !result.stdout.isEmpty else { return [] }
        return try (JSONValue(parsing: result.stdout).arrayValue ?? []).map(Self.event(fromRow:))
    }

    /// Runs `sql` with `parameters` through Python's `sqlite3` on `database` (the journal by
    /// default), with the extension loaded; stdout holds one JSON object a row.
    func runPython(_ sql: String, _ parameters: [JSONValue] = [], on database: String? = nil) throws -> ProcessResult {
        try runTool("/usr/bin/python3", ["-c", Self.pythonProgram, database ?? file, Self.library, sql, JSONValue.array(parameters).serialized()])
    }

    /// Returns the rows `sql` gives through Python's `sqlite3`, each as an event's JSON form.
    func eventsThroughPython(_ sql: String, _ parameters: [JSONValue] = []) throws -> [JSONValue] {
        let result = try runPython(sql, parameters)
        guard result.status == 0 else { throw HarnessError("python3 failed: \(result.stderr)") }
        return try result.stdout.split(separator: "\n").map { try Self.event(fromRow: JSONValue(parsing: String($0))) }
    }

    /// The shown events that `isIncluded` keeps.
    func shown(where isIncluded: (Event) -> Bool) throws -> [JSONValue] {
        try shown.filter { isIncluded(try Event(json: $0)) }
    }

    /// Turns a row of `navlog_events` into the JSON form `navlog show` prints: NULL columns
    /// left out, the payload parsed; `time_ns` must be what `time` says.
    static func event(fromRow row: JSONValue) throws -> JSONValue {
        guard var members = row.objectValue else { throw HarnessError("a row is not an object: \(row.serialized())") }
        guard let time = members["time"]?.stringValue, Event.parseTime(time) == members["time_ns"]?.intValue else {
            throw HarnessError("time_ns disagrees with time in \(row.serialized())")
        }
        members["time_ns"] = nil
        members = members.filter { $0.value != .null }
        members["payload"] = try JSONValue(parsing: members["payload"]?.stringValue ?? "")
        return .object(members)
    }

    private static let pythonProgram = """
        import json, sqlite3, sys
        database, library, sql, parameters = sys.argv[1:5]
        connection = sqlite3.connect(database)
        connection.enable_load_extension(True)
        connection.load_extension(library)
        try:
            cursor = connection.execute(sql, json.loads(parameters))
            names = [column[0] for column in cursor.description]
            for row in cursor:
                print(json.dumps(dict(zip(names, row))))
        except sqlite3.Error as error:
            print(error, file=sys.stderr)
            sys.exit(1)
        """
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
