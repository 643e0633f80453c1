import NavlogEvents
import NavlogRuntime
import NavlogTesting
import XCTest

@testable import NavlogSampleApps

final class TabsTests: XCTestCase {
    private let launchEvents = [
        "1 session.start Session#1",
        "2 coordinator.start MainTabBarCoordinator#1 ←1",
        "3 coordinator.coordinate MainTabBarCoordinator#1 ←2",
        "4 coordinator.start DashboardCoordinator#1 ←3",
        "5 presenter.init DashboardPresenter#1 ←4",
        "6 screen.push DashboardCoordinator#1 [Dashboard#1] ←4",
        "7 coordinator.coordinate MainTabBarCoordinator#1 ←2",
        "8 coordinator.start SettingsCoordinator#1 ←7",
        "9 presenter.init SettingsPresenter#1 ←8",
        "10 screen.push SettingsCoordinator#1 [Settings#1] ←8",
        "11 window.root MainTabBarCoordinator#1 [Dashboard#1] ←2",
        "12 screen.ready DashboardCoordinator#1 [Dashboard#1] ←2",
    ]

    private func tabBar(_ app: RunningApp) throws -> TabContainer {
        try XCTUnwrap(app.context.window.root as? TabContainer)
    }

    private func openLink(_ url: String, in app: RunningApp) throws {
        let root = try XCTUnwrap(app.root as? MainTabBarCoordinator)
        try app.context.openDeepLink(url, with: root)
    }

    // MARK: - Main flow

    func testEachTabKeepsItsStackAndChildCoordinatorsLeaveWhenFinished() throws {
        let app = try launch(SampleApps.tabs)
        var journal: [Event] = []
        assertEvents(app.sink, launchEvents, journal: &journal)
        XCTAssertEqual(app.rendered?.actionableIDs, ["card-active-users", "card-crash-free", "card-release-adoption", "card-app-rating"])
        weak let dashboard = (app.root as? MainTabBarCoordinator)?.dashboardCoordinator
        weak let settings = (app.root as? MainTabBarCoordinator)?.settingsCoordinator
        XCTAssertEqual(app.root?.children.map(\.id), ["DashboardCoordinator#1", "SettingsCoordinator#1"])

        try app.tap("card-crash-free")
        try app.tap("range-30d")
        assertEvents(app.sink, [
            "13 action Dashboard#1 [Dashboard#1] ←1",
            "14 coordinator.coordinate DashboardCoordinator#1 ←13",
            "15 coordinator.start ReportCoordinator#1 ←14",
            "16 presenter.init ReportPresenter#1 ←15",
            "17 screen.push ReportCoordinator#1 [Report#1] ←15",
            "18 screen.ready ReportCoordinator#1 [Report#1] ←13",
            "19 action Report#1 [Report#1] ←1",
            "20 viewmodel.change ReportPresenter#1 [Report#1] ←19",
        ], journal: &journal)
        XCTAssertEqual(app.rendered?.element(withID: "report-summary")?.text, "Last 30 days: low 99.58%, high 99.73%, now 99.72%")
        XCTAssertEqual(dashboard?.childCoordinators.map(\.id), ["ReportCoordinator#1"])
        XCTAssertTrue(dashboard?.childCoordinators.first?.parent === dashboard)

        try tabBar(app).select("Settings")
        try app.tap("open-notifications")
        try app.tap("toggle-notifications", value: "false")
        try app.tap("done-notifications")
        assertEvents(app.sink, [
            "21 tab.select MainTabBarCoordinator#1 [Settings#1] ←1",
            "22 screen.ready SettingsCoordinator#1 [Settings#1] ←1",
            "23 action Settings#1 [Settings#1] ←1",
            "24 coordinator.coordinate SettingsCoordinator#1 ←23",
            "25 coordinator.start NotificationsSettingsCoordinator#1 ←24",
            "26 presenter.init NotificationsSettingsPresenter#1 ←25",
            "27 screen.push NotificationsSettingsCoordinator#1 [NotificationsSettings#1] ←25",
            "28 screen.ready NotificationsSettingsCoordinator#1 [NotificationsSettings#1] ←23",
            "29 action NotificationsSettings#1 [NotificationsSettings#1] ←1",
            "30 viewmodel.change NotificationsSettingsPresenter#1 [NotificationsSettings#1] ←29",
            "31 viewmodel.change SettingsPresenter#1 [Settings#1] ←29",
            "32 action NotificationsSettings#1 [NotificationsSettings#1] ←1",
            "33 screen.pop NotificationsSettingsCoordinator#1 [NotificationsSettings#1] ←32",
            "34 coordinator.finish NotificationsSettingsCoordinator#1 ←33",
            "35 coordinator.deinit NotificationsSettingsCoordinator#1 ←32",
            "36 presenter.deinit NotificationsSettingsPresenter#1 ←32",
        ], journal: &journal)
        XCTAssertEqual(settings?.childCoordinators.count, 0)
        XCTAssertEqual(app.rendered?.element(withID: "open-notifications")?.text, "Notifications: Off")

        // Back on Dashboard, its report is still on top of its own stack.
        try tabBar(app).select("dashboard")
        assertEvents(app.sink, ["37 tab.select MainTabBarCoordinator#1 [Report#1] ←1"], journal: &journal)
        XCTAssertEqual(journal.last?.payload["from"], "Settings")
        XCTAssertEqual(try tabBar(app).state().tabs?.map(\.stack.screens), [["Dashboard#1", "Report#1"], ["Settings#1"]])

        try app.tap("close-report")
        assertEvents(app.sink, [
            "38 action Report#1 [Report#1] ←1",
            "39 screen.pop ReportCoordinator#1 [Report#1] ←38",
            "40 coordinator.finish ReportCoordinator#1 ←39",
            "41 coordinator.deinit ReportCoordinator#1 ←38",
            "42 presenter.deinit ReportPresenter#1 ←38",
        ], journal: &journal)
        XCTAssertEqual(dashboard?.childCoordinators.count, 0)
        XCTAssertEqual(app.endAndFindLeaks(allEvents: journal), [])
    }

