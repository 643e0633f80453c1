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
    EditScript(from: expected, to: actual).steps.map { step in
        switch step {
        case .same(let index, _): "  " + expected[index]
        case .removed(let index): "- " + expected[index]
        case .added(let index): "+ " + actual[index]
        }
    }.joined(separator: "\n")
}

/// Asserts the events `sink` recorded match `expected` (in ``traceLine(_:)`` form) exactly,
/// then forgets them. A failure shows a labelled -/+ diff.
public func assertEvents(_ sink: MemoryEventSink, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
    let actual = sink.events.map(traceLine)
    sink.removeAll()
    guard actual != expected else { return }
    XCTFail("recorded events differ (Expected: −, Actual: +)\n" + lineDiff(expected: expected, actual: actual), file: file, line: line)
}
