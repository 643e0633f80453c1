import NavlogEvents
import NavlogHost
import NavlogRuntime
import XCTest

/// Drives a hosted session in a test and asserts, exhaustively, what it records: every
/// command's events must be stated, in order, or the test fails with a -/+ diff.
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
/// store.finish()
/// ```
public final class NavigationTestStore {
    public let session: SessionCore
    private let sink = MemoryEventSink()
    private let history = MemoryEventSink()
    private let file: StaticString
    private let line: UInt

    /// Starts a session of `app` in virtual time; the launch events wait to be asserted.
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

    /// The events recorded and not yet asserted.
    public var pendingEvents: [Event] { sink.events }

    /// Asserts the events recorded while the session launched.
    public func assertLaunch(_ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        assertEvents(sink, expected, file: file, line: line)
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
        assertEvents(sink, expected, file: file, line: line)
        if let failure { throw failure }
    }

    /// Runs the pending asynchronous work and asserts the events it recorded.
    public func receive(_ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        session.waitUntilIdle()
        assertEvents(sink, expected, file: file, line: line)
    }

    /// A picture of the session now.
    public var state: NavigationState { session.state() }

    /// Every event of the session so far, asserted or not.
    public var allEvents: [Event] { history.events }

    /// Ends the session and asserts the events that recorded, if given. Fails if any event
    /// recorded before was never asserted, or, unless `allowingLeaks`, if
    /// ``LeakDetector`` finds a leak in the whole session.
    public func finish(
        _ expected: [String]? = nil, allowingLeaks: Bool = false, file: StaticString = #filePath, line: UInt = #line
    ) {
        if !sink.events.isEmpty {
            XCTFail(
                "events were recorded but never asserted:\n" + sink.events.map { "+ " + traceLine($0) }.joined(separator: "\n"),
                file: file, line: line
            )
            sink.removeAll()
        }
        session.end()
        if let expected {
            assertEvents(sink, expected, file: file, line: line)
        }
        sink.removeAll()
        let leaks = LeakDetector.leaks(in: history.events)
        if !allowingLeaks, !leaks.isEmpty {
            XCTFail("the session leaked:\n" + leaks.map { "  \($0)" }.joined(separator: "\n"), file: file, line: line)
        }
    }
}