    func testTheBackButtonAlsoFinishesAChildCoordinator() throws {
        let app = try launch(SampleApps.tabs, ["start_tab": "settings"])
        XCTAssertEqual(app.visibleScreen, "Settings#1")
        try app.tap("open-profile")
        app.sink.removeAll()
        try app.context.window.userBack()
        XCTAssertEqual(app.sink.events.map(trace), [
            "20 action Profile#1 [Profile#1] ←1",
            "21 screen.pop ProfileCoordinator#1 [Profile#1] ←20",
            "22 coordinator.finish ProfileCoordinator#1 ←21",
            "23 coordinator.deinit ProfileCoordinator#1 ←21",
            "24 presenter.deinit ProfilePresenter#1 ←1",
        ])
        XCTAssertEqual(app.root?.children.last?.children.count, 0)
    }

    // MARK: - Settings

    func testTogglesChangeTheSettingsViewModel() throws {
        let app = try launch(SampleApps.tabs, ["start_tab": "settings", "notifications": "false"])
        XCTAssertEqual(app.rendered?.element(withID: "open-notifications")?.text, "Notifications: Off")
        app.sink.removeAll()
        try app.tap("toggle-dark-mode")
        try app.tap("toggle-analytics", value: "false")
        try app.tap("toggle-analytics", value: "false")  // already off: nothing to record
        let changes = app.sink.events.filter { $0.kind == .viewModelChange }
        XCTAssertEqual(changes.map { $0.payload["changed"] }, [["isDarkMode"], ["sharesAnalytics"]])
        XCTAssertEqual(changes.last?.payload["snapshot"], [
            "userName": "Ana Souza", "isDarkMode": true, "sharesAnalytics": false, "notificationsSummary": "Off",
        ])
        XCTAssertEqual(app.rendered?.element(withID: "toggle-dark-mode")?.isOn, true)
    }

    func testProfileValidatesTheNameAndReportsToItsParent() throws {
        let app = try launch(SampleApps.tabs, ["start_tab": "settings"])
        try app.tap("open-profile")
        try app.tap("profile-name", value: "   ")
        try app.tap("save-profile")
        XCTAssertEqual(app.rendered?.element(withID: "profile-error")?.text, "Your name can't be empty.")
        XCTAssertEqual(app.visibleScreen, "Profile#1")
        try app.tap("profile-name", value: "Ana Lúcia Souza")
        XCTAssertNil(app.rendered?.element(withID: "profile-error"))
        app.sink.removeAll()
        try app.tap("save-profile")
        XCTAssertEqual(app.sink.events.map(\.kind), [.action, .viewModelChange, .screenPop, .coordinatorFinish, .coordinatorDeinit, .presenterDeinit])
        XCTAssertEqual(app.sink.events[1].subject, "SettingsPresenter#1")
        XCTAssertEqual(app.rendered?.element(withID: "profile-summary")?.text, "Signed in as Ana Lúcia Souza")
    }

