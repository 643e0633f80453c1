import Foundation
import NavlogDaemon
import NavlogEvents
import NavlogHTTPClient
import NavlogHost
import NavlogSampleApps
import Synchronization

/// What watching costs: the daemon's actions per second with nobody at the web console,
/// against the same load while `viewers` session pages are open on the sessions under load.
///
/// An open session page (`/ui#/sessions/ID`) holds one Server-Sent Events subscription to its
/// session with `text=true` (each event formatted as `navlog show` prints it) and `max_rate=50`, and after events,
/// reloads the screen from `GET /ui/api/sessions/ID` at most every 250 ms: its script's
/// throttle. ``ConsoleViewer`` does the same over plain sockets, so the figure is the daemon's
/// cost of a page, not a browser's. The two cases take turns on the same sessions, like the
/// daemon part and its ceiling, so both see the host's drift.
enum ConsoleBenchmark {
    struct Result {
        var unwatchedPerSecond: Double
        var watchedPerSecond: Double
        /// Events the viewers received, and screens they reloaded, per second of watched load.
        var viewerEventsPerSecond: Double
        var viewerPollsPerSecond: Double

        var ratio: Double { watchedPerSecond / unwatchedPerSecond }
    }

    /// Runs the turns; each load client drives `sessionsPerClient` sessions in turn, and the
    /// viewers watch the first `viewers` of all of them (with one each, the sessions under load).
    static func run(directory: String, clients: Int, seconds: Double, viewers: Int, sessionsPerClient: Int) async throws -> Result {
        let catalog = try AppCatalog(SampleApps.all)
        var configuration = try DaemonConfiguration(parsing: "{}", catalog: catalog)
        configuration.journal.directory = directory + "/console-journal-\(sessionsPerClient)"
        configuration.listen.unixSocket = nil
        configuration.listen.tcp = .init(host: "127.0.0.1", port: 0)
        let daemon = Daemon(configuration: configuration, catalog: catalog, log: Logger(minimumLevel: .warn))
        guard let port = try await daemon.start().tcpPort else { throw BenchmarkError("the daemon has no TCP port") }
        // The sessions of the load clients, the same in every turn, so that viewers can watch them.
        let creator = try DaemonBenchmark.LoadClient(port: port)
        var sessions: [String] = []
        for _ in 0..<clients * sessionsPerClient {
            let created = try creator.post("/v1/sessions", body: #"{"app": "master-detail"}"#)
            guard created.status == 201, let id = String(decoding: created.body, as: UTF8.self)
                .components(separatedBy: "\"id\":\"").dropFirst().first?.prefix(while: { $0 != "\"" }) else {
                throw BenchmarkError("session not created: \(created.status)")
            }
            sessions.append(String(id))
        }
        let turn = seconds / Double(DaemonBenchmark.rounds)
        var unwatched = DaemonBenchmark.Load.empty
        var watched = DaemonBenchmark.Load.empty
        var events = 0
        var polls = 0
        for round in 0..<DaemonBenchmark.rounds {
            // Alternate which case goes first, so neither always follows the other.
            for isWatched in round % 2 == 0 ? [false, true] : [true, false] {
                let pages = try isWatched ? (0..<viewers).map { try ConsoleViewer(port: port, session: sessions[$0 % sessions.count]) } : []
                pages.forEach { $0.start() }
                let load = try drive(port: port, clients: clients, sessions: sessions, seconds: turn)
                for page in pages {
                    let seen = try page.stop()
                    events += seen.events
                    polls += seen.polls
                }
                if isWatched { watched.merge(load) } else { unwatched.merge(load) }
            }
        }
        try await daemon.stop()
        return Result(unwatchedPerSecond: unwatched.perSecond, watchedPerSecond: watched.perSecond,
                      viewerEventsPerSecond: Double(events) / watched.seconds, viewerPollsPerSecond: Double(polls) / watched.seconds)
    }

    /// Runs the part and prints its lines with `line`; returns its figures for the summary.
    ///
    /// Twice: with the pages on the sessions under load (each client drives one session, every
    /// page sees every event of its session: the worst case), and with the load spread over
    /// ten sessions per client, the pages on ten of them (a daemon with many sessions and a
    /// few watched).
    static func report(directory: String, clients: Int, seconds: Double, viewers: Int, line: (String) -> Void) async throws -> [String: JSONValue] {
        func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
        var figures: [String: JSONValue] = [:]
        for (sessionsPerClient, suffix) in [(1, ""), (10, "_spread")] {
            let result = try await run(directory: directory, clients: clients, seconds: seconds, viewers: viewers, sessionsPerClient: sessionsPerClient)
            let watched = sessionsPerClient == 1 ? "on the \(clients) sessions under load" : "on \(viewers) of the \(clients * sessionsPerClient) sessions under load"
            line("console\(suffix): \(format(result.unwatchedPerSecond, 0)) actions/s with nobody watching, \(format(result.watchedPerSecond, 0)) actions/s with "
                + "\(viewers) session pages open \(watched) (each: its text=true event stream, a screen reload at most every "
                + "\(Int(ConsoleViewer.pollInterval * 1000)) ms; together \(format(result.viewerEventsPerSecond, 0)) events/s read, "
                + "\(format(result.viewerPollsPerSecond, 0)) reloads/s); \(clients) keep-alive clients, \(DaemonBenchmark.rounds) alternating turns each")
            line("console\(suffix): watched / unwatched = \(format(result.ratio, 3)) (target >= 0.9: \(result.ratio >= 0.9 ? "met" : "MISSED"))")
            figures["console_unwatched_actions_per_second\(suffix)"] = .double(result.unwatchedPerSecond.rounded())
            figures["console_watched_actions_per_second\(suffix)"] = .double(result.watchedPerSecond.rounded())
            figures["console_watched_actions_ratio\(suffix)"] = .double(result.ratio)
        }
        return figures
    }

    /// The daemon part's load (``DaemonBenchmark/drive``): client `c` of `clients` drives
    /// sessions `c`, `c + clients`, … in turn, two actions on each before the next.
    private static func drive(port: Int, clients: Int, sessions: [String], seconds: Double) throws -> DaemonBenchmark.Load {
        let next = Atomic<Int>(0)
        let perClient = sessions.count / clients
        return try DaemonBenchmark.drive(port: port, clients: clients, seconds: seconds) { _ in
            String(next.add(1, ordering: .relaxed).oldValue % clients)
        } request: { connection, step in
            let session = sessions[Int(step.session)! + clients * ((step.index / 2) % perClient)]
            return try connection.post("/v1/sessions/\(session)/actions", body: step.index % 2 == 0 ? #"{"element": "next-day"}"# : #"{"element": "previous-day"}"#)
        }
    }
}
