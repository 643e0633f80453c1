import Foundation
import NavlogEvents
import NavlogHost
import NavlogJournal
import NavlogRuntime

/// `navlog run`: runs a scenario headless, in-process, into a journal.
struct RunCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "run",
        abstract: "Run a scenario script headless and record it into a journal.",
        discussion: """
            The script's 'app' line names the app unless APP is given; --param overrides its \
            parameters. Waits in the script skip time instead of sleeping. The run stops at the \
            first refused action or failed expectation, which is printed with file:line (exit 1); \
            everything up to it is recorded. See docs/SCENARIOS.md for the language.
            """,
        arguments: [ArgumentSpec(name: "APP", help: "The app to run (see 'navlog apps').", isOptional: true)],
        options: [
            .value("script", short: "s", "FILE", help: "The scenario to run."),
            .value("param", short: "p", "KEY=VALUE", help: "An app parameter.", repeatable: true),
        ] + JournalOptions.specs + [
            .value("session", "ID", help: "The session id to record under.", default: "s-1"),
            .value("output", short: "o", "FORMAT", help: "text or json (one object: steps, events, run, journal, failure).", default: "text"),
        ]
    )

    let arguments: ParsedArguments
    let scriptPath: String
    let isJSON: Bool

    init(_ arguments: ParsedArguments) throws {
        self.arguments = arguments
        scriptPath = try arguments.require("script")
        isJSON = try arguments.choice("output", ["text", "json"], default: "text") == "json"
        _ = try arguments.require("journal")
        _ = try JournalOptions.parameters(arguments)
        _ = try arguments.keyValues("label")
        _ = try JournalOptions.privacyPolicy(arguments)
    }

    func run() async throws -> Int32 {
        let text: String
        do {
            text = try String(contentsOfFile: scriptPath, encoding: .utf8)
        } catch {
            throw CommandFailure("cannot read script '\(scriptPath)': \((error as NSError).localizedDescription)")
        }
        let scenario: Scenario
        do {
            scenario = try ScenarioParser.parse(text, source: scriptPath)
        } catch {
            throw CommandFailure("\(error)")
        }
        let catalog = try loadAppCatalog()
        let appName: String
        switch (arguments.positional(0), scenario.app?.name) {
        case (let given?, let named?) where given != named:
            throw UsageError("APP is '\(given)' but \(scriptPath):\(scenario.app!.line) names app '\(named)'")
        case (let given?, _): appName = given
        case (nil, let named?): appName = named
        case (nil, nil): throw UsageError("name the app: give APP or put an 'app' line in \(scriptPath)")
        }
        let app: AppDefinition
        let parameters: AppParameters
        do {
            app = try catalog.app(named: appName)
            let raw = (scenario.app?.parameters ?? [:]).merging(try JournalOptions.parameters(arguments)) { $1 }
            parameters = try app.resolveParameters(raw)
        } catch {
            throw UsageError("\(error)")
        }
        let scenarioName = URL(fileURLWithPath: scriptPath).deletingPathExtension().lastPathComponent
        let writer = try JournalOptions.makeWriter(arguments, extraLabels: ["scenario": scenarioName, "app": app.name])
        let sessionID = arguments.value("session") ?? "s-1"
        let outcome: ScenarioRunner.Outcome
        do {
            let session = try SessionCore(
                id: sessionID, app: app, parameters: parameters, sink: writer,
                attributes: ["scenario": .string(scenarioName)]
            )
            outcome = ScenarioRunner.run(scenario, on: session)
            session.end(reason: outcome.succeeded ? "scenario finished" : "scenario failed")
        } catch {
            try? writer.close()
            throw CommandFailure("\(app.name) could not start: \(error)")
        }
        try JournalOptions.close(writer)
        let committed = writer.metrics
        if isJSON {
            var failure = JSONValue.null
            if let error = outcome.failure {
                var members: [String: JSONValue] = ["file": .string(error.source), "line": .int(Int64(error.line)), "message": .string(error.message)]
                if let expected = error.expected { members["expected"] = .string(expected) }
                if let actual = error.actual { members["actual"] = .string(actual) }
                failure = .object(members)
            }
            let summary: JSONValue = [
                "script": .string(scriptPath), "app": .string(app.name), "steps_run": .int(Int64(outcome.stepsRun)),
                "steps": .int(Int64(scenario.steps.count)), "events": .int(Int64(committed.eventsRecorded)),
                "session": .string(sessionID), "run": .string(writer.runID), "journal": .string(writer.configuration.directory),
                "passed": .bool(outcome.succeeded), "failure": failure,
            ]
            Output.standardOutput(summary.serialized() + "\n")
        } else {
            let summary = "\(scriptPath): \(outcome.stepsRun) of \(scenario.steps.count) steps ran; "
                + "recorded \(committed.eventsRecorded) events of session \(sessionID) (run \(writer.runID)) into \(writer.configuration.directory)\n"
            Output.standardOutput(summary)
        }
        if let failure = outcome.failure {
            Output.standardError("\(failure)\n")
            return ExitCode.finding
        }
        return ExitCode.success
    }
}
