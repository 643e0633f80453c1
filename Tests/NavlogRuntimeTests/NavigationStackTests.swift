import NavlogEvents
import NavlogRuntime
import NavlogTesting
import XCTest

final class NavigationStackTests: XCTestCase {
    private var context: NavigationContext!
    private var sink: MemoryEventSink!
    private var root: RootCoordinator!

    override func setUpWithError() throws {
        (context, sink) = makeContext()
        root = RootCoordinator(context: context)
        try context.launch(root)
        sink.removeAll()
    }

    private func makeScreen(_ name: String) -> Screen {
        Screen(name: name, view: ScriptedView(), owner: root, context: context)
    }

    func testPushAndPop() throws {
        let detail = makeScreen("Detail")
        try root.stack.push(detail)
        XCTAssertEqual(root.stack.screens.map(\.id), ["Home#1", "Detail#1"])
        XCTAssertTrue(detail.isShown)
        let popped = try root.stack.pop()
        XCTAssertTrue(popped === detail)
        XCTAssertFalse(detail.isShown)
        assertEvents(sink, [
            "6 screen.push RootCoordinator#1 [Detail#1] ←1",
            "7 screen.ready RootCoordinator#1 [Detail#1] ←1",
            "8 screen.pop RootCoordinator#1 [Detail#1] ←1",
        ])
    }

    func testPopPayloadSaysWhoPoppedAndWhatIsOnTop() throws {
        try root.stack.push(makeScreen("Detail"))
        try root.stack.pop()
        let pop = try XCTUnwrap(sink.events.last)
        XCTAssertEqual(pop.payload, ["stack": "NavigationStack#1", "by": "pop", "depth": 1, "to": "Home#1"])
    }

    func testPopToRootPopsEachScreenTopFirst() throws {
        for name in ["A", "B", "C"] { try root.stack.push(makeScreen(name)) }
        sink.removeAll()
        let popped = try root.stack.popToRoot()
        XCTAssertEqual(popped.map(\.id), ["C#1", "B#1", "A#1"])
        XCTAssertEqual(root.stack.screens.map(\.id), ["Home#1"])
        assertEvents(sink, [
            "12 screen.pop RootCoordinator#1 [C#1] ←1",
            "13 screen.pop RootCoordinator#1 [B#1] ←1",
            "14 screen.pop RootCoordinator#1 [A#1] ←1",
        ])
    }

    func testPopToAGivenScreen() throws {
        let a = makeScreen("A")
        for screen in [a, makeScreen("B"), makeScreen("C")] { try root.stack.push(screen) }
        sink.removeAll()
        try root.stack.pop(to: a)
        XCTAssertEqual(root.stack.screens.map(\.id), ["Home#1", "A#1"])
        assertEvents(sink, [
            "12 screen.pop RootCoordinator#1 [C#1] ←1",
            "13 screen.pop RootCoordinator#1 [B#1] ←1",
        ])
        let stranger = makeScreen("Stranger")
        assertRefused("screen_not_in_stack", sink: sink) { try root.stack.pop(to: stranger) }
        XCTAssertEqual(root.stack.screens.map(\.id), ["Home#1", "A#1"])
    }

    func testSetScreensKeepsTheCommonPrefix() throws {
        let home = try XCTUnwrap(root.stack.topScreen)
        let a = makeScreen("A")
        try root.stack.push(a)
        try root.stack.push(makeScreen("B"))
        sink.removeAll()
        try root.stack.setScreens([home, a, makeScreen("X"), makeScreen("Y")])
        XCTAssertEqual(root.stack.screens.map(\.id), ["Home#1", "A#1", "X#1", "Y#1"])
        // Outside an operation (no action, link or gesture behind it) every container step shows
        // its screen, as the report counts a visit for each: X is displayed, then Y.
        assertEvents(sink, [
            "10 screen.pop RootCoordinator#1 [B#1] ←1",
            "11 screen.push RootCoordinator#1 [X#1] ←1",
            "12 screen.ready RootCoordinator#1 [X#1] ←1",
            "13 screen.push RootCoordinator#1 [Y#1] ←1",
            "14 screen.ready RootCoordinator#1 [Y#1] ←1",
        ])
        assertRefused("empty_stack", sink: sink) { try root.stack.setScreens([]) }
        XCTAssertEqual(root.stack.screens.count, 4)
    }

    func testPushingAScreenThatIsAlreadyShownIsRefused() throws {
        let home = try XCTUnwrap(root.stack.topScreen)
        assertRefused("screen_already_shown", sink: sink) { try root.stack.push(home) }
        XCTAssertEqual(root.stack.screens.count, 1)
    }

    func testPoppingTheRootOrAnEmptyStackIsRefused() throws {
        assertRefused("stack_too_shallow", sink: sink) { try root.stack.pop() }
        assertRefused("stack_too_shallow", sink: sink) { try root.stack.popToRoot() }
        assertRefused("stack_too_shallow", sink: sink) { try root.stack.userBack() }
        XCTAssertEqual(root.stack.screens.map(\.id), ["Home#1"])

        let empty = NavigationStack(context: context, name: "EmptyStack")
        do {
            try empty.pop()
            XCTFail("popping an empty stack must throw")
        } catch let error as NavigationError {
            XCTAssertEqual(error.description, "cannot pop EmptyStack#1: the stack is empty")
        }
        XCTAssertEqual(sink.events.last?.kind, .error)
        XCTAssertEqual(sink.events.last?.subject, "EmptyStack#1")
    }

    func testUserBackTellsTheOwningCoordinatorWhichCleansUp() throws {
        let child = ScreenCoordinator(context: context, stack: root.stack, screenName: "Detail")
        try root.coordinate(to: child)
        sink.removeAll()

        try context.window.userBack()
        XCTAssertEqual(child.leaves.map(\.0), ["Detail#1"])
        XCTAssertEqual(child.leaves.map(\.1), [.userBack])
        XCTAssertTrue(child.isFinished)
        XCTAssertTrue(root.children.isEmpty)
        assertEvents(sink, [
            "10 action Detail#1 [Detail#1] ←1",
            "11 screen.pop ScreenCoordinator#1 [Detail#1] ←10",
            "12 coordinator.finish ScreenCoordinator#1 ←11",
        ])
        // The test still holds `child`, so no deinit yet; the pop says the user did it.
    }

    func testPopToRootTellsEveryChildWhoseScreenLeft() throws {
        let first = ScreenCoordinator(context: context, stack: root.stack, screenName: "A")
        try root.coordinate(to: first)
        let second = ScreenCoordinator(context: context, stack: root.stack, screenName: "B")
        try first.coordinate(to: second)
        sink.removeAll()

        try root.stack.popToRoot()
        XCTAssertTrue(first.isFinished && second.isFinished)
        XCTAssertEqual(second.leaves.map(\.1), [.popped])
        assertEvents(sink, [
            "14 screen.pop ScreenCoordinator#2 [B#1] ←1",
            "15 coordinator.finish ScreenCoordinator#2 ←14",
            "16 screen.pop ScreenCoordinator#1 [A#1] ←1",
            "17 coordinator.finish ScreenCoordinator#1 ←16",
        ])
    }
}
