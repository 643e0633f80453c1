import Foundation
import NavlogEvents
import NavlogJournal
import NavlogTestSupport
import XCTest

/// One answer of `POST /v1/ingest`, headers included (curl over the daemon's Unix socket).
struct IngestAnswer {
    var status: Int
    var headers: [String: String]
    var body: String

    var json: JSONValue { (try? JSONValue(parsing: body)) ?? .null }
}

extension DaemonHarness {
    /// Posts `body` to `/v1/ingest?QUERY` with `headers`, as bytes, and returns the answer.
    func ingest(_ body: [UInt8], query: String = "source=test-client", headers: [String: String] = [:], token: String? = nil,
                method: String = "POST") throws -> IngestAnswer {
        let bodyPath = directory + "/body-\(UInt32.random(in: 0...UInt32.max))"
        let headerPath = bodyPath + ".headers"
        XCTAssertTrue(FileManager.default.createFile(atPath: bodyPath, contents: Data(body)))
        defer {
            try? FileManager.default.removeItem(atPath: bodyPath)
            try? FileManager.default.removeItem(atPath: headerPath)
        }
        var arguments = ["-s", "-S", "-X", method, "--max-time", "30", "-D", headerPath, "--data-binary", "@" + bodyPath,
                         "-H", "Content-Type: application/x-ndjson", "--unix-socket", socketPath, "http://localhost/v1/ingest?\(query)"]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(name): \(value)"] }
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        let output = try runTool("/usr/bin/curl", arguments)
        XCTAssertEqual(output.status, 0, output.stderr)
        let head = (try? String(contentsOfFile: headerPath, encoding: .utf8)) ?? ""
        var status = 0
        var found: [String: String] = [:]
        for line in head.split(separator: "\r\n") {
            if line.hasPrefix("HTTP/") { status = Int(line.split(separator: " ")[1]) ?? 0; continue }
            guard let colon = line.firstIndex(of: ":") else { continue }
            found[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return IngestAnswer(status: status, headers: found, body: output.stdout)
    }

    /// The journal's events once everything is committed (a rotation commits the queue).
    func committedEvents() throws -> [Event] {
        XCTAssertEqual(try request("POST", "/v1/journal/rotate").status, 200)
        return try JournalReader(paths: [directory + "/journal"]).allEvents()
    }

    /// The value of the metric sample `sample` (name and labels) on `/metrics`.
    func metric(_ sample: String) throws -> Double? {
        let text = try request("GET", "/metrics").body
        return text.split(separator: "\n").first { $0.hasPrefix(sample + " ") }.flatMap { Double($0.split(separator: " ").last!) }
    }
}

/// `events` as NDJSON lines, the form `navlog show -o json` prints.
func ndjson(_ events: [Event]) -> [UInt8] {
    Array(events.map { $0.jsonLine() + "\n" }.joined().utf8)
}

/// Events of run `run` as an app elsewhere records them: `makeEvents`, with the run set.
func remoteEvents(count: Int, run: String, sessions: Int = 5) -> [Event] {
    makeEvents(count: count, sessions: sessions).map { event in
        var event = event
        event.run = run
        return event
    }
}

/// `bytes` gzipped.
func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
    try Deflater(level: 6, format: .gzip).compressAll(bytes)
}

/// The identity by which an event is in a journal once: (run, session, session_seq).
struct EventIdentity: Hashable, Comparable, CustomStringConvertible {
    var run: String
    var session: String
    var sessionSeq: UInt64

    init(_ event: Event) {
        run = event.run
        session = event.session
        sessionSeq = event.sessionSeq
    }

    static func < (lhs: Self, rhs: Self) -> Bool { (lhs.run, lhs.session, lhs.sessionSeq) < (rhs.run, rhs.session, rhs.sessionSeq) }
    var description: String { "\(run)/\(session)#\(sessionSeq)" }
}

/// A directory for a ``DaemonHarness`` that the test names itself (to point the journal
/// settings it overrides at it).
func freshDaemonDirectory() -> String {
    "/tmp/nld-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
}

/// The harness's journal section for `directory` with `settings` added.
func journalSettings(_ directory: String, _ settings: [String: JSONValue]) -> JSONValue {
    var section: [String: JSONValue] = ["directory": .string(directory + "/journal"), "flush_interval_ms": 50]
    for (key, value) in settings { section[key] = value }
    return .object(section)
}
