import Foundation
import NavlogEvents
import NavlogHost
import NavlogJournal
import NavlogRuntime

/// `navlog explore`: seeded random walks, recorded, with what they found.
struct ExploreCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "explore",
        abstract: "Walk an app at random from a seed, record it, and report what broke.",
        discussion: """
            Each session walks K steps over the actions available on screen (elements, back, \
            swipe-dismiss, tabs, waiting for pending work); session i uses seed N+i, so the same \
            seed gives the same events. Where a step can go back, it does with probability P \
            (--back-bias) before picking uniformly among all moves, so walks come back up as \
            people's do; --back-bias 0 walks as navlog did before 0.33 became the default, \
            drifting ever deeper in apps whose screens lead to more screens. Reports actions \
            that threw, dead ends and leaks; any of these exits 1.
            """,
        arguments: [ArgumentSpec(name: "APP", help: "The app to explore (see 'navlog apps').")],
        options: [
            .value("seed", "N", help: "The seed of the first session.", default: "1"),
            .value("steps", "K", help: "Steps per session.", in: 1...1_000_000, default: "100"),
            .value("sessions", "S", help: "How many sessions to walk, in parallel.", in: 1...100_000, default: "1"),
            .value("back-bias", "P", help: "The chance, from 0 to 1, that a step goes back where it can.",
                   default: String(Explorer.Configuration.defaultBackBias)),
            .value("param", short: "p", "KEY=VALUE", help: "An app parameter.", repeatable: true),
            .value("output", short: "o", "FORMAT", help: "text or json (one object: each session's steps, screens and findings).", default: "text"),
        ] + JournalOptions.specs
    )

    let appName: String
    let seed: UInt64
    let steps: Int
    let sessions: Int
    let backBias: Double
    let isJSON: Bool
    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws {
        self.arguments = arguments
        appName = arguments.positional(0)!
        guard let seed = UInt64(arguments.value("seed") ?? "1") else {
            throw UsageError("option '--seed' must be a non-negative integer, not '\(arguments.value("seed")!)'")
        }
        self.seed = seed
        steps = try arguments.integer("steps") ?? 100
        sessions = try arguments.integer("sessions") ?? 1
        let biasText = arguments.value("back-bias") ?? String(Explorer.Configuration.defaultBackBias)
        guard let backBias = Double(biasText), backBias >= 0, backBias <= 1 else {
            throw UsageError("option '--back-bias' must be a number from 0 to 1, not '\(biasText)'")
        }
        self.backBias = backBias
        isJSON = try arguments.choice("output", ["text", "json"], default: "text") == "json"
        _ = try arguments.require("journal")
        _ = try JournalOptions.privacyPolicy(arguments)
    }

    func run() async throws -> Int32 {
        let app: AppDefinition
        let parameters: AppParameters
        do {
            app = try loadAppCatalog().app(named: appName)
            parameters = try app.resolveParameters(try JournalOptions.parameters(arguments))
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw UsageError("\(error)")
        }
        // The bias names the walk along with the seed (navlog diff compares walks of the same
        // seed and bias event by event); at 0 the walk is the old one, labelled as before.
        var labels = ["app": app.name, "explore_seed": String(seed)]
        if backBias > 0 { labels["explore_back_bias"] = String(backBias) }
        let writer = try JournalOptions.makeWriter(arguments, extraLabels: labels)
        let configuration = Explorer.Configuration(seed: seed, steps: steps, backBias: backBias)
        let reports = try await withThrowingTaskGroup(of: (Int, Explorer.Report).self) { group in
            let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
            var next = 0
            var results: [(Int, Explorer.Report)] = []
            func add(_ index: Int) {
                var sessionConfiguration = configuration
                sessionConfiguration.seed = seed &+ UInt64(index)
                let explorer = Explorer(configuration: sessionConfiguration)
                group.addTask {
                    (index, try explorer.explore(app: app, parameters: parameters, sessionID: "s-\(index + 1)", sink: writer))
                }
            }
            while next < min(width, sessions) { add(next); next += 1 }
            var progress = ProgressLine()
            while let result = try await group.next() {
                results.append(result)
                progress.updateNow { "exploring: \(results.count)/\(sessions) sessions walked" }
                if next < sessions { add(next); next += 1 }
            }
            progress.clear()
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
        try JournalOptions.close(writer)
        let recorded = writer.metrics.eventsRecorded
        var lines: [String] = []
        var findings = 0
        for report in reports {
            var line = "\(report.session): \(report.stepsTaken) steps, \(report.screensVisited.count) screens"
            let problems = report.thrownActions.count + report.leaks.count + (report.deadEnd == nil ? 0 : 1)
            findings += problems
            line += problems == 0 ? ", no findings" : ", \(problems) finding(s)"
            lines.append(line)
            for thrown in report.thrownActions {
                lines.append("  threw at step \(thrown.step) on \(thrown.screen): \(thrown.move): \(thrown.error)")
            }
            if let deadEnd = report.deadEnd { lines.append("  dead end: \(deadEnd) has no way out") }
            for leak in report.leaks { lines.append("  leak: \(leak)") }
        }
        lines.append("explored \(reports.count) session(s) of \(app.name) from seed \(seed); recorded \(recorded) events (run \(writer.runID)) into \(writer.configuration.directory); \(findings) finding(s)")
        let ahead = reports.map(\.skippedNanoseconds).max() ?? 0
        if ahead >= 1_000_000_000 {
            lines.append("times are simulated: waits are skipped, not slept, so the events are stamped up to \(Self.humanDuration(ahead)) past the time they were recorded")
        }
        if isJSON {
            let summary: JSONValue = [
                "app": .string(app.name), "seed": .int(Int64(bitPattern: seed)), "events": .int(Int64(recorded)),
                "run": .string(writer.runID), "journal": .string(writer.configuration.directory), "findings": .int(Int64(findings)),
                "simulated_ahead_s": .double(Double(ahead) / 1e9), "sessions": .array(reports.map(Self.json)),
            ]
            Output.standardOutput(summary.serialized() + "\n")
        } else {
            Output.standardOutput(lines.joined(separator: "\n") + "\n")
        }
        return findings == 0 ? ExitCode.success : ExitCode.finding
    }

    /// One session's report as JSON.
    static func json(_ report: Explorer.Report) -> JSONValue {
        [
            "session": .string(report.session), "steps": .int(Int64(report.stepsTaken)),
            "screens": .object(report.screensVisited.mapValues { .int(Int64($0)) }),
            "thrown": .array(report.thrownActions.map { thrown in
                ["step": .int(Int64(thrown.step)), "screen": .string(thrown.screen), "move": .string(thrown.move), "error": .string(thrown.error)]
            }),
            "dead_end": report.deadEnd.map(JSONValue.string) ?? .null,
            "leaks": .array(report.leaks.map { .string($0.description) }),
        ]
    }

    /// `42 s`, `2 min 44 s`, `3 h 5 min`: a duration as people read it.
    static func humanDuration(_ nanoseconds: UInt64) -> String {
        let seconds = nanoseconds / 1_000_000_000
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min \(seconds % 60) s" }
        return "\(seconds / 3600) h \(seconds % 3600 / 60) min"
    }
}
