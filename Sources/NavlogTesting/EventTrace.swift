import NavlogEvents
import XCTest

/// The compact one-line form tests pin events in: `7 screen.push DetailCoordinator#1 [Detail#1] ←6`
/// (session sequence number, kind, subject, screen in brackets, cause after the arrow).
public func traceLine(_ event: Event) -> String {
    var line = "\(event.sessionSeq) \(event.kind) \(event.subject)"
    if let screen = event.screen { line += " [\(screen)]" }
    if let cause = event.cause { line += " ←\(cause)" }
    return line
}

/// Renders a line diff: common lines indented by two spaces, expected-only lines with `-`,
/// actual-only lines with `+` (Expected: −, Actual: +).
public func lineDiff(expected: [String], actual: [String]) -> String {
    let n = expected.count, m = actual.count
    var table = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
        for j in stride(from: m - 1, through: 0, by: -1) {
            table[i][j] = expected[i] == actual[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
        }
    }
    var lines: [String] = []
    var i = 0, j = 0
    while i < n || j < m {
        if i < n, j < m, expected[i] == actual[j] {
            lines.append("  " + expected[i])
            i += 1
            j += 1
        } else if j < m, i == n || table[i][j + 1] >= table[i + 1][j] {
            lines.append("+ " + actual[j])
            j += 1
        } else {
            lines.append("- " + expected[i])
            i += 1
        }
    }
    return lines.joined(separator: "\n")
}

/// Asserts the events `sink` recorded match `expected` (in ``traceLine(_:)`` form) exactly,
/// then forgets them. A failure shows a labelled -/+ diff.
public func assertEvents(_ sink: MemoryEventSink, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
    let actual = sink.events.map(traceLine)
    sink.removeAll()
    guard actual != expected else { return }
    XCTFail("recorded events differ (Expected: −, Actual: +)\n" + lineDiff(expected: expected, actual: actual), file: file, line: line)
}
