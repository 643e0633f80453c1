import NavlogEvents
import NavlogHost
import NavlogSampleApps

/// Returns the apps this build of navlog can run.
func loadAppCatalog() throws -> AppCatalog {
    do {
        return try AppCatalog(SampleApps.all)
    } catch {
        throw CommandFailure("the built-in app catalog is inconsistent: \(error)")
    }
}

/// `navlog apps`: lists the apps and their parameters.
struct AppsCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "apps",
        abstract: "List the apps navlog can run, with their parameters.",
        options: [.value("output", short: "o", "FORMAT", help: "text or json.", default: "text")]
    )

    let format: String

    init(_ arguments: ParsedArguments) throws {
        format = try arguments.choice("output", ["text", "json"], default: "text")
    }

    func run() async throws -> Int32 {
        let appCatalog = try loadAppCatalog()
        if format == "json" {
            let apps: [JSONValue] = appCatalog.apps.map { app in
                [
                    "name": .string(app.name), "summary": .string(app.summary),
                    "parameters": .array(app.parameters.map { parameter in
                        [
                            "name": .string(parameter.name), "default": .string(parameter.defaultValue),
                            "accepts": .string(parameter.expectation), "summary": .string(parameter.summary),
                        ]
                    }),
                ]
            }
            Output.standardOutput(JSONValue.array(apps).serialized() + "\n")
            return ExitCode.success
        }
        var lines: [String] = []
        for app in appCatalog.apps {
            lines.append("\(app.name)  \(app.summary)")
            for parameter in app.parameters {
                lines.append("    \(parameter.name)=\(parameter.defaultValue)  \(parameter.summary); \(parameter.expectation)")
            }
        }
        Output.standardOutput(lines.joined(separator: "\n") + "\n")
        return ExitCode.success
    }
}
