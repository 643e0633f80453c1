import NavlogEvents
import NavlogRuntime
import NavlogTesting
import XCTest

final class CoordinatorTests: XCTestCase {
    func testLaunchCoordinateAndFinishRecordTheTree() throws {
        let (context, sink) = makeContext()
        let root = RootCoordinator(context: context)
        try context.launch(root)
        assertEvents(sink, [
            "1 session.start Session#1",
            "2 coordinator.start RootCoordinator#1 ←1",
            "3 screen.push RootCoordinator#1 [Home#1] ←2",
            "4 window.root RootCoordinator#1 [Home#1] ←2",
            "5 screen.ready RootCoordinator#1 [Home#1] ←2",
        ])

        let child = ScreenCoordinator(context: context, stack: root.stack, screenName: "Detail")
        try root.coordinate(to: child)
        XCTAssertTrue(child.parent === root)
        XCTAssertEqual(root.children.map(\.id), ["ScreenCoordinator#1"])
        assertEvents(sink, [
            "6 coordinator.coordinate RootCoordinator#1 ←1",
            "7 coordinator.start ScreenCoordinator#1 ←6",
            "8 screen.push ScreenCoordinator#1 [Detail#1] ←7",
            "9 screen.ready ScreenCoordinator#1 [Detail#1] ←6",
        ])
        XCTAssertEqual(sink.events.isEmpty, true)

        child.finish()
        XCTAssertTrue(root.children.isEmpty)
        XCTAssertTrue(child.isFinished)
        assertEvents(sink, ["10 coordinator.finish ScreenCoordinator#1 ←1"])
    }

    func testStartRecordsTheParent() throws {
        let (context, sink) = makeContext()
        let root = RootCoordinator(context: context)
        try context.launch(root)
        let child = ScreenCoordinator(context: context, stack: root.stack, screenName: "Detail")
        try root.coordinate(to: child)
        let start = sink.events.first { $0.kind == .coordinatorStart && $0.subject == child.id }
        XCTAssertEqual(start?.parent, "RootCoordinator#1")
        XCTAssertEqual(sink.events.first { $0.kind == .coordinatorCoordinate }?.payload["child"], "ScreenCoordinator#1")
    }

    func testFinishingAParentFinishesLiveChildrenFirst() throws {
        let (context, sink) = makeContext()
        let root = RootCoordinator(context: context)
        try context.launch(root)
        let first = ScreenCoordinator(context: context, stack: root.stack, screenName: "A")
        let second = ScreenCoordinator(context: context, stack: root.stack, screenName: "B")
        try root.coordinate(to: first)
        let grandchild = ScreenCoordinator(context: context, stack: root.stack, screenName: "C")
        try first.coordinate(to: grandchild)
        try root.coordinate(to: second)
        sink.removeAll()

        root.finish()
        assertEvents(sink, [
            "18 coordinator.finish ScreenCoordinator#2 ←1",
            "19 coordinator.finish ScreenCoordinator#3 ←1",
            "20 coordinator.finish ScreenCoordinator#1 ←1",
            "21 coordinator.finish RootCoordinator#1 ←1",
        ])
        XCTAssertTrue(root.children.isEmpty && first.children.isEmpty)
    }

    func testChildDeallocationIsRecordedWhenNothingHoldsIt() throws {
        let (context, sink) = makeContext()
        let root = RootCoordinator(context: context)
        try context.launch(root)
        try root.coordinate(to: ScreenCoordinator(context: context, stack: root.stack, screenName: "Detail"))
        sink.removeAll()

        // The user goes back: the screen leaves, the coordinator is told, finishes, and goes away.
        try root.stack.userBack()
        assertEvents(sink, [
            "10 action Detail#1 [Detail#1] ←1",
            "11 screen.pop ScreenCoordinator#1 [Detail#1] ←10",
            "12 coordinator.finish ScreenCoordinator#1 ←11",
            "13 coordinator.deinit ScreenCoordinator#1 ←11",
        ])
        XCTAssertTrue(LeakDetector.leaks(in: []).isEmpty)
    }

    func testCoordinatingToACoordinatorWithAParentIsRefused() throws {
        let (context, sink) = makeContext()
        let root = RootCoordinator(context: context)
        try context.launch(root)
        let child = ScreenCoordinator(context: context, stack: root.stack, screenName: "Detail")
        try root.coordinate(to: child)
        let other = ScreenCoordinator(context: context, stack: root.stack, screenName: "Other")
        try root.coordinate(to: other)
        sink.removeAll()

        assertRefused("already_has_parent", sink: sink) { try other.coordinate(to: child) }
        XCTAssertTrue(child.parent === root)
        XCTAssertEqual(other.children.count, 0)
        XCTAssertEqual(root.children.count, 2)
    }

