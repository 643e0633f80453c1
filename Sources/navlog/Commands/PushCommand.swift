import Foundation
import NavlogEvents
import NavlogJournal
import NavlogRemote

/// `navlog push`: uploads a journal to a navlogd through `POST /v1/ingest`, resumably.
struct PushCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "push",
        abstract: "Upload a journal's events to a running navlogd.",
        discussion: """
            Sends the journal's events in seq order, in gzipped batches, to the daemon's POST \
            /v1/ingest; they keep their runs, sessions and times, and their runs get the label \
            source. Each batch's Idempotency-Key comes from its first run and seq range, and the \
            state file records the last acknowledged seq (and the batch in flight) before and \
            after each request, so an interrupted push resumes where it stopped and a second push \
            sends nothing twice. Prints the cursor reached. Exit 1 when the daemon refused lines, \
            2 when it cannot be reached or refuses a batch.
            """,
        arguments: [ArgumentSpec(name: "JOURNAL", help: "The journal directory to upload.")],
        options: [
            .value("to", "URL", help: "The daemon, such as http://127.0.0.1:7878 (required)."),
            .value("source", "NAME", help: "The client's name: the source label of the pushed runs.", default: "navlog-push"),
            .value("token", "TOKEN", help: "The bearer token, when the daemon requires one (or set NAVLOG_TOKEN)."),
            .value("state", "FILE", help: "Where the push keeps its cursor (default: JOURNAL/.navlog-push-HOST_PORT.json)."),
            .value("after", "CURSOR", help: "Start after this cursor (nl1-…) instead of the state's."),
            .value("batch", "N", help: "Events per request.", in: 1...100_000, default: "1000"),
            .value("retries", "N", help: "Failed requests in a row before giving up.", in: 0...1000, default: "8"),
            .value("output", short: "o", "FORMAT", help: "text or json.", default: "text"),
        ]
    )

    let journal: String
    let url: String
    let source: String
    let token: String?
    let statePath: String
    let start: JournalCursor?
    let batchSize: Int
    let retries: Int
    let format: String

    init(_ arguments: ParsedArguments) throws {
        journal = arguments.positional(0) ?? ""
        guard let url = arguments.value("to") else { throw UsageError("option '--to' is required: the daemon's URL, such as http://127.0.0.1:7878") }
        guard let components = URLComponents(string: url), ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
              let host = components.host, !host.isEmpty
        else { throw UsageError("option '--to' must look like http://127.0.0.1:7878, not '\(url)'") }
        self.url = url
        source = arguments.value("source") ?? "navlog-push"
        token = arguments.value("token") ?? ProcessInfo.processInfo.environment["NAVLOG_TOKEN"]
        let place = "\(host)_\(components.port.map(String.init) ?? components.scheme!.lowercased())"
            .map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" ? $0 : "_" }
        statePath = arguments.value("state") ?? journal + "/.navlog-push-\(String(place)).json"
        if let text = arguments.value("after") {
            guard let cursor = JournalCursor(text) else { throw UsageError("option '--after' must be a cursor such as nl1-2s, not '\(text)'") }
            start = cursor
        } else {
            start = nil
        }
        batchSize = try arguments.integer("batch") ?? 1000
        retries = try arguments.integer("retries") ?? 8
        format = try arguments.choice("output", ["text", "json"], default: "text")
    }

    func run() async throws -> Int32 {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: journal, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure("no journal directory '\(journal)'")
        }
        // A wrong path would "push 0 events" and leave a state file in it.
        try EventQuery.refuseDirectoriesWithoutFiles([journal])
        let client: IngestClient
        do {
            client = try IngestClient(url: url, source: source, token: token)
        } catch {
            throw UsageError("\(error)")
        }
        defer { client.close() }
        let initial = start.map { UploadState(after: Self.seq(of: $0)) }
        let uploader: JournalUploader
        do {
            uploader = try JournalUploader(directory: journal, client: client, statePath: statePath, state: initial, batchSize: batchSize)
        } catch {
            throw CommandFailure("\(error)")
        }
        var summary = PushSummary()
        var failures = 0
        loop: while true {
            let step: JournalUploader.Step
            do {
                step = try uploader.step()
            } catch let error as RemoteError {
                throw CommandFailure("push stopped: \(error); the state in \(statePath) resumes from cursor \(Self.cursor(uploader.state.after))")
            } catch {
                throw CommandFailure("push stopped reading \(journal): \(error)")
            }
            switch step {
            case .idle:
                break loop
            case .sent(let events, let refusedLines, let isReplayed):
                failures = 0
                summary.requests += 1
                if isReplayed { summary.replayedEvents += events } else { summary.acceptedEvents += events }
                summary.refusedLines += refusedLines
            case .lost(let seqs):
                // Only with `reportsGaps`, which push leaves off: it sends what the journal holds.
                Output.standardError("navlog push: seqs \(seqs.lowerBound)-\(seqs.upperBound) are not in \(journal)\n")
            case .retry(let reason, let retryAfter):
                failures += 1
                guard failures <= retries else {
                    throw CommandFailure("cannot push to \(url): \(reason) (\(failures) failures in a row); resume with the same command, from cursor \(Self.cursor(uploader.state.after))")
                }
                let wait = retryAfter ?? min(5, 0.1 * pow(2, Double(failures - 1))) * Double.random(in: 0.5...1)
                Output.standardError("navlog push: retrying in \(String(format: "%.1f", wait)) s: \(reason)\n")
                try await Task.sleep(for: .milliseconds(Int(wait * 1000)))
            }
        }
        summary.cursor = Self.cursor(uploader.state.after)
        summary.statePath = statePath
        Output.standardOutput(format == "json" ? summary.json.serialized() + "\n" : summary.text + "\n")
        return summary.refusedLines > 0 ? ExitCode.finding : ExitCode.success
    }

    static func cursor(_ seq: UInt64) -> String { "nl1-" + String(seq, radix: 36) }

    static func seq(of cursor: JournalCursor) -> UInt64 { UInt64(cursor.description.dropFirst(4), radix: 36) ?? 0 }
}
