import Foundation
import NavlogEvents

/// `navlog baseline save` on large journals (issue 17: it took 27 s and wrote 223 MB for about
/// 700k events): its time beside `navlog report -o json` on the same journal (the same read and
/// the same analysis, without the sequences a baseline packs), and its file beside the journal.
///
/// Two journals, the shapes that cost a baseline most: one `navlog explore tabs` session of
/// `steps` steps (every instance number new, so most packed lines are distinct) and
/// `navlog explore articles` over many sessions. Each command runs in a child process
/// under GNU time, in alternating turns, timed by its fastest.
enum BaselineSaveBenchmark {
    static let rounds = 2
    /// Steps of each session of the articles journal (300 sessions: about 830k events).
    static let articlesSteps = 800

    struct Figure {
        var journal: String
        var events: Int
        var journalBytes: Int64
        var baselineBytes: Int64
        var saveSeconds: Double
        var reportSeconds: Double
        var savePeakRSSMegabytes: Double
        var saveTurns: [Double]

        var sizeRatio: Double { Double(baselineBytes) / Double(journalBytes) }
    }

    /// Writes both journals and measures each.
    static func run(steps: Int, articlesSessions: Int, root: String, navlog: String, line: (String) -> Void) throws -> [Figure] {
        let tabs = root + "/baseline-tabs-journal", articles = root + "/baseline-articles-journal"
        let start = monotonicSeconds()
        try? FileManager.default.removeItem(atPath: tabs)
        try explore(navlog, ["tabs", "--seed", "18", "--sessions", "1", "--steps", String(steps)], journal: tabs, root: root)
        try? FileManager.default.removeItem(atPath: articles)
        try explore(navlog, ["articles", "--seed", "7", "--sessions", String(articlesSessions), "--steps", String(articlesSteps)], journal: articles, root: root)
        line("baseline workload: navlog explore tabs, 1 session of \(steps) steps, and articles, \(articlesSessions) sessions of \(articlesSteps) steps, in \(String(format: "%.1f", monotonicSeconds() - start)) s")
        return try [
            measure(name: "one tabs session", journal: tabs, root: root, navlog: navlog),
            measure(name: "articles, \(articlesSessions) sessions", journal: articles, root: root, navlog: navlog),
        ]
    }

    private static func explore(_ navlog: String, _ arguments: [String], journal: String, root: String) throws {
        // explore exits 1 when the walk found something (a dead end, a leak): the journal is whole.
        let run = try ChildProcess.measure(navlog, ["explore"] + arguments + ["--journal", journal], stdout: root + "/explore.out")
        guard run.status == 0 || run.status == 1 else { throw BenchmarkError("navlog explore \(arguments.joined(separator: " ")) exited \(run.status)") }
    }

    private static func measure(name: String, journal: String, root: String, navlog: String) throws -> Figure {
        let baseline = root + "/benchmark.baseline.json"
        var saves: [ChildProcess.Measurement] = []
        var reports: [ChildProcess.Measurement] = []
        for _ in 0..<rounds {
            let report = try ChildProcess.measure(navlog, ["report", journal, "-o", "json"], stdout: root + "/baseline-report.json")
            guard report.status == 0 else { throw BenchmarkError("navlog report \(journal) exited \(report.status)") }
            reports.append(report)
            try? FileManager.default.removeItem(atPath: baseline)
            let save = try ChildProcess.measure(navlog, ["baseline", "save", "--journal", journal, "-o", baseline], stdout: root + "/baseline-save.out")
            guard save.status == 0 else { throw BenchmarkError("navlog baseline save --journal \(journal) exited \(save.status)") }
            saves.append(save)
        }
        let report = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: root + "/baseline-report.json")))
        let journalBytes = try directoryBytes(journal)
        return Figure(
            journal: name, events: Int(report["events"]?.intValue ?? 0), journalBytes: journalBytes, baselineBytes: fileBytes(baseline),
            saveSeconds: saves.map(\.seconds).min() ?? 0, reportSeconds: reports.map(\.seconds).min() ?? 0,
            savePeakRSSMegabytes: Double(saves.map(\.maxRSSKilobytes).max() ?? 0) / 1024, saveTurns: saves.map(\.seconds)
        )
    }
}
