import Foundation
import NavlogEvents
import NavlogTesting
import NavlogTestSupport
import XCTest

/// Every export format and `navlog report --output json`, run by the built binary on two fixed
/// journals and compared byte for byte with the outputs recorded before the exports were made
/// to stream (issue 18): the rewrite must not change a byte.
///
/// The journals are committed as they are (`Tests/Fixtures/export-golden/<name>/journal.navlog.xz`):
/// a journal records wall-clock times and a random run id, so an explored session is
/// reproducible in its events but not in those; nothing is normalised. `scripts/make-export-golden`
/// made them and the expected outputs:
/// - `tabs`: `navlog explore tabs --seed 18 --sessions 1 --steps 2000`;
/// - `articles`: `navlog explore articles --seed 7 --sessions 4 --steps 150` (sessions interleave).
///
/// Outputs that carry state across events are kept whole (`<output>.xz`), so a failure shows
/// the first lines that differ; those that encode each event on its own (ndjson, ClickHouse
/// events, OTLP logs) are kept as SHA-256 and size (`digests.txt`), to keep the fixtures small.
final class ExportGoldenTests: XCTestCase {
    /// The outputs compared, by name: the command, then the arguments after the journal.
    static let outputs: [(name: String, arguments: [String])] = [
        ("ndjson", ["export", "--format", "ndjson"]),
        ("otlp-traces", ["export", "--format", "otlp-json"]),
        ("otlp-logs", ["export", "--format", "otlp-json", "--otlp-logs"]),
        ("chrome-trace", ["export", "--format", "chrome-trace"]),
        ("clickhouse-events", ["export", "--format", "clickhouse", "--table", "events"]),
        ("clickhouse-visits", ["export", "--format", "clickhouse", "--table", "visits"]),
        ("report", ["report", "--output", "json"]),
    ]

    static let fixtures = Repository.root.appendingPathComponent("Tests/Fixtures/export-golden")

    func testTabsSessionOfTwoThousandSteps() throws { try assertGolden("tabs") }
    func testArticlesJournalOfSeveralSessions() throws { try assertGolden("articles") }

    private func assertGolden(_ fixture: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let directory = Self.fixtures.appendingPathComponent(fixture)
        let journal = URL(fileURLWithPath: makeTemporaryDirectory(self)).appendingPathComponent("\(fixture).navlog")
        try Self.unxz(directory.appendingPathComponent("journal.navlog.xz")).write(to: journal)
        let digests = try Self.digests(directory.appendingPathComponent("digests.txt"))
        for output in Self.outputs {
            let result = try Product.navlog.run([output.arguments[0], journal.path] + output.arguments.dropFirst())
            XCTAssertEqual(result.status, 0, "\(fixture) \(output.name): \(result.stderr)", file: file, line: line)
            if let expected = digests[output.name] {
                let actual = Self.digest(Data(result.stdout.utf8))
                XCTAssertEqual(actual, expected, "\(fixture) \(output.name) differs from the recorded output (SHA-256 and size)", file: file, line: line)
                continue
            }
            let expected = String(decoding: try Self.unxz(directory.appendingPathComponent("\(output.name).xz")), as: UTF8.self)
            guard result.stdout != expected else { continue }
            XCTFail("\(fixture) \(output.name) differs from the recorded output (Expected: −, Actual: +)\n"
                + Self.firstDifference(expected: expected, actual: result.stdout), file: file, line: line)
        }
    }

    /// The lines around the first line that differs, as a labelled diff.
    static func firstDifference(expected: String, actual: String) -> String {
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = Array(zip(expectedLines, actualLines)).firstIndex { $0.0 != $0.1 } ?? min(expectedLines.count, actualLines.count)
        let window = max(0, first - 2)..<(first + 3)
        return "at line \(first + 1):\n" + lineDiff(
            expected: Array(expectedLines[window.clamped(to: expectedLines.indices)]),
            actual: Array(actualLines[window.clamped(to: actualLines.indices)])
        )
    }

    /// `<sha256 hex> <bytes>` of `data`, as in digests.txt.
    static func digest(_ data: Data) -> String {
        LibCrypto.sha256(data).hexString + " \(data.count)"
    }

    /// digests.txt: `<sha256 hex> <bytes> <name>` per line, by name.
    static func digests(_ url: URL) throws -> [String: String] {
        var digests: [String: String] = [:]
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3 else { continue }
            digests[String(fields[2])] = "\(fields[0]) \(fields[1])"
        }
        return digests
    }

    /// The bytes of an xz file, through xz(1).
    static func unxz(_ url: URL) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xz", "-dc", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url.path]) }
        return data
    }
}
