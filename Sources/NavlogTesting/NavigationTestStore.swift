import NavlogEvents
import NavlogHost
import NavlogRuntime
import XCTest

/// Drives a hosted session in a test and asserts, exhaustively, what it records: every
/// command's events must be stated, in order, or the test fails with a -/+ diff.
///
/// Like TCA's `TestStore`, the store checks when it goes away: if it is deinitialised before
/// ``finish(_:allowingLeaks:file:line:)``, it ends the session and fails the test for every
/// event recorded and never asserted, and for every leak ``LeakDetector`` finds in the whole
/// session (at the line that created the store). A test that means to leave events unasserted
/// says so: ``skipReceivedEvents()`` forgets those recorded so far, and `exhaustivity = .off`
/// forgets all of them.
///
/// ```swift
/// let store = try NavigationTestStore(app: MyApps.checkout, parameters: ["variant": "b"])
/// store.assertLaunch([
///     "1 session.start Session#1",
///     "2 coordinator.start CheckoutCoordinator#1 ←1",
///     …
/// ])
/// try store.send(.action(element: "pay", value: nil), [
///     "6 action Cart#1 [Cart#1] ←1",
///     "7 screen.push CheckoutCoordinator#1 [Payment#1] ←6",
/// ])
/// store.finish()  // optional: the store checks the same when it goes away
/// ```
public final class NavigationTestStore {
    /// Whether every recorded event must be asserted (TCA's `Exhaustivity`).
    public enum Exhaustivity: Equatable, Sendable {
        /// Every event must be asserted before the store finishes or goes away.
        case on
        /// Events left unasserted are not a failure; assertions still compare what they are given.
        case off
    }

    public let session: SessionCore
    /// Whether events left unasserted fail the test; `.on` unless set. Leaks fail either way.
    public var exhaustivity: Exhaustivity = .on
    private let sink = MemoryEventSink()
    private let history = MemoryEventSink()
    private let file: StaticString
    private let line: UInt
    /// Whether ``finish(_:allowingLeaks:file:line:)`` (or the deinit check) has run.
    private var isFinished = false
    /// Reports a failure; `XCTFail` but in the tests of the store itself.
    var reportFailure: (_ message: String, _ file: StaticString, _ line: UInt) -> Void = { message, file, line in
        XCTFail(message, file: file, line: line)
    }

    /// Starts a session of `app` in virtual time; the launch events wait to be asserted.
    /// `file` and `line` are where failures found when the store goes away are reported.
    public init(
        app: AppDefinition, parameters: [String: String] = [:], sessionID: String = "s-1",
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        self.file = file
        self.line = line
        session = try SessionCore(
            id: sessionID, app: app, parameters: try app.resolveParameters(parameters),
            sink: FanOutEventSink([sink, history]), timeMode: .virtual
        )
    }

    deinit {
        guard !isFinished else { return }
        for message in complete(allowingLeaks: false) {
            reportFailure(message, file, line)
        }
    }

    /// The events recorded and not yet asserted.
    public var pendingEvents: [Event] { sink.events }

    /// Asserts the events recorded while the session launched.
    public func assertLaunch(_ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        assertPending(expected, file: file, line: line)
    }

    /// Performs `command` and asserts exactly the events it recorded. A refused command is
    /// rethrown after its events are checked, so tests of bad input can assert the `error`.
    public func send(_ command: SessionCommand, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        var failure: (any Error)?
        do {
            try session.perform(command)
        } catch {
            failure = error
        }
        assertPending(expected, file: file, line: line)
        if let failure { throw failure }
    }

    /// Runs the pending asynchronous work and asserts the events it recorded.
    public func receive(_ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        session.waitUntilIdle()
        assertPending(expected, file: file, line: line)
    }

    /// Forgets the events recorded and not yet asserted, so that neither the next assertion nor
    /// the end of the test fails for them (TCA's `skipReceivedActions()`).
    public func skipReceivedEvents() {
        sink.removeAll()
    }

    /// A picture of the session now.
    public var state: NavigationState { session.state() }

    /// Every event of the session so far, asserted or not.
    public var allEvents: [Event] { history.events }

    /// Ends the session and asserts the events that recorded, if given. Fails if any event
    /// recorded before was never asserted (unless `exhaustivity` is `.off`), or, unless
    /// `allowingLeaks`, if ``LeakDetector`` finds a leak in the whole session. The store checks
    /// nothing more when it goes away.
    public func finish(
        _ expected: [String]? = nil, allowingLeaks: Bool = false, file: StaticString = #filePath, line: UInt = #line
    ) {
        for message in complete(allowingLeaks: allowingLeaks, expectedEnd: expected) {
            reportFailure(message, file, line)
        }
    }

    // MARK: - Checks

    /// Compares the pending events with `expected` and forgets them.
    private func assertPending(_ expected: [String], file: StaticString, line: UInt) {
        let actual = sink.events.map(traceLine)
        sink.removeAll()
        guard actual != expected else { return }
        reportFailure("recorded events differ (Expected: −, Actual: +)\n" + lineDiff(expected: expected, actual: actual), file, line)
    }

    /// Ends the session (once) and returns the failures to report: events never asserted,
    /// the end's events if they differ from `expectedEnd`, and the session's leaks.
    private func complete(allowingLeaks: Bool, expectedEnd: [String]? = nil) -> [String] {
        guard !isFinished else { return ["the store was already finished"] }
        isFinished = true
        var failures: [String] = []
        if !sink.events.isEmpty, exhaustivity == .on {
            failures.append(
                "events were recorded but never asserted (skipReceivedEvents() or exhaustivity = .off if that is meant):\n"
                    + sink.events.map { "+ " + traceLine($0) }.joined(separator: "\n")
            )
        }
        sink.removeAll()
        session.end()
        if let expectedEnd {
            let actual = sink.events.map(traceLine)
            if actual != expectedEnd {
                failures.append("recorded events differ (Expected: −, Actual: +)\n" + lineDiff(expected: expectedEnd, actual: actual))
            }
        }
        sink.removeAll()
        let leaks = LeakDetector.leaks(in: history.events)
        if !allowingLeaks, !leaks.isEmpty {
            failures.append("the session leaked:\n" + leaks.map { "  \($0)" }.joined(separator: "\n"))
        }
        return failures
    }
}
