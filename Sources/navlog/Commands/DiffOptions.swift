import Foundation
import NavlogAnalysis
import NavlogEvents
import NavlogJournal

/// The options `navlog diff` and `navlog baseline save` share, and how both read a side.
enum DiffOptions {
    static let settingSpecs: [OptionSpec] = [
        .value("config", "FILE", help: "Thresholds, gates, funnels and ignored fields as JSON (see Config/diff.json); flags override it."),
        .value("funnel", "[NAME=]A,B,C", help: "A funnel over these screens, in order: its conversion and time to convert are compared.", repeatable: true),
        .value("ending", "SCREEN", help: "A screen where a session may end without being a dead end.", repeatable: true),
        .value("ignore-field", "PATH", help: "A payload field left out of the exact comparison, such as parameters.latency_ms.", repeatable: true),
        .value("sample-limit", "N", help: "The most values kept per metric (a seeded reservoir beyond it).", in: 16...10_000_000, default: "2000"),
    ]

    /// The settings from `--config`, then the flags over it.
    static func settings(_ arguments: ParsedArguments) throws -> DiffSettings {
        var settings = DiffSettings()
        if let path = arguments.value("config") {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw UsageError("cannot read config '\(path)': \((error as NSError).localizedDescription)")
            }
            do {
                try settings.apply(json: try JSONValue(parsing: data))
            } catch let error as DiffSettingsError {
                throw UsageError("config '\(path)': \(error)")
            } catch {
                throw UsageError("config '\(path)' is not JSON: \(error)")
            }
        }
        let funnels = try Self.funnels(arguments)
        settings.funnels = Dictionary(grouping: settings.funnels + funnels, by: \.name).values.map { $0.last! }.sorted { $0.name < $1.name }
        settings.expectedEndings += arguments.values("ending")
        settings.ignoredFields += arguments.values("ignore-field")
        if let limit = try arguments.integer("sample-limit") { settings.sampleLimit = limit }
        return settings
    }

    /// The funnels of `--funnel`, which `navlog report` takes too.
    static func funnels(_ arguments: ParsedArguments) throws -> [Funnel] {
        try arguments.values("funnel").enumerated().map { index, text in
            do throws(Funnel.SyntaxError) {
                return try Funnel(parsing: text, position: index + 1)
            } catch {
                throw UsageError("option '--funnel' needs at least two screens, as A,B[,C...]: '\(error.text)'")
            }
        }
    }

    // MARK: - Reading a side

    /// What a side was given as.
    enum Input {
        case journals([String])
        case baseline(String)
    }

    /// Classifies `paths`: one file holding JSON is a baseline; anything else is journals. A
    /// path that does not exist, or a directory with no journal file, is trouble (exit 2).
    static func input(_ paths: [String], side: String) throws -> Input {
        if paths.count == 1, let path = paths.first {
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                throw CommandFailure("\(side) '\(path)' does not exist")
            }
            if !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: path) {
                let head = (try? handle.read(upToCount: 64)) ?? Data()
                try? handle.close()
                if DiffBaseline.isBaseline(head) { return .baseline(path) }
            }
        }
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw CommandFailure("\(side) '\(path)' does not exist")
        }
        try EventQuery.refuseDirectoriesWithoutFiles(paths, role: side)
        return .journals(paths)
    }

    /// Reads a baseline file; a damaged or foreign one is trouble (exit 2) naming it.
    static func readBaseline(_ path: String) throws -> DiffBaseline {
        do {
            return try DiffBaseline(data: try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch let error as DiffBaseline.FormatError {
            throw CommandFailure("baseline '\(path)': \(error)")
        } catch {
            throw CommandFailure("cannot read baseline '\(path)': \((error as NSError).localizedDescription)")
        }
    }

    /// Reads journal files and directories into a side, streaming their events; seqs missing
    /// from them are warnings of `command` (``GapWarnings``), and `gapStatus` says whether
    /// there were any.
    static func readJournals(_ paths: [String], settings: DiffSettings, command: String) throws -> (side: DiffSide, gapStatus: Int32) {
        let analysis: JournalAnalysis<DiffSide>
        do {
            analysis = try DiffSide.read(journals: paths, settings: settings)
        } catch {
            throw CommandFailure("\(error)")
        }
        return (analysis.value, GapWarnings.report(analysis.gaps, command: command))
    }

    /// Refuses, as bad arguments (exit 64), a baseline path that names a directory: one ending
    /// in `/` or one that is a directory. With `isRecordedBase` (a BASE that `navlog diff`
    /// would record because it does not exist) also a name without an extension or ending in
    /// `.navlog`: such a path reads as a mistyped journal, and must not become a baseline file.
    static func checkBaselinePath(_ path: String, isRecordedBase: Bool = false) throws {
        let name = (path as NSString).lastPathComponent
        var isDirectory: ObjCBool = false
        if path.hasSuffix("/") || name == "." || name == ".."
            || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue) {
            throw CommandFailure("cannot write a baseline to '\(path)': it names a directory; give a file, such as navlog.baseline.json", exitCode: ExitCode.usage)
        }
        let pathExtension = (name as NSString).pathExtension
        if isRecordedBase, pathExtension.isEmpty || pathExtension == "navlog" {
            throw CommandFailure("cannot record a baseline at '\(path)': it reads as a journal, not a baseline file; give a name such as navlog.baseline.json", exitCode: ExitCode.usage)
        }
    }

    /// Writes a baseline file, creating its directory; failure is trouble naming the file.
    static func write(_ baseline: DiffBaseline, to path: String) throws {
        do {
            let url = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try baseline.serialized().write(to: url, options: .atomic)
        } catch {
            throw CommandFailure("cannot write baseline '\(path)': \((error as NSError).localizedDescription)")
        }
    }
}
