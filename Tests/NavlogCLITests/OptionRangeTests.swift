import Foundation
import NavlogTestSupport
import XCTest

/// Options with a range show it in their help, and the parser refuses values just outside it
/// with the same range: help and error come from one declaration.
final class OptionRangeTests: XCTestCase {
    /// Every option of navlog's commands that takes an integer in a range, with its range, and
    /// the other arguments the command needs (`JOURNAL` stands for an existing journal).
    static let rangedOptions: [(command: [String], option: String, low: Int, high: Int, rest: [String])] = [
        (["explore"], "steps", 1, 1_000_000, ["tabs"]),
        (["explore"], "sessions", 1, 100_000, ["tabs"]),
        (["tail"], "lines", 0, 10_000_000, ["JOURNAL"]),
        (["report"], "top", 1, 10_000, ["JOURNAL"]),
        (["report"], "width", 40, 1000, ["JOURNAL"]),
        (["report"], "double-push-ms", 1, 3_600_000, ["JOURNAL"]),
        (["export"], "batch-size", 1, 1_000_000, ["JOURNAL"]),
        (["diff"], "min-samples", 2, 1_000_000, ["JOURNAL", "JOURNAL"]),
        (["diff"], "context", 0, 100, ["JOURNAL", "JOURNAL"]),
        (["diff"], "sample-limit", 16, 10_000_000, ["JOURNAL", "JOURNAL"]),
        (["baseline", "save"], "sample-limit", 16, 10_000_000, ["--journal", "JOURNAL", "-o", "BASELINE"]),
        (["push"], "batch", 1, 100_000, ["JOURNAL", "--to", "http://127.0.0.1:9"]),
        (["push"], "retries", 0, 1000, ["JOURNAL", "--to", "http://127.0.0.1:9"]),
    ]

    /// The code's ranged options, found by reading its sources: each must be in the list above.
    func testTheListHoldsEveryRangedOption() throws {
        let folder = Repository.url("Sources/navlog/Commands")
        var declared: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let pattern = try NSRegularExpression(pattern: #"\.value\("([a-z-]+)"[^\n]*, in: [0-9_]+\.\.\.[0-9_]+"#)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                declared.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        XCTAssertEqual(declared, Set(Self.rangedOptions.map(\.option)))
    }

    /// `1000000` as help shows it: `1,000,000`, grouped by three digits here, not by the code
    /// under test.
    private func grouped(_ number: Int) -> String {
        var digits = String(number)
        var groups: [String] = []
        while digits.count > 3 {
            groups.insert(String(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        groups.insert(digits, at: 0)
        return groups.joined(separator: ",")
    }

    func testHelpShowsEachRange() throws {
        for entry in Self.rangedOptions {
            let help = try Product.navlog.run(entry.command + ["--help"])
            XCTAssertEqual(help.status, 0, entry.command.joined(separator: " "))
            let line = help.stdout.split(separator: "\n").first { $0.hasPrefix("  --\(entry.option) ") || $0.contains(", --\(entry.option) ") }
            let range = "(from \(grouped(entry.low)) to \(grouped(entry.high)))"
            XCTAssertTrue(line?.contains(range) == true, "\(entry.command) --\(entry.option): \(line ?? "no help line") lacks \(range)")
        }
    }

    func testValuesJustOutsideTheRangeAreRefusedWithIt() throws {
        let directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
        let journal = directory.appendingPathComponent("journal").path
        let explore = try Product.navlog.run(["explore", "articles", "--steps", "5", "--journal", journal])
        XCTAssertLessThanOrEqual(explore.status, 1, explore.stderr)
        let baseline = directory.appendingPathComponent("baseline.json").path
        for entry in Self.rangedOptions {
            let path = entry.command.joined(separator: " ")
            let rest = entry.rest.map { $0 == "JOURNAL" ? journal : $0 == "BASELINE" ? baseline : $0 }
            for value in [entry.low - 1, entry.high + 1] {
                let result = try Product.navlog.run(entry.command + ["--\(entry.option)", String(value)] + rest)
                XCTAssertEqual(result.status, 64, "\(path) --\(entry.option) \(value): \(result.stderr)")
                XCTAssertEqual(result.stderr, """
                    navlog \(path): option '--\(entry.option)' must be an integer from \(grouped(entry.low)) to \(grouped(entry.high)), not '\(value)'
                    See 'navlog \(path) --help'.

                    """)
            }
        }
    }
}
