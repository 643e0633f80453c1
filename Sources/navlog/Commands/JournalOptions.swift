import Foundation
import NavlogEvents
import NavlogJournal

/// Options shared by the commands that record into a journal.
enum JournalOptions {
    static let specs: [OptionSpec] = [
        .value("journal", short: "j", "DIR", help: "The journal directory to record into; created when missing."),
        .value("label", "KEY=VALUE", help: "A label of this run, such as scenario=checkout or git_sha=abc123.", repeatable: true),
        .value("redact", "RULE", help: "Protect a private value: ViewModelType.field (or *.field), action.value:ELEMENT (or action.value:*), deeplink.url or error.message.",
               repeatable: true),
        .value("redact-mode", "MODE", help: "What becomes of private values: hash (hmac:…, keyed per journal) or remove.", default: "hash"),
        .value("privacy-key", "FILE", help: "The key file for hashes, shared by journals to compare; default: in the journal directory."),
    ]

    /// The privacy policy of `--redact` and `--redact-mode`; a bad rule is a usage error.
    static func privacyPolicy(_ arguments: ParsedArguments) throws -> PrivacyPolicy {
        let modeText = try arguments.choice("redact-mode", PrivacyPolicy.Mode.allCases.map(\.rawValue), default: "hash")
        let rules = try arguments.values("redact").map { text in
            do {
                return try RedactionRule(parsing: text)
            } catch {
                throw UsageError("option '--redact': \(error)")
            }
        }
        return PrivacyPolicy(mode: PrivacyPolicy.Mode(rawValue: modeText)!, rules: rules)
    }

    /// Opens a writer on `--journal` with the run's labels; a directory that cannot be written
    /// is trouble (exit 2) named with its path.
    static func makeWriter(_ arguments: ParsedArguments, extraLabels: [String: String]) throws -> JournalWriter {
        let directory = try arguments.require("journal")
        var labels = extraLabels
        for (key, value) in try arguments.keyValues("label") { labels[key] = value }
        do {
            return try JournalWriter(configuration: JournalConfiguration(
                directory: directory, labels: labels, privacy: try privacyPolicy(arguments), privacyKeyFile: arguments.value("privacy-key")))
        } catch let error as UsageError {
            throw error
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