    func testStartingTwiceAndUsingAFinishedCoordinatorAreRefused() throws {
        let (context, sink) = makeContext()
        let root = RootCoordinator(context: context)
        try context.launch(root)
        sink.removeAll()
        assertRefused("already_started", sink: sink) { try root.start() }
        root.finish()
        let late = ScreenCoordinator(context: context, stack: root.stack, screenName: "X")
        sink.removeAll()
        assertRefused("coordinator_finished", sink: sink) { try root.coordinate(to: late) }
        XCTAssertNil(late.parent)
    }

    func testRetainCycleLeakIsDetectedFromTheEventsAlone() throws {
        /// A coordinator whose screen's tap handler captures it strongly while it keeps the
        /// screen: a cycle, so it never deallocates after finishing.
        final class LeakyCoordinator: Coordinator {
            let stack: NavigationStack
            var screen: Screen?
            init(context: NavigationContext, stack: NavigationStack) {
                self.stack = stack
                super.init(context: context)
            }
            override func didStart() throws {
                let view = ScriptedView(elements: [.button("close", title: "Close")])
                view.handlers["close"] = { _ in self.finish() }  // strong capture: the bug
                let screen = Screen(name: "Leaky", view: view, owner: self, context: context)
                self.screen = screen
                finishes(with: screen)
                try stack.push(screen)
            }
        }

        let (context, sink) = makeContext()
        try {
            // The session owns the root; the test keeps no reference past this scope.
            let root = RootCoordinator(context: context)
            try context.launch(root)
            try root.coordinate(to: LeakyCoordinator(context: context, stack: root.stack))
            try root.coordinate(to: ScreenCoordinator(context: context, stack: root.stack, screenName: "Clean"))
        }()
        try context.window.userBack()  // Clean leaves and deallocates.
        try context.window.userBack()  // Leaky leaves, finishes, but stays alive.
        context.end()

        let events = sink.events
        XCTAssertTrue(events.contains { $0.kind == .coordinatorDeinit && $0.subject == "ScreenCoordinator#1" })
        XCTAssertTrue(events.contains { $0.kind == .coordinatorDeinit && $0.subject == "RootCoordinator#1" })
        XCTAssertFalse(events.contains { $0.kind == .coordinatorDeinit && $0.subject == "LeakyCoordinator#1" })
        let leaks = LeakDetector.leaks(in: events)
        XCTAssertEqual(leaks.map(\.description), ["LeakyCoordinator#1 finished but was never deallocated"])
        XCTAssertEqual(leaks.first?.kind, .finishedButAlive)
    }

    func testCoordinatorThatIsNeverToldOfItsScreenLeavingIsALeak() throws {
        /// Shows a screen but never ties its life to it: the classic "not told" bug.
        final class ForgetfulCoordinator: Coordinator {
            let stack: NavigationStack
            init(context: NavigationContext, stack: NavigationStack) {
                self.stack = stack
                super.init(context: context)
            }
            override func didStart() throws {
                try stack.push(Screen(name: "Forgotten", view: ScriptedView(), owner: self, context: context))
            }
        }
        let (context, sink) = makeContext()
        let root = RootCoordinator(context: context)
        try context.launch(root)
        try root.coordinate(to: ForgetfulCoordinator(context: context, stack: root.stack))
        try root.stack.userBack()
        try context.performAction(element: "next")

        let leaks = LeakDetector.leaks(in: sink.events)
        XCTAssertEqual(leaks.map(\.description), ["ForgetfulCoordinator#1 lives on after its last screen Forgotten#1 left"])
    }

    func testSessionEndFinishesEverythingAndRecordsTheEnd() throws {
        let (context, sink) = makeContext()
        let root = RootCoordinator(context: context)
        try context.launch(root)
        try root.coordinate(to: ScreenCoordinator(context: context, stack: root.stack, screenName: "Detail"))
        sink.removeAll()
        context.end()
        assertEvents(sink, [
            "10 coordinator.finish ScreenCoordinator#1 ←1",
            "11 coordinator.deinit ScreenCoordinator#1 ←1",
            "12 coordinator.finish RootCoordinator#1 ←1",
            "13 session.end Session#1",
        ])
        XCTAssertTrue(context.hasEnded)
        XCTAssertNil(context.window.root)
    }
}
