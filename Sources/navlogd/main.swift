import Foundation
import NavlogDaemon
import NavlogHost
import NavlogSampleApps

// navlogd: argument parsing and wiring only; the daemon is the NavlogDaemon library.

let usage = """
    usage: navlogd [--config FILE] [--check-config] [--print-default-config]

      --config FILE            the JSON configuration (default: the embedded Config/navlogd.json)
      --check-config           validate the configuration, print nothing, and exit 0 (or 64)
      --print-default-config   print the embedded default configuration and exit

    Signals: SIGTERM/SIGINT drain and stop; SIGHUP rotates the journal and reloads the configuration.

    """

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("navlogd: \(message)\n".utf8))
    exit(status)
}

var configurationPath: String?
var isCheckOnly = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--config":
        guard let path = arguments.popFirst() else { fail("--config needs a file\n\(usage)", status: 64) }
        configurationPath = path
    case "--check-config":
        isCheckOnly = true
    case "--print-default-config":
        FileHandle.standardOutput.write(Data(DaemonConfiguration.defaultText.utf8))
        exit(0)
    case "--help", "-h":
        FileHandle.standardOutput.write(Data(usage.utf8))
        exit(0)
    default:
        fail("unknown argument '\(argument)'\n\(usage)", status: 64)
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