    // MARK: - Deep links

    func testDeepLinkReachesNotificationsInSteps() throws {
        let store = try NavigationTestStore(app: SampleApps.tabs)
        try store.session.perform(.action(element: "card-active-users", value: nil))
        store.skipReceivedEvents()

        // The link passes through Settings, never shown before and not seen now: only
        // NotificationsSettings is ready.
        try store.send(.deepLink("tabs://settings/notifications"), [
            "19 deeplink MainTabBarCoordinator#1 [Report#1] ←1",
            "20 tab.select MainTabBarCoordinator#1 [Settings#1] ←19",
            "21 coordinator.coordinate SettingsCoordinator#1 ←19",
            "22 coordinator.start NotificationsSettingsCoordinator#1 ←21",
            "23 presenter.init NotificationsSettingsPresenter#1 ←22",
            "24 screen.push NotificationsSettingsCoordinator#1 [NotificationsSettings#1] ←22",
            "25 screen.ready NotificationsSettingsCoordinator#1 [NotificationsSettings#1] ←19",
        ])
        let link = try XCTUnwrap(store.allEvents.first { $0.kind == .deepLink })
        XCTAssertEqual(link.payload["steps"], ["dismiss all modals", "select tab Settings", "pop SettingsNavigation#1 to root", "open notifications"])
        XCTAssertEqual(store.visibleScreen, "NotificationsSettings#1")

        // A second link unwinds the Dashboard stack first: the old report's coordinator finishes.
        try store.send(.deepLink("tabs://dashboard/app-rating"), [
            "26 deeplink MainTabBarCoordinator#1 [NotificationsSettings#1] ←1",
            "27 tab.select MainTabBarCoordinator#1 [Report#1] ←26",
            "28 screen.pop ReportCoordinator#1 [Report#1] ←26",
            "29 coordinator.finish ReportCoordinator#1 ←28",
            "30 coordinator.deinit ReportCoordinator#1 ←28",
            "31 presenter.deinit ReportPresenter#1 ←26",
            "32 coordinator.coordinate DashboardCoordinator#1 ←26",
            "33 coordinator.start ReportCoordinator#2 ←32",
            "34 presenter.init ReportPresenter#2 ←33",
            "35 screen.push ReportCoordinator#2 [Report#2] ←33",
            "36 screen.ready ReportCoordinator#2 [Report#2] ←26",
        ])
        XCTAssertEqual(store.rendered?.element(withID: "report-title")?.text, "App Store rating")
        // The Settings tab kept its stack.
        let tabBar = try XCTUnwrap(store.session.context.window.root as? TabContainer)
        XCTAssertEqual(tabBar.tabs[1].stack.screens.map(\.id), ["Settings#1", "NotificationsSettings#1"])
        store.finish()
    }

    func testUnknownLinksAreRefusedWithAReasonAndNothingMoves() throws {
        let app = try launch(SampleApps.tabs)
        let cases = [
            ("tabs://profile", "deep link tabs://profile cannot be reached: no tab 'profile' in tabs://profile; tabs: dashboard, settings"),
            ("tabs://settings/privacy", "deep link tabs://settings/privacy cannot be reached: no settings page 'privacy'; pages: notifications, profile"),
            ("tabs://dashboard/revenue", "deep link tabs://dashboard/revenue cannot be reached: no dashboard card 'revenue'; cards: active-users, crash-free, release-adoption, app-rating"),
            ("https://example.com/settings", "deep link https://example.com/settings cannot be reached: unsupported link https://example.com/settings: links start with tabs://"),
        ]
        for (url, message) in cases {
            app.sink.removeAll()
            XCTAssertThrowsError(try openLink(url, in: app)) { error in
                XCTAssertEqual("\(error)", message)
                XCTAssertTrue(error is NavigationError)
            }
            XCTAssertEqual(app.sink.events.map(\.kind), [.deepLink, .error], url)
            XCTAssertEqual(app.sink.events.last?.payload["code"], "unreachable_deeplink")
            XCTAssertEqual(app.visibleScreen, "Dashboard#1")
        }
    }

    // MARK: - Parameters

    func testParametersAreValidated() {
        let app = SampleApps.tabs
        assertParameterError("app 'tabs' has no parameter 'tab'; its parameters: inject, notifications, start_tab, user_name") {
            _ = try app.resolveParameters(["tab": "settings"])
        }
        assertParameterError("app 'tabs': parameter 'notifications' must be true or false, not 'maybe'") {
            _ = try app.resolveParameters(["notifications": "maybe"])
        }
    }
}
