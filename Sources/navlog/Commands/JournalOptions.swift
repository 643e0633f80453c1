import Foundation
import Journal
import Navigation

/// Options shared by the commands that record into a journal.
enum JournalOptions {
    static let specs: [OptionSpec] = [
        .value("journal", short: "j", "DIR", help: "The journal directory to record into; created when missing."),
        .value("label", "KEY=VALUE", help: "A label of this run, such as scenario=checkout or git_sha=abc123.", repeatable: true),
    ]

    /// Opens a writer on `--journal` with the run's labels; a directory that cannot be written
    /// is trouble (exit 2) named with its path.
    static func makeWriter(_ arguments: ParsedArguments, extraLabels: [String: String]) throws -> JournalWriter {
        let directory = try arguments.require("journal")
        var labels = extraLabels
        for (key, value) in try arguments.keyValues("label") { labels[key] = value }
        do {
            return try JournalWriter(configuration: JournalConfiguration(directory: directory, labels: labels))
        } catch {
            throw CommandFailure("cannot record into journal directory '\(directory)': \(error)")
        }
    }

    /// Flushes and closes `writer`, turning a failure into trouble that names the directory.
    static func close(_ writer: JournalWriter) throws {
        do {
            try writer.close()
        } catch {
            throw CommandFailure("could not finish writing journal '\(writer.configuration.directory)': \(error)")
        }
    }

    /// The `key=value` pairs of `--param`.
    static func parameters(_ arguments: ParsedArguments) throws -> [String: String] {
        var parameters: [String: String] = [:]
        for (key, value) in try arguments.keyValues("param") { parameters[key] = value }
        return parameters
    }
}
