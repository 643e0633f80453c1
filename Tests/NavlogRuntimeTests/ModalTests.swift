import NavlogEvents
import NavlogRuntime
import NavlogTesting
import XCTest

final class ModalTests: XCTestCase {
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

    func testPresentAsSheetAndDismiss() throws {
        try context.window.present(makeScreen("Sheet"), style: .sheet, owner: root)
        XCTAssertEqual(context.window.visibleScreen?.id, "Sheet#1")
        try context.window.dismiss()
        XCTAssertEqual(context.window.visibleScreen?.id, "Home#1")
        assertEvents(sink, [
            "6 screen.present RootCoordinator#1 [Sheet#1] ←1",
            "7 screen.ready RootCoordinator#1 [Sheet#1] ←1",
            "8 screen.dismiss RootCoordinator#1 [Sheet#1] ←1",
        ])
    }

    func testPresentPayloadNamesStyleAndWhatItCovers() throws {
        try context.window.present(makeScreen("Cover"), style: .fullScreen, owner: root)
        XCTAssertEqual(
            sink.events.last { $0.kind == .screenPresent }?.payload,
            ["style": "full_screen", "content": "Cover#1", "over": "Home#1", "level": 1]
        )
        // The cover's first appearance makes it ready: its view does not report readiness.
        XCTAssertEqual(sink.events.last.map(traceLine), "7 screen.ready RootCoordinator#1 [Cover#1] ←1")
        XCTAssertEqual(sink.events.last?.payload, ["outcome": "loaded"])
    }

    func testNestedModalsAndDismissBackToRoot() throws {
        let modalStack = NavigationStack(context: context, name: "ModalStack")
        try modalStack.push(makeScreen("First"))
        try context.window.present(modalStack, style: .sheet, owner: root)
        try modalStack.push(makeScreen("Second"))
        try context.window.present(makeScreen("Third"), style: .fullScreen, owner: root)
        XCTAssertEqual(context.window.modals.count, 2)
        XCTAssertEqual(context.window.visibleScreen?.id, "Third#1")
        assertEvents(sink, [
            "6 screen.push RootCoordinator#1 [First#1] ←1",
            "7 screen.present RootCoordinator#1 [First#1] ←1",
            "8 screen.ready RootCoordinator#1 [First#1] ←1",
            "9 screen.push RootCoordinator#1 [Second#1] ←1",
            "10 screen.ready RootCoordinator#1 [Second#1] ←1",
            "11 screen.present RootCoordinator#1 [Third#1] ←1",
            "12 screen.ready RootCoordinator#1 [Third#1] ←1",
        ])

        try context.window.dismissAll()
        XCTAssertTrue(context.window.modals.isEmpty)
        XCTAssertEqual(context.window.visibleScreen?.id, "Home#1")
        assertEvents(sink, [
            "13 screen.dismiss RootCoordinator#1 [Third#1] ←1",
            "14 screen.dismiss RootCoordinator#1 [Second#1] ←1",
        ])
    }

    func testDismissingAModalStackListsEveryScreenThatLeft() throws {
        let modalStack = NavigationStack(context: context, name: "ModalStack")
        try modalStack.push(makeScreen("First"))
        try modalStack.push(makeScreen("Second"))
        try context.window.present(modalStack, owner: root)
        try context.window.dismiss()
        XCTAssertEqual(sink.events.last?.payload["removed"], ["Second#1", "First#1"])
        XCTAssertEqual(sink.events.last?.payload["to"], "Home#1")
    }

    func testUserBackInsideAModalPopsTheModalStack() throws {
        let modalStack = NavigationStack(context: context, name: "ModalStack")
        try modalStack.push(makeScreen("First"))
        try context.window.present(modalStack, owner: root)
        try modalStack.push(makeScreen("Second"))
        sink.removeAll()
        try context.window.userBack()
        XCTAssertEqual(modalStack.screens.map(\.id), ["First#1"])
        XCTAssertEqual(root.stack.screens.map(\.id), ["Home#1"])
        assertEvents(sink, [
            "11 action Second#1 [Second#1] ←1",
            "12 screen.pop RootCoordinator#1 [Second#1] ←11",
        ])
    }

    func testSwipeDismissTellsTheOwningCoordinator() throws {
        /// Presents its screen modally and finishes when it goes away.
        final class SheetCoordinator: Coordinator {
            override func didStart() throws {
                let screen = Screen(name: "Sheet", view: ScriptedView(), owner: self, context: context)
                finishes(with: screen)
                try context.window.present(screen, style: .sheet, owner: self)
            }
        }
        let sheet = SheetCoordinator(context: context)
        try root.coordinate(to: sheet)
        sink.removeAll()

        try context.window.userSwipeDismiss()
        XCTAssertTrue(sheet.isFinished)
        XCTAssertTrue(root.children.isEmpty)
        assertEvents(sink, [
            "10 action Sheet#1 [Sheet#1] ←1",
            "11 screen.dismiss SheetCoordinator#1 [Sheet#1] ←10",
            "12 coordinator.finish SheetCoordinator#1 ←11",
        ])
    }

    func testFullScreenModalsCannotBeSwipedAway() throws {
        try context.window.present(makeScreen("Cover"), style: .fullScreen, owner: root)
        sink.removeAll()
        assertRefused("full_screen_not_swipeable", sink: sink) { try context.window.userSwipeDismiss() }
        XCTAssertEqual(context.window.visibleScreen?.id, "Cover#1")
    }

    func testDismissingWithNothingPresentedIsRefused() throws {
        assertRefused("nothing_presented", sink: sink) { try context.window.dismiss() }
        assertRefused("nothing_presented", sink: sink) { try context.window.dismissAll() }
        assertRefused("nothing_presented", sink: sink) { try context.window.userSwipeDismiss() }
        XCTAssertEqual(context.window.visibleScreen?.id, "Home#1")
    }

    func testReplacingTheRootDismissesModalsAndTellsTheOldOwners() throws {
        let child = ScreenCoordinator(context: context, stack: root.stack, screenName: "Detail")
        try root.coordinate(to: child)
        try context.window.present(makeScreen("Sheet"), owner: root)
        sink.removeAll()

        let login = Screen(name: "Login", view: ScriptedView(), owner: root, context: context)
        try context.window.setRoot(login, owner: root)
        XCTAssertEqual(context.window.visibleScreen?.id, "Login#1")
        XCTAssertTrue(child.isFinished)
        XCTAssertEqual(child.leaves.map(\.1), [.replaced])
        assertEvents(sink, [
            "12 screen.dismiss RootCoordinator#1 [Sheet#1] ←1",
            "13 window.root RootCoordinator#1 [Login#1] ←1",
            "14 coordinator.finish ScreenCoordinator#1 ←13",
            "15 screen.ready RootCoordinator#1 [Login#1] ←13",
        ])
    }
}
