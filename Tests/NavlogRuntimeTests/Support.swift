import NavlogEvents
import NavlogRuntime
import NavlogTesting
import NavlogTestSupport
import XCTest

/// A view that renders fixed elements and sends actions to handlers keyed by element id.
final class ScriptedView: ScreenView {
    var elements: [Element]
    var handlers: [String: (UserAction) throws -> Void]
    var bound: [any ScreenBound]

    init(elements: [Element] = [], bound: [any ScreenBound] = [], handlers: [String: (UserAction) throws -> Void] = [:]) {
        self.elements = elements
        self.bound = bound
        self.handlers = handlers
    }

    var boundObjects: [any ScreenBound] { bound }

    func render() -> Element { .group(elements) }

    func handle(_ action: UserAction) throws {
        try handlers[action.element]?(action)
    }
}

/// A coordinator that pushes one named screen onto a stack when it starts and finishes when
/// that screen leaves.
final class ScreenCoordinator: Coordinator {
    let stack: NavigationStack
    let screenName: String
    private(set) var screen: Screen?
    private(set) var leaves: [(String, RemovalReason)] = []

    init(context: NavigationContext, stack: NavigationStack, screenName: String) {
        self.stack = stack
        self.screenName = screenName
        super.init(context: context)
    }

    override func didStart() throws {
        let screen = Screen(name: screenName, view: ScriptedView(), owner: self, context: context)
        self.screen = screen
        finishes(with: screen)
        try stack.push(screen)
    }

    override func screenDidLeave(_ screen: Screen, reason: RemovalReason) {
        leaves.append((screen.id, reason))
        super.screenDidLeave(screen, reason: reason)
    }
}

/// A root coordinator that puts a stack in the window and pushes a Home screen.
final class RootCoordinator: Coordinator {
    let stack: NavigationStack

    override init(context: NavigationContext) {
        stack = NavigationStack(context: context)
        super.init(context: context)
    }

    override func didStart() throws {
        try stack.push(Screen(name: "Home", view: ScriptedView(elements: [.button("next", title: "Next")]), owner: self, context: context))
        try context.window.setRoot(stack, owner: self)
    }
}

/// Makes a context recording into memory with a stepping clock.
func makeContext(session: String = "s-1") -> (NavigationContext, MemoryEventSink) {
    let sink = MemoryEventSink()
    return (NavigationContext(session: session, sink: sink, clock: SteppingClock()), sink)
}

/// One event as a compact line: `3 screen.push RootCoordinator#1 [Home#1] ←2`.
func trace(_ event: Event) -> String { traceLine(event) }

/// Asserts `body` throws a ``NavigationError`` with `code`, and that the last recorded event is
/// the matching `error`.
func assertRefused(
    _ code: String, sink: MemoryEventSink, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
) {
    let before = sink.events.count
    do {
        try body()
        XCTFail("expected a \(code) error, but nothing was thrown", file: file, line: line)
    } catch let error as NavigationError {
        XCTAssertEqual(error.code, code, "\(error)", file: file, line: line)
        let recorded = sink.events.dropFirst(before)
        XCTAssertEqual(recorded.map(\.kind), [.error], "a refused operation records exactly one error event", file: file, line: line)
        XCTAssertEqual(recorded.last?.payload["code"]?.stringValue, code, file: file, line: line)
        XCTAssertEqual(recorded.last?.payload["message"]?.stringValue, error.description, file: file, line: line)
    } catch {
        XCTFail("expected a NavigationError, got \(error)", file: file, line: line)
    }
    sink.removeAll()
}
