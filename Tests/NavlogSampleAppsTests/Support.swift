import NavlogEvents
import NavlogRuntime
import NavlogTesting
import NavlogTestSupport
import XCTest

@testable import NavlogSampleApps

/// One running sample app: its session, the events it recorded and, weakly, its root.
///
/// The harness holds the root coordinator weakly, as a host does: the session keeps it alive
/// until `end()`, so its deallocation shows in the record and leak checks stay honest.
struct RunningApp {
    let context: NavigationContext
    let sink: MemoryEventSink
    private weak var weakRoot: Coordinator?

    init(context: NavigationContext, sink: MemoryEventSink, root: Coordinator) {
        self.context = context
        self.sink = sink
        self.weakRoot = root
    }

    /// The root coordinator, while the session holds it.
    var root: Coordinator? { weakRoot }

    /// The id of the visible screen.
    var visibleScreen: String? { context.window.visibleScreen?.id }

    /// The visible screen's rendered elements.
    var rendered: Element? { context.window.visibleScreen?.render() }

    /// Taps (or flips, or types into) the element `id` on the visible screen.
    func tap(_ id: String, value: String? = nil) throws {
        try context.performAction(element: id, value: value)
    }

    /// Moves the session's scheduler forward by `milliseconds`.
    @discardableResult
    func wait(milliseconds: UInt64) -> Int {
        context.scheduler.advance(by: milliseconds * 1_000_000)
    }

    /// Ends the session and returns every leak the detector finds in the whole record.
    func endAndFindLeaks(allEvents: [Event]) -> [LeakDetector.Leak] {
        context.end()
        return LeakDetector.leaks(in: allEvents + sink.events)
    }
}

/// Resolves `parameters` for `app`, creates a session recording into memory with a stepping
/// clock and launches the app's root coordinator.
func launch(_ app: AppDefinition, _ parameters: [String: String] = [:], session: String = "s-1") throws -> RunningApp {
    let resolved = try app.resolveParameters(parameters)
    let sink = MemoryEventSink()
    let context = NavigationContext(
        session: session, sink: sink, clock: SteppingClock(),
        attributes: ["app": .string(app.name), "parameters": resolved.json]
    )
    let root = try app.makeRoot(context, resolved)
    try context.launch(root)
    return RunningApp(context: context, sink: sink, root: root)
}

extension NavigationTestStore {
    /// The root coordinator, while the session holds it.
    var root: Coordinator? { session.context.launchedCoordinators.first }

    /// The id of the visible screen.
    var visibleScreen: String? { session.context.window.visibleScreen?.id }

    /// The visible screen's rendered elements.
    var rendered: Element? { session.context.window.visibleScreen?.render() }
}

/// One event as a compact line: `3 screen.push RootMasterCoordinator#1 [Master#1] ←2`.
func trace(_ event: Event) -> String { traceLine(event) }

/// Asserts the events recorded since the last call match `expected` exactly, then moves them
/// into `journal` (so a test can still check the whole session at the end); a failure shows a
/// labelled -/+ diff (Expected: −, Actual: +).
func assertEvents(
    _ sink: MemoryEventSink, _ expected: [String], journal: inout [Event],
    file: StaticString = #filePath, line: UInt = #line
) {
    let events = sink.events
    sink.removeAll()
    journal += events
    let actual = events.map(trace)
    guard actual != expected else { return }
    XCTFail("recorded events differ (Expected: −, Actual: +)\n" + lineDiff(expected: expected, actual: actual), file: file, line: line)
}

/// Takes the events recorded since the last call, moving them into `journal`.
@discardableResult
func drain(_ sink: MemoryEventSink, into journal: inout [Event]) -> [Event] {
    let events = sink.events
    sink.removeAll()
    journal += events
    return events
}


/// The snapshots of the view-model changes of `subject` among `events`, in order.
func snapshots(of subject: String, in events: [Event]) -> [JSONValue] {
    events.filter { $0.kind == .viewModelChange && $0.subject == subject }.compactMap { $0.payload["snapshot"] }
}

/// Asserts `body` throws an ``AppParameterError`` whose description is `message`.
func assertParameterError(
    _ message: String, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
) {
    do {
        try body()
        XCTFail("expected a parameter error, but nothing was thrown", file: file, line: line)
    } catch let error as AppParameterError {
        XCTAssertEqual(error.description, message, file: file, line: line)
    } catch {
        XCTFail("expected an AppParameterError, got \(error)", file: file, line: line)
    }
}
