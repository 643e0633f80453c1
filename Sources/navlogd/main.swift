import Foundation
import NavlogCommandLine
import NavlogDaemon
import NavlogHost
import NavlogSampleApps

// navlogd: argument parsing and wiring only; the daemon is the NavlogDaemon library.

/// What `navlogd --help` prints, in the layout of `navlog --help`.
let help = HelpLayout(
    abstract: "Host navigation sessions behind an HTTP API and journal every event.",
    discussion: """
        Signals: SIGTERM/SIGINT drain and stop; SIGHUP rotates the journal and reloads the configuration.
        Exit codes: 0 stopped cleanly (or a valid --check-config), 2 it could not run, 64 bad arguments \
        or a bad configuration. See docs/DAEMON.md.
        """,
    usage: "navlogd [options]",
    options: [
        HelpLayout.Row("--config FILE", "The JSON configuration. (default: the embedded Config/navlogd.json)"),
        HelpLayout.Row("--check-config", "Validate the configuration, print nothing, and exit 0 (or 64)."),
        HelpLayout.Row("--print-default-config", "Print the embedded default configuration and exit."),
        HelpLayout.Row("--version", "Print the version and exit."),
    ]
)

/// Writes `message` to stderr as one line and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("navlogd: \(message)\n".utf8))
    exit(status)
}

/// Refuses the command line: the culprit on one line, then where to find help (exit 64).
func usageFailure(_ message: String) -> Never {
    fail("\(message)\nSee 'navlogd --help'.", status: 64)
}

var configurationPath: String?
var isCheckOnly = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--config":
        guard let path = arguments.popFirst() else { usageFailure("option '--config' needs a value (FILE)") }
        configurationPath = path
    case "--check-config":
        isCheckOnly = true
    case "--print-default-config":
        FileHandle.standardOutput.write(Data(DaemonConfiguration.defaultText.utf8))
        exit(0)
    case "--version":
        FileHandle.standardOutput.write(Data("navlogd \(navlogVersion)\n".utf8))
        exit(0)
    case "--help", "-h":
        FileHandle.standardOutput.write(Data(help.rendered().utf8))
        exit(0)
    default:
        usageFailure(argument.hasPrefix("-") ? "unknown option '\(argument)'" : "unexpected argument '\(argument)'")
    }
}

let catalog: AppCatalog
do {
    catalog = try AppCatalog(SampleApps.all)
} catch {
    fail("\(error)", status: 2)
}

let configuration: DaemonConfiguration
do {
    configuration = try DaemonConfiguration.load(path: configurationPath, catalog: catalog)
} catch {
    fail("\(configurationPath ?? "embedded default configuration"): \(error)", status: 64)
}
if isCheckOnly { exit(0) }

do {
    try await Daemon(configuration: configuration, catalog: catalog, configurationPath: configurationPath).run()
} catch {
    fail("\(error)", status: 2)
}
exit(0)
