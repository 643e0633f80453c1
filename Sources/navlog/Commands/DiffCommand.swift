import Foundation
import NavlogAnalysis

/// `navlog diff`: whether a candidate's flows regressed against a base, with evidence.
struct DiffCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "diff",
        abstract: "Compare a candidate's flows with a base and fail on a regression.",
        discussion: """
            BASE and CANDIDATE are journal files or directories, or a baseline file saved by \
            'navlog baseline save'. Scripted runs are compared exactly (matched by scenario label \
            and session); screens, transitions, dead ends, leaks, smells and errors structurally; \
            dwell, time to convert and events per session by Mann-Whitney U, and funnel conversion \
            and transition shares by a proportion test, Holm-corrected. See docs/DIFF.md.
            Exit codes: 0 no regression, 1 regression (or seqs missing from a journal read, \
            warned on stderr), 2 could not compare, 64 bad arguments.
            """,
        arguments: [
            ArgumentSpec(name: "BASE", help: "The base: journals or a baseline file (or --base).", isOptional: true),
            ArgumentSpec(name: "CANDIDATE", help: "The candidate: journals or a baseline file (or --candidate).", isOptional: true),
        ],
        options: [
            .value("base", "PATH", help: "A base journal file or directory, or one baseline file.", repeatable: true),
            .value("candidate", "PATH", help: "A candidate journal file or directory, or one baseline file.", repeatable: true),
        ] + DiffOptions.settingSpecs + [
            .value("alpha", "A", help: "Family-wise significance level after Holm correction.", default: "0.01"),
            .value("noise-threshold", "T", help: "Smallest relative change that counts, as 5% or 0.05.", default: "5%"),
            .value("noise-floor", "MS", help: "Smallest change of a duration's median that counts, in milliseconds.", default: "1"),
            .value("min-samples", "N", help: "Fewer samples than this on a side is reported as too few.", in: 2...1_000_000, default: "5"),
            .value("gate", "METRIC", help: "Fail on this metric too: \(MetricFamily.allCases.map(\.rawValue).joined(separator: ", ")).", repeatable: true),
            .value("no-gate", "METRIC", help: "Report this metric without failing on it.", repeatable: true),
            .value("context", "N", help: "Unchanged events shown around each change of an exact diff.", in: 0...100, default: "3"),
            .value("output", short: "o", "FORMAT", help: "text, json or markdown.", default: "text"),
            .value("junit", "FILE", help: "Also write JUnit XML: one testcase per scenario session, structural check and metric."),
            .flag("github-annotations", help: "Also print GitHub Actions ::error/::warning lines (text and markdown output only)."),
            .value("record", "MODE", help: "With a baseline file as BASE: missing (write it when absent, add new scenario sessions), all (rewrite it) or never. Not given: an absent BASE exits 2; a present one gets new scenario sessions, or is never written when CI is set."),
        ]
    )

    let basePaths: [String]
    let candidatePaths: [String]
    let settings: DiffSettings
    let format: DiffFormat
    let junitPath: String?
    let showsAnnotations: Bool
    /// `--record` as given; `nil` when not given.
    let requestedRecord: RecordMode?
    /// What happens to a baseline file that is present: `--record`, else `never` under CI and
    /// `missing` otherwise.
    let record: RecordMode

    /// How `navlog diff` writes a baseline file given as BASE.
    enum RecordMode: String, CaseIterable {
        case missing, all, never
    }

    init(_ arguments: ParsedArguments) throws {
        var positionals = arguments.positionals[...]
        var base = arguments.values("base")
        var candidate = arguments.values("candidate")
        if base.isEmpty, let first = positionals.popFirst() { base = [first] }
        if candidate.isEmpty, let next = positionals.popFirst() { candidate = [next] }
        if let extra = positionals.first { throw UsageError("unexpected argument '\(extra)'; give one BASE and one CANDIDATE, or repeat --base/--candidate") }
        guard !base.isEmpty, !candidate.isEmpty else { throw UsageError("give a BASE and a CANDIDATE (positional, or --base and --candidate)") }
        basePaths = base
        candidatePaths = candidate
        var settings = try DiffOptions.settings(arguments)
        if let text = arguments.value("alpha") {
            guard let alpha = Double(text), alpha > 0, alpha <= 0.5 else { throw UsageError("option '--alpha' must be a number in (0, 0.5], not '\(text)'") }
            settings.alpha = alpha
        }
        if let text = arguments.value("noise-threshold") {
            let number = text.hasSuffix("%") ? Double(text.dropLast()).map { $0 / 100 } : Double(text)
            guard let number, number >= 0, number <= 10 else { throw UsageError("option '--noise-threshold' must be like 5% or 0.05, not '\(text)'") }
            settings.noiseThreshold = number
        }
        if let text = arguments.value("noise-floor") {
            guard let number = Double(text), number >= 0, number <= 3_600_000 else { throw UsageError("option '--noise-floor' must be milliseconds from 0 to 3600000, not '\(text)'") }
            settings.noiseFloorMilliseconds = number
        }
        if let minimum = try arguments.integer("min-samples") { settings.minimumSamples = minimum }
        if let context = try arguments.integer("context") { settings.contextLines = context }
        for (option, isGating) in [("gate", true), ("no-gate", false)] {
            for name in arguments.values(option) {
                guard let family = MetricFamily(rawValue: name) else {
                    throw UsageError("option '--\(option)': unknown metric '\(name)' (metrics: \(MetricFamily.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                if isGating { settings.gates.insert(family) } else { settings.gates.remove(family) }
            }
        }
        self.settings = settings
        format = DiffFormat(rawValue: try arguments.choice("output", DiffFormat.allCases.map(\.rawValue), default: "text"))!
        junitPath = arguments.value("junit")
        showsAnnotations = arguments.flag("github-annotations")
        if showsAnnotations, format == .json { throw UsageError("option '--github-annotations' would break --output json; use text or markdown") }
        requestedRecord = arguments.value("record") == nil ? nil : RecordMode(rawValue: try arguments.choice("record", RecordMode.allCases.map(\.rawValue), default: ""))
        record = requestedRecord ?? (DiffCommand.isContinuousIntegration(ProcessInfo.processInfo.environment) ? .never : .missing)
    }

    /// Whether `CI` is set, as CI services do: non-empty and not `false` or `0`.
    static func isContinuousIntegration(_ environment: [String: String]) -> Bool {
        guard let value = environment["CI"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return false }
        return !["false", "0"].contains(value.lowercased())
    }

    func run() async throws -> Int32 {
        let baseInput = try self.baseInput()
        let candidateInput = try DiffOptions.input(candidatePaths, side: "candidate")
        var settings = self.settings
        var baseline: DiffBaseline?
        var baselinePath: String?
        if case .baseline(let path) = baseInput {
            baselinePath = path
            if FileManager.default.fileExists(atPath: path) {
                let loaded = try DiffOptions.readBaseline(path)
                // Both sides are normalized and measured alike: the baseline's ignored fields and
                // funnels apply to the candidate too.
                settings.ignoredFields = Array(Set(settings.ignoredFields + loaded.ignoredFields)).sorted()
                for funnel in loaded.funnels where !settings.funnels.contains(where: { $0.name == funnel.name }) { settings.funnels.append(funnel) }
                baseline = loaded
            }
        }
        let (candidate, candidateGaps) = try side(candidateInput, settings: settings)
        guard let path = baselinePath, baseline == nil else {
            let (base, baseGaps) = try side(baseInput, settings: settings)
            let comparison = try compare(base, candidate, settings: settings, recordTo: baselinePath)
            return max(comparison, baseGaps, candidateGaps)
        }
        // No baseline yet, and `--record missing` or `all` asked for one: record it from the
        // candidate, and say in the JUnit file that nothing was compared.
        try DiffOptions.write(DiffBaseline(side: candidate, settings: settings), to: path)
        try writeJUnit(FlowDiff.junitXMLForRecordedBaseline(at: path))
        Output.standardError("navlog diff: no baseline at '\(path)'; recorded one from the candidate (\(candidate.sequences.count) scenario sessions, \(candidate.sessions) sessions); nothing compared\n")
        return candidateGaps
    }

    /// Classifies BASE. One path that does not exist is recorded only when `--record missing`
    /// or `all` was given and it can name a baseline file; otherwise it is trouble (exit 2), so
    /// that a mistyped path never passes as "nothing compared".
    private func baseInput() throws -> DiffOptions.Input {
        guard basePaths.count == 1, let path = basePaths.first, !FileManager.default.fileExists(atPath: path) else {
            return try DiffOptions.input(basePaths, side: "base")
        }
        switch requestedRecord {
        case .missing, .all:
            try DiffOptions.checkBaselinePath(path, isRecordedBase: true)
            return .baseline(path)
        case .never:
            throw CommandFailure("base '\(path)' does not exist")
        case nil:
            let isRecordable = (try? DiffOptions.checkBaselinePath(path, isRecordedBase: true)) != nil
            throw CommandFailure("base '\(path)' does not exist" + (isRecordable ? " (pass --record missing to record a baseline there)" : ""))
        }
    }

    // MARK: - Comparing

    /// The side `input` gives, and whether seqs were missing from its journals (a finding).
    private func side(_ input: DiffOptions.Input, settings: DiffSettings) throws -> (side: DiffSide, gapStatus: Int32) {
        switch input {
        case .journals(let paths): try DiffOptions.readJournals(paths, settings: settings, command: "navlog diff")
        case .baseline(let path): (try DiffOptions.readBaseline(path).side.ignoring(settings.ignoredFields), ExitCode.success)
        }
    }

    private func compare(_ base: DiffSide, _ candidate: DiffSide, settings: DiffSettings, recordTo baselinePath: String?) throws -> Int32 {
        let diff = FlowDiff(base: base, candidate: candidate, settings: settings)
        guard diff.hasCommonGround else {
            throw CommandFailure("nothing in common to compare: base has \(base.sessions) sessions over \(base.screens.count) screens, candidate \(candidate.sessions) sessions over \(candidate.screens.count) screens, and no scenario or screen is on both sides")
        }
        try writeJUnit(diff.junitXML())
        var text = diff.rendered(as: format, style: .automatic(isTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment))
        if showsAnnotations { text = diff.githubAnnotations() + text }
        Output.standardOutput(text)
        if let baselinePath { try recordBaseline(at: baselinePath, base: base, candidate: candidate, settings: settings) }
        return diff.hasRegression ? ExitCode.finding : ExitCode.success
    }

    /// Writes `xml` to the `--junit` file, if one was asked for.
    private func writeJUnit(_ xml: @autoclosure () -> String) throws {
        guard let junitPath else { return }
        do {
            try Data(xml().utf8).write(to: URL(fileURLWithPath: junitPath), options: .atomic)
        } catch {
            throw CommandFailure("cannot write JUnit XML '\(junitPath)': \((error as NSError).localizedDescription)")
        }
    }

    /// `--record all` rewrites the baseline from the candidate; `missing` adds the candidate's
    /// scenario sessions the baseline lacks.
    private func recordBaseline(at path: String, base: DiffSide, candidate: DiffSide, settings: DiffSettings) throws {
        switch record {
        case .all:
            try DiffOptions.write(DiffBaseline(side: candidate, settings: settings), to: path)
            Output.standardError("navlog diff: rewrote baseline '\(path)' from the candidate (--record all)\n")
        case .missing:
            let missing = candidate.sequences.filter { base.sequence(scenario: $0.scenario, session: $0.session) == nil }
            guard !missing.isEmpty else { return }
            var stored = try DiffOptions.readBaseline(path)
            stored.side.sequences = (stored.side.sequences + missing).sorted { ($0.scenario, $0.session) < ($1.scenario, $1.session) }
            try DiffOptions.write(stored, to: path)
            Output.standardError("navlog diff: recorded \(missing.count) new scenario session(s) into baseline '\(path)': \(missing.map(\.key).joined(separator: ", "))\n")
        case .never:
            break
        }
    }
}
