import NavlogEvents
import NavlogRuntime

/// A session whose screens load every way `navlog report` tells apart, on a clock that moves
/// only when told: Home is ready when it appears; Feed loads in 300 ms; the user leaves Slow
/// before it is ready (abandoned; its late report is dropped); Broken fails after 50 ms;
/// Pending is still loading when the session ends (censored). Home is `LeakFixture`'s.
enum LoadFixture {
    /// A clock that stands still until ``advance(milliseconds:)``.
    final class ManualClock: EventClock, @unchecked Sendable {
        // Safe: a fixture reads and moves it from one thread only.
        private var milliseconds: Int64 = 0

        func advance(milliseconds: Int64) { self.milliseconds += milliseconds }

        func now() -> (wall: Int64, monotonic: UInt64) {
            (1_796_083_200_000_000_000 + milliseconds * 1_000_000, UInt64(milliseconds) * 1_000_000)
        }
    }

    /// A view whose content arrives later: its screen is ready when the fixture says so.
    final class LoadingView: ScreenView {
        func render() -> Element { .group([]) }
        func handle(_ action: UserAction) throws {}
        var reportsReadiness: Bool { true }
    }

    /// Records the session (times in milliseconds after the start):
    ///
    /// | screen | shown | ready | left |
    /// |---|---|---|---|
    /// | Home | 0 | 0 | covered at 100 |
    /// | Feed | 100 | 400, loaded | 600 |
    /// | Slow | 1000 | (1300, dropped) | 1200 |
    /// | Broken | 1500 | 1550, failed | 1800 |
    /// | Pending | 2000 | never | the session's end at 2500 |
    static func events(session: String = "s-1") throws -> [Event] {
        let sink = MemoryEventSink()
        let clock = ManualClock()
        let context = NavigationContext(session: session, sink: sink, clock: clock, attributes: ["app": "loads"])
        try {
            let root = LeakFixture.RootCoordinator(context: context)
            try context.launch(root)
            var elapsed: Int64 = 0
            func wait(until time: Int64) {
                clock.advance(milliseconds: time - elapsed)
                elapsed = time
            }
            func show(_ name: String, at time: Int64) throws -> Screen {
                wait(until: time)
                let screen = Screen(name: name, view: LoadingView(), owner: root, context: context)
                try root.stack.push(screen)
                return screen
            }
            let feed = try show("Feed", at: 100)
            wait(until: 400)
            feed.reportReady(.loaded)
            wait(until: 600)
            try context.window.userBack()
            let slow = try show("Slow", at: 1000)
            wait(until: 1200)
            try context.window.userBack()
            wait(until: 1300)
            slow.reportReady(.loaded)
            let broken = try show("Broken", at: 1500)
            wait(until: 1550)
            broken.reportReady(.failed)
            wait(until: 1800)
            try context.window.userBack()
            _ = try show("Pending", at: 2000)
            wait(until: 2500)
        }()
        context.end()
        return sink.events
    }
}
