import Foundation
import NavlogEvents
import NavlogHost
import NavlogSampleApps

/// `navlog demo`: a sample session of master-detail, printed as text.
struct DemoCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "demo",
        abstract: "Run a short sample session of the master-detail app and print its events.",
        discussion: "--output json prints the events as JSON lines, one event a line, as 'navlog show --output json' does (without cursors: nothing is journaled).",
        options: [
            .value("detail-style", "STYLE", help: "push or modal.", default: "push"),
            .value("output", short: "o", "FORMAT", help: "text or json.", default: "text"),
        ]
    )

    static let script = """
        expect screen Master
        tap open-detail
        expect screen Detail
        wait 1500ms
        back
        expect screen Master
        """

    let style: String
    let format: String

    init(_ arguments: ParsedArguments) throws {
        style = try arguments.choice("detail-style", ["push", "modal"], default: "push")
        format = try arguments.choice("output", ["text", "json"], default: "text")
    }

    func run() async throws -> Int32 {
        let app = try loadAppCatalog().app(named: "master-detail")
        let sink = MemoryEventSink()
        let session = try SessionCore(id: "s-1", app: app, parameters: try app.resolveParameters(["detail_style": style]), sink: sink)
        let scenario = try ScenarioParser.parse(DemoCommand.script, source: "demo")
        let outcome = ScenarioRunner.run(scenario, on: session)
        session.end()
        if format == "json" {
            Output.standardOutput(sink.events.map { $0.jsonLine() + "\n" }.joined())
        } else {
            let formatter = EventTextFormatter(showsTime: false, showsSession: true)
            Output.standardOutput(sink.events.map(formatter.format).joined(separator: "\n") + "\n")
        }
        if let failure = outcome.failure {
            Output.standardError("\(failure)\n")
            return ExitCode.finding
        }
        return ExitCode.success
    }
}
