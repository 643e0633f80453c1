/// The runs and sessions of journals, which resolve what a user gives as `--run` and
/// `--session` into exact runs and ``SessionIdentity``s.
///
/// ```swift
/// let resolver = try SessionResolver(reader: JournalReader(paths: ["journal"]))
/// let runs = try resolver.resolveRuns(["latest"])                 // ["r-mx6bnfsd-29k4bg"]
/// let sessions = try resolver.resolveSessions(["s-1"], within: runs)
/// ```
public struct SessionResolver: Sendable {
    /// The runs, oldest first event first (a run without events by its start).
    public let runs: [String]
    /// Every session of every run.
    public let sessions: Set<SessionIdentity>

    /// A `--run` or `--session` that names nothing, or names too much; its description is one
    /// line naming the culprit.
    public struct SelectionError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// What `--session` resolved to: exact sessions, and names that no run read holds (which
    /// may match sessions a writer has yet to start, so they match by name in any run).
    public struct Sessions: Sendable, Equatable {
        public var identities: Set<SessionIdentity> = []
        public var unknownNames: Set<String> = []
    }

    public init(runs: [String], sessions: Set<SessionIdentity>) {
        self.runs = runs
        self.sessions = sessions
    }

    /// Reads the runs and sessions of the journals `reader` reads; unreadable files throw an
    /// error that names them.
    public init(reader: JournalReader) throws {
        var firstEvent: [String: Int64] = [:]
        var sessions: Set<SessionIdentity> = []
        try reader.forEachFile { file in
            // The event index has a row per session per block: its first time is the run's.
            let times = try file.database.rows("""
                SELECT r.name, r.started_ns, (SELECT min(e.first_time_ns) FROM event e JOIN session s ON s.id = e.session WHERE s.run = r.id)
                FROM run r
                """)
            for row in times {
                guard case .text(let run) = row[0], case .integer(let started) = row[1] else { continue }
                var time = started
                if case .integer(let first) = row[2] { time = first }
                firstEvent[run] = min(firstEvent[run] ?? time, time)
            }
            for row in try file.database.rows("SELECT r.name, s.name FROM session s JOIN run r ON r.id = s.run") {
                if case .text(let run) = row[0], case .text(let session) = row[1] { sessions.insert(SessionIdentity(run: run, session: session)) }
            }
        }
        self.init(runs: firstEvent.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key), sessions: sessions)
    }

    // MARK: - Resolving

    /// Resolves `--run` values: run ids, or `latest` for the run whose first event is newest.
    /// An unknown run is an error naming it and listing at most 10 known runs.
    public func resolveRuns(_ texts: [String]) throws(SelectionError) -> Set<String> {
        var resolved: Set<String> = []
        for text in texts {
            if text == "latest" {
                guard let latest = runs.last else { throw SelectionError(description: "option '--run': 'latest' names no run: the journals read hold none") }
                resolved.insert(latest)
            } else if runs.contains(text) {
                resolved.insert(text)
            } else {
                throw SelectionError(description: "option '--run': unknown run '\(text)' (\(Self.listing(runs.reversed(), noun: "runs", order: ", newest first")))")
            }
        }
        return resolved
    }

    /// Resolves `--session` values, `RUN/SESSION` or `SESSION`, among the sessions of `runs`
    /// (all runs when nil). A short form held by several of those runs is an error listing
    /// them; so is a `RUN/SESSION` whose run is unknown or lacks the session. A short form
    /// that no run has goes into ``Sessions/unknownNames``: `tail -f` may yet see it.
    public func resolveSessions(_ texts: [String], within runs: Set<String>? = nil) throws(SelectionError) -> Sessions {
        var result = Sessions()
        for text in texts {
            if let slash = text.firstIndex(of: "/"), self.runs.contains(String(text[..<slash])) {
                let identity = SessionIdentity(run: String(text[..<slash]), session: String(text[text.index(after: slash)...]))
                guard sessions.contains(identity) else {
                    let held = sessions.filter { $0.run == identity.run }.map(\.session).sorted()
                    throw SelectionError(description: "option '--session': run '\(identity.run)' has no session '\(identity.session)' (\(Self.listing(held, noun: "sessions")))")
                }
                result.identities.insert(identity)
                continue
            }
            let matches = sessions.filter { $0.session == text && (runs?.contains($0.run) ?? true) }
            if matches.isEmpty, let slash = text.firstIndex(of: "/"), !sessions.contains(where: { $0.session == text }) {
                let run = String(text[..<slash])
                throw SelectionError(description: "option '--session': unknown run '\(run)' in '\(text)' (\(Self.listing(self.runs.reversed(), noun: "runs", order: ", newest first")))")
            }
            switch matches.count {
            case 0:
                result.unknownNames.insert(text)
            case 1:
                result.identities.insert(matches.first!)
            default:
                let holding = self.runs.filter { run in matches.contains { $0.run == run } }
                throw SelectionError(description: "option '--session': session '\(text)' is in \(holding.count) runs: \(holding.joined(separator: ", ")); give RUN/\(text) or --run RUN")
            }
        }
        return result
    }

    /// `known runs: a, b, c` with at most 10 items, and how many more.
    private static func listing(_ items: [String], noun: String, order: String = "") -> String {
        guard !items.isEmpty else { return "no \(noun) in the journals read" }
        let shown = items.prefix(10).joined(separator: ", ")
        return "known \(noun)\(order): \(shown)" + (items.count > 10 ? ", and \(items.count - 10) more" : "")
    }
}
