import NavlogRuntime
import NavlogTesting
import XCTest

/// A seed-002-shaped app: a tab bar coordinator with one coordinator and stack per tab.
private final class TabBarCoordinator: Coordinator {
    var tabs: TabContainer!
    var dashboard: ScreenCoordinator!
    var settings: ScreenCoordinator!

    override func didStart() throws {
        let dashboardStack = NavigationStack(context: context, name: "DashboardStack")
        let settingsStack = NavigationStack(context: context, name: "SettingsStack")
        tabs = TabContainer(
            context: context,
            tabs: [.init(title: "Dashboard", stack: dashboardStack), .init(title: "Settings", stack: settingsStack)],
            owner: self
        )
        dashboard = ScreenCoordinator(context: context, stack: dashboardStack, screenName: "Dashboard")
        settings = ScreenCoordinator(context: context, stack: settingsStack, screenName: "Settings")
        try coordinate(to: dashboard)
        try coordinate(to: settings)
        try context.window.setRoot(tabs, owner: self)
    }
}

final class TabContainerTests: XCTestCase {
    func testEachTabKeepsItsStackWhenSwitching() throws {
        let (context, sink) = makeContext()
        let app = TabBarCoordinator(context: context)
        try context.launch(app)
        XCTAssertEqual(context.window.visibleScreen?.id, "Dashboard#1")
        assertEvents(sink, [
            "1 session.start Session#1",
            "2 coordinator.start TabBarCoordinator#1 ←1",
            "3 coordinator.coordinate TabBarCoordinator#1 ←2",
            "4 coordinator.start ScreenCoordinator#1 ←3",
            "5 screen.push ScreenCoordinator#1 [Dashboard#1] ←4",
            "6 coordinator.coordinate TabBarCoordinator#1 ←2",
            "7 coordinator.start ScreenCoordinator#2 ←6",
            "8 screen.push ScreenCoordinator#2 [Settings#1] ←7",
            "9 window.root TabBarCoordinator#1 [Dashboard#1] ←2",
            "10 screen.ready ScreenCoordinator#1 [Dashboard#1] ←2",
        ])

        let dashboardStack = app.tabs.tabs[0].stack
        try dashboardStack.push(Screen(name: "Chart", view: ScriptedView(), owner: app.dashboard, context: context))
        try app.tabs.select("Settings")
        XCTAssertEqual(context.window.visibleScreen?.id, "Settings#1")
        try app.tabs.select("dashboard")
        XCTAssertEqual(context.window.visibleScreen?.id, "Chart#1")
        XCTAssertEqual(dashboardStack.screens.map(\.id), ["Dashboard#1", "Chart#1"])
        try app.tabs.select(index: 0)  // already selected: nothing recorded
        assertEvents(sink, [
            "11 screen.push ScreenCoordinator#1 [Chart#1] ←1",
            "12 screen.ready ScreenCoordinator#1 [Chart#1] ←1",
            "13 tab.select TabBarCoordinator#1 [Settings#1] ←1",
            "14 screen.ready ScreenCoordinator#2 [Settings#1] ←1",
            "15 tab.select TabBarCoordinator#1 [Chart#1] ←1",
        ])
        XCTAssertEqual(
            context.state().window.root?.tabs?.map(\.stack.screens),
            [["Dashboard#1", "Chart#1"], ["Settings#1"]]
        )
    }

    func testTabSelectPayloadNamesBothTabs() throws {
        let (context, sink) = makeContext()
        let app = TabBarCoordinator(context: context)
        try context.launch(app)
        try app.tabs.select("Settings")
        XCTAssertEqual(sink.events.last { $0.kind == .tabSelect }?.payload, ["tabs": "TabContainer#1", "tab": "Settings", "index": 1, "from": "Dashboard"])
    }

    func testUserBackActsOnTheSelectedTabsStack() throws {
        let (context, sink) = makeContext()
        let app = TabBarCoordinator(context: context)
        try context.launch(app)
        try app.tabs.select("Settings")
        try app.settings.coordinate(to: ScreenCoordinator(context: context, stack: app.tabs.tabs[1].stack, screenName: "Privacy"))
        sink.removeAll()
        try context.window.userBack()
        XCTAssertEqual(app.tabs.tabs[1].stack.screens.map(\.id), ["Settings#1"])
        assertEvents(sink, [
            "17 action Privacy#1 [Privacy#1] ←1",
            "18 screen.pop ScreenCoordinator#3 [Privacy#1] ←17",
            "19 coordinator.finish ScreenCoordinator#3 ←18",
            "20 coordinator.deinit ScreenCoordinator#3 ←18",
        ])
    }

    func testSelectingATabThatDoesNotExistIsRefused() throws {
        let (context, sink) = makeContext()
        let app = TabBarCoordinator(context: context)
        try context.launch(app)
        sink.removeAll()
        assertRefused("unknown_tab", sink: sink) { try app.tabs.select("Profile") }
        assertRefused("unknown_tab", sink: sink) { try app.tabs.select(index: 7) }
        XCTAssertEqual(app.tabs.selectedIndex, 0)
        do {
            try app.tabs.select("Profile")
        } catch {
            XCTAssertEqual("\(error)", "no tab 'Profile' in TabContainer#1; tabs: Dashboard, Settings")
        }
    }
}
