import Foundation
import NavlogEvents
import NavlogJournal

/// The journal paths and filters of `show` and `tail`, and how they print events.
struct EventQuery {
    static let specs: [OptionSpec] = [
        .value("journal", short: "j", "DIR", help: "A journal directory or file to read; same as a PATH argument.", repeatable: true),
        sessionSpec,
        runSpec,
        .value("kind", short: "k", "KIND", help: "Only this kind, such as screen.push or viewmodel.change; 'screen.*' matches a family.", repeatable: true),
        .value("since", "TIME", help: "Only events at or after TIME: RFC 3339 (2026-12-01T10:00:00Z) or a duration ago (--since=-10m)."),
        .value("until", "TIME", help: "Only events before TIME, in the same forms as --since."),
        .value("after-cursor", "CURSOR", help: "Resume after the event with this cursor (printed by --output json and --show-cursor)."),
        .value("output", short: "o", "FORMAT", help: "text, json (one event a line) or json-seq (RFC 7464).", default: "text"),
        .flag("show-cursor", help: "After the events, print the cursor of the last one to stderr."),
        .flag("no-time", help: "Text output without the time column."),
        .flag("utc", help: "Text output with times in UTC (Z) rather than the local zone (TZ)."),
    ]

    /// `--session`, as every reading command takes it.
    static let sessionSpec = OptionSpec.value(
        "session", "ID", help: "Only this session: RUN/SESSION, or SESSION when only one run read has it.", repeatable: true)
    /// `--run`, as every reading command takes it.
    static let runSpec = OptionSpec.value(
        "run", "RUN", help: "Only this run, such as r-mx6bnfsd-29k4bg; 'latest' for the run whose first event is newest.", repeatable: true)

    static let argument = ArgumentSpec(name: "PATH", help: "Journal directories or .navlog files (default: ./journal).", isOptional: true, isVariadic: true)

