import NavlogEvents
import NavlogRuntime

/// A session whose `LeakyCoordinator#1` finishes but is never deallocated: its screen's tap
/// handler captures it strongly while it keeps the screen (the retain-cycle pattern of
/// NavlogRuntimeTests' `testRetainCycleLeakIsDetectedFromTheEventsAlone`).
enum LeakFixture {
    /// A view with one button whose handler the owner sets.
    final class ButtonView: ScreenView {
        var onTap: (() -> Void)?
        func render() -> Element { .group([.button("close", title: "Close")]) }
        func handle(_ action: UserAction) throws { onTap?() }
    }

    /// Puts a stack in the window and keeps it.
    final class RootCoordinator: Coordinator {
        let stack: NavigationStack
        override init(context: NavigationContext) {
            stack = NavigationStack(context: context)
            super.init(context: context)
        }
        override func didStart() throws {
            let home = Screen(name: "Home", view: ButtonView(), owner: self, context: context)
            try stack.push(home)
            try context.window.setRoot(stack, owner: self)
        }
    }

    /// Pushes `Leaky`; the tap handler's strong capture of `self` is the bug.
    final class LeakyCoordinator: Coordinator {
        let stack: NavigationStack
        var screen: Screen?
        init(context: NavigationContext, stack: NavigationStack) {
            self.stack = stack
            super.init(context: context)
        }
        override func didStart() throws {
            let view = ButtonView()
            view.onTap = { self.finish() }
            let screen = Screen(name: "Leaky", view: view, owner: self, context: context)
            self.screen = screen
            finishes(with: screen)
            try stack.push(screen)
        }
    }

    /// Pushes one screen and finishes with it, cleanly.
    final class CleanCoordinator: Coordinator {
        let stack: NavigationStack
        init(context: NavigationContext, stack: NavigationStack) {
            self.stack = stack
            super.init(context: context)
        }
        override func didStart() throws {
            let screen = Screen(name: "Clean", view: ButtonView(), owner: self, context: context)
            finishes(with: screen)
            try stack.push(screen)
        }
    }

    /// Records the session: Home, then Leaky and Clean pushed, both backed out, then the end.
    static func events(session: String = "s-1") throws -> [Event] {
        let sink = MemoryEventSink()
        let context = NavigationContext(session: session, sink: sink, attributes: ["app": "leaky"])
        try {
            let root = RootCoordinator(context: context)
            try context.launch(root)
            try root.coordinate(to: LeakyCoordinator(context: context, stack: root.stack))
            try root.coordinate(to: CleanCoordinator(context: context, stack: root.stack))
        }()
        try context.window.userBack()  // Clean leaves and deallocates.
        try context.window.userBack()  // Leaky leaves and finishes, but stays alive.
        context.end()
        return sink.events
    }
}
