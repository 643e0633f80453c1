import NavlogEvents
import NavlogRuntime
import NavlogTesting
import XCTest

/// A view that counts how often its screen came on top.
private final class CountingView: ScreenView {
    var appearances = 0
    func render() -> Element { .group([]) }
    func handle(_ action: UserAction) throws {}
    func didAppear() { appearances += 1 }
}

private struct Note: Codable, Equatable {
    var text = ""
}

/// A model layer bound to a screen: models record no deallocation, unlike presenters.
private final class NoteModel: ObservableModel<Note> {}

private final class ModelView: ScreenView {
    let model: NoteModel
    init(model: NoteModel) { self.model = model }
    var boundObjects: [any ScreenBound] { [model] }
    func render() -> Element { .text(model.state.text) }
    func handle(_ action: UserAction) throws {}
}

final class AppearanceTests: XCTestCase {
    func testViewsHearEachTimeTheirScreenComesOnTop() throws {
        let (context, _) = makeContext()
        let root = RootCoordinator(context: context)
        try context.launch(root)
        let home = CountingView(), detail = CountingView(), sheet = CountingView()
        try root.stack.setScreens([root.stack.screens[0], Screen(name: "Home2", view: home, owner: root, context: context)])
        XCTAssertEqual(home.appearances, 1)
        try root.stack.push(Screen(name: "Detail", view: detail, owner: root, context: context))
        XCTAssertEqual([home.appearances, detail.appearances], [1, 1])
        try context.window.present(Screen(name: "Sheet", view: sheet, owner: root, context: context), owner: root)
        try context.window.userSwipeDismiss()
        XCTAssertEqual([detail.appearances, sheet.appearances], [2, 1])
        try context.window.userBack()
        XCTAssertEqual(home.appearances, 2)
    }

    func testAModelBoundToAPoppedScreenIsNotReportedAsALeak() throws {
        let (context, sink) = makeContext()
        try {
            let root = RootCoordinator(context: context)
            try context.launch(root)
            try root.stack.push(Screen(name: "Notes", view: ModelView(model: NoteModel(context: context, state: Note())), owner: root, context: context))
        }()
        try context.window.userBack()
        context.end()
        XCTAssertEqual(LeakDetector.leaks(in: sink.events), [])
    }

    func testAContainerRootDoesNotTakeOverTheScreensItHolds() throws {
        // The tab bar's coordinator sets the root, but each tab's screen keeps its owner: when
        // the child's screen leaves and the child does not finish, the child is the leak.
        final class Forgetful: Coordinator {
            let stack: NavigationStack
            init(context: NavigationContext, stack: NavigationStack) {
                self.stack = stack
                super.init(context: context)
            }
            override func didStart() throws {
                try stack.push(Screen(name: "First", view: ScriptedView(), owner: self, context: context))
            }
        }
        final class Shell: Coordinator {
            var child: Forgetful?
            override func didStart() throws {
                let stack = NavigationStack(context: context)
                let child = Forgetful(context: context, stack: stack)
                self.child = child
                try coordinate(to: child)
                try context.window.setRoot(TabContainer(context: context, tabs: [.init(title: "One", stack: stack)], owner: self), owner: self)
            }
        }
        let (context, sink) = makeContext()
        let shell = Shell(context: context)
        try context.launch(shell)
        try context.window.setRoot(Screen(name: "Elsewhere", view: ScriptedView(), owner: shell, context: context), owner: shell)
        try context.window.setRoot(Screen(name: "Again", view: ScriptedView(), owner: shell, context: context), owner: shell)
        let leaks = LeakDetector.leaks(in: sink.events + [Event(wallNanoseconds: 0, monotonicNanoseconds: 0, session: "s-1", sessionSeq: 999, kind: .action, subject: "x")])
        XCTAssertEqual(leaks.map(\.subject), ["Forgetful#1"])
    }
}