    /// The offset from UTC of `zone` (`TimeZone.current`: `TZ`, else the system's zone) at a
    /// time in ns since 1970, in seconds.
    static func localZoneOffset(_ zone: TimeZone) -> @Sendable (Int64) -> Int {
        { wallNanoseconds in zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wallNanoseconds) / 1e9)) }
    }

    let paths: [String]
    let filter: EventFilter
    let format: String
    let showsCursor: Bool
    let formatter: EventTextFormatter

    init(_ arguments: ParsedArguments) throws {
        paths = try EventQuery.journalPaths(arguments)
        format = try arguments.choice("output", ["text", "json", "json-seq"], default: "text")
        showsCursor = arguments.flag("show-cursor")
        formatter = EventTextFormatter(showsTime: !arguments.flag("no-time"), showsSession: true, showsRun: true,
                                       timeZone: arguments.flag("utc") ? nil : EventQuery.localZoneOffset(TimeZone.current))
        var filter = EventFilter()
        let selection = try EventQuery.selection(arguments, paths: paths)
        filter.runs = selection.runs
        if let sessions = selection.sessions {
            filter.runSessions = sessions.identities.isEmpty ? nil : sessions.identities
            filter.sessions = sessions.unknownNames.isEmpty ? nil : sessions.unknownNames
        }
        let kinds = try arguments.values("kind").flatMap(EventQuery.expandKind)
        if !kinds.isEmpty { filter.kinds = Set(kinds) }
        filter.since = try arguments.value("since").map { try EventQuery.parseTime($0, option: "since") }
        filter.until = try arguments.value("until").map { try EventQuery.parseTime($0, option: "until") }
        if let cursor = arguments.value("after-cursor") {
            do {
                filter.after = try JournalCursor(parsing: cursor)
            } catch {
                throw UsageError("option '--after-cursor': \(error)")
            }
        }
        self.filter = filter
        try EventQuery.refuseDirectoriesWithoutFiles(paths, follows: arguments.flag("follow"))
    }

    /// The journals a reading command reads: its PATH arguments and `--journal` options, or
    /// `./journal` when there is none; each must exist.
    static func journalPaths(_ arguments: ParsedArguments) throws -> [String] {
        var paths = arguments.positionals + arguments.values("journal")
        if paths.isEmpty {
            guard FileManager.default.fileExists(atPath: "journal") else {
                throw UsageError("give a journal directory or file (PATH or --journal); ./journal does not exist")
            }
            paths = ["journal"]
        }
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw CommandFailure("journal '\(path)' does not exist")
        }
        return paths
    }

    /// Refuses a directory among `paths` that holds no journal file: reading it would print an
    /// empty answer for what is almost always a wrong path. Following (`follows`) waits for a
    /// writer to make the first file instead. Called once the options are parsed, so that a
    /// usage error is reported first.
    /// `role` names the paths in the error (`journal`, or a side of `diff`).
    static func refuseDirectoriesWithoutFiles(_ paths: [String], follows: Bool = false, role: String = "journal") throws {
        if !follows, let empty = JournalReader(paths: paths).directoriesWithoutFiles().first {
            throw CommandFailure("\(role) '\(empty)' \(JournalReader.noFileMessage)")
        }
    }

    /// The runs and sessions that `--run` and `--session` select in the journals at `paths`;
    /// nil where the option is not given. Reads the journals' run and session tables only when
    /// one is. A run that is not there, or a short session that several runs have, is a
    /// usage error that names it.
    static func selection(_ arguments: ParsedArguments, paths: [String]) throws -> (runs: Set<String>?, sessions: SessionResolver.Sessions?) {
        let runTexts = arguments.values("run")
        let sessionTexts = arguments.values("session")
        guard !runTexts.isEmpty || !sessionTexts.isEmpty else { return (nil, nil) }
        let resolver: SessionResolver
        do {
            resolver = try SessionResolver(reader: JournalReader(paths: paths))
        } catch {
            throw failure(error)
        }
        do {
            let runs = runTexts.isEmpty ? nil : try resolver.resolveRuns(runTexts)
            let sessions = sessionTexts.isEmpty ? nil : try resolver.resolveSessions(sessionTexts, within: runs)
            return (runs, sessions)
        } catch {
            throw UsageError(error.description)
        }
    }

    /// `screen.*` becomes every known `screen.` kind; an unknown exact kind is refused.
    static func expandKind(_ text: String) throws -> [EventKind] {
        if text.hasSuffix(".*") {
            let prefix = String(text.dropLast())
            let matches = EventKind.allKnown.filter { $0.rawValue.hasPrefix(prefix) }
            guard !matches.isEmpty else { throw UsageError("option '--kind': no kind matches '\(text)'") }
            return matches
        }
        let kind = EventKind(rawValue: text)
        guard kind.isKnown else {
            let known = EventKind.allKnown.map(\.rawValue)
            let close = known.min { editDistance($0, text) < editDistance($1, text) }
            var message = "option '--kind': unknown kind '\(text)'"
            if let close, editDistance(close, text) <= 3 { message += "; did you mean '\(close)'?" }
            throw UsageError(message + " (kinds: \(known.joined(separator: ", ")))")
        }
        return [kind]
    }

    /// Parses RFC 3339 or `-DURATION` (ago) into nanoseconds since the epoch.
    static func parseTime(_ text: String, option: String) throws -> Int64 {
        if let time = Event.parseTime(text) { return time }
        if text.hasPrefix("-") {
            let units: [(String, Int64)] = [("ms", 1_000_000), ("s", 1_000_000_000), ("m", 60_000_000_000), ("h", 3_600_000_000_000), ("d", 86_400_000_000_000)]
            for (suffix, scale) in units where text.hasSuffix(suffix) {
                if let amount = Int64(text.dropFirst().dropLast(suffix.count)), amount >= 0 {
                    return SystemEventClock().now().wall - amount * scale
                }
            }
        }
        throw UsageError("option '--\(option)': '\(text)' is not an RFC 3339 time (2026-12-01T10:00:00Z) or a duration ago (-10m)")
    }

    /// Prints one event in the chosen format.
    func write(_ event: Event, to output: inout BufferedOutput) {
        switch format {
        case "json", "json-seq":
            var object = event.jsonObject()
            if case .object(var members) = object {
                members["cursor"] = .string(JournalCursor(after: event).description)
                object = .object(members)
            }
            if format == "json-seq" { output.write("\u{1E}") }
            output.write(object.serialized())
            output.write("\n")
        default:
            output.write(formatter.format(event))
            output.write("\n")
        }
    }

    /// Reads a journal error into trouble that names the file.
    static func failure(_ error: any Error) -> CommandFailure {
        CommandFailure("\(error)")
    }
}

/// Collects output and writes it to stdout in large chunks.
struct BufferedOutput {
    private var buffer = ""

    mutating func write(_ text: String) {
        buffer += text
        if buffer.utf8.count >= 1 << 16 { flush() }
    }

    /// Writes UTF-8 bytes, such as JSON a writer built as bytes.
    mutating func write(_ bytes: [UInt8]) {
        write(String(decoding: bytes, as: UTF8.self))
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        Output.standardOutput(buffer)
        buffer = ""
    }
}
