import NavlogEvents
import NavlogRuntime
import XCTest

@testable import NavlogSampleApps

/// Each app's `inject` parameter, along the path its bugs sit on: `leak` leaves a coordinator
/// or presenter the leak detector reports, `double_push` shows one screen twice on one tap, and
/// `none` (the default) does neither.
final class InjectionTests: XCTestCase {
    /// How each app is driven: it opens the screen its bugs concern with `open`, goes back to
    /// the stack's root, then acts once more (a leak of a coordinator that outlived its screen
    /// is judged at the next user intent).
    private struct InjectedPath {
        var app: AppDefinition
        var open: String
        var then: String
        /// Time for the app to be ready before `open` (the articles feed loads first).
        var readyAfterMilliseconds: UInt64 = 0
    }

    private let masterDetail = InjectedPath(app: SampleApps.masterDetail, open: "open-detail", then: "next-day")
    private let articles = InjectedPath(app: SampleApps.articles, open: "article-swift-concurrency", then: "reload", readyAfterMilliseconds: 300)
    private let tabs = InjectedPath(app: SampleApps.tabs, open: "card-crash-free", then: "card-app-rating")
    private let contentList = InjectedPath(app: SampleApps.contentList, open: "guide-actors-and-isolation", then: "open-filter")

    /// Walks `path` with `inject=value` and returns what the session recorded, with its leaks.
    private func walk(_ path: InjectedPath, inject value: String) throws -> (events: [Event], leaks: [LeakDetector.Leak]) {
        let app = try launch(path.app, ["inject": value])
        app.wait(milliseconds: path.readyAfterMilliseconds)
        try app.tap(path.open)
        while let stack = app.context.window.topContainer?.activeStack, stack.screens.count > 1 {
            try app.context.window.userBack()
        }
        try app.tap(path.then)
        let events = app.sink.events
        let leaks = app.endAndFindLeaks(allEvents: [])
        return (events, leaks)
    }

    // MARK: - none

    func testNoneShowsNeitherALeakNorADoublePush() throws {
        for path in [masterDetail, articles, tabs, contentList] {
            let (events, leaks) = try walk(path, inject: "none")
            XCTAssertEqual(leaks, [], path.app.name)
            XCTAssertEqual(doublePushes(in: events), [], path.app.name)
            XCTAssertNil(events.first?.payload["parameters"]?["inject"], "\(path.app.name): none is not recorded")
        }
    }

    // MARK: - leak

    func testMasterDetailLeakKeepsDetailsCoordinatorAmongItsParentsChildren() throws {
        let app = try launch(SampleApps.masterDetail, ["inject": "leak"])
        var journal: [Event] = []
        drain(app.sink, into: &journal)
        weak let master = app.root?.children.first
        try app.tap("open-detail")
        drain(app.sink, into: &journal)
        try app.context.window.userBack()
        try app.tap("next-day")
        // No `coordinator.finish` after the pop, and no `coordinator.deinit`.
        assertEvents(app.sink, [
            "15 action Detail#1 [Detail#1] ←1",
            "16 screen.pop DetailCoordinator#1 [Detail#1] ←15",
            "17 presenter.deinit DetailPresenter#1 ←1",
            "18 action Master#1 [Master#1] ←1",
            "19 viewmodel.change MasterPresenter#1 [Master#1] ←18",
        ], journal: &journal)
        XCTAssertEqual(master?.children.map(\.id), ["DetailCoordinator#1"], "the seed's bug: the parent still holds Detail's coordinator")
        XCTAssertEqual(app.endAndFindLeaks(allEvents: journal).map(summary), [
            "screen_gone_coordinator_alive DetailCoordinator#1 (Detail#1)",
        ])
    }

    func testArticlesLeakKeepsTheArticlesPresenterAfterItsScreenLeft() throws {
        let (events, leaks) = try walk(articles, inject: "leak")
        XCTAssertEqual(events.first?.payload["parameters"]?["inject"], "leak")
        XCTAssertFalse(events.contains { $0.kind == .presenterDeinit && $0.subject == "ArticleDetailPresenter#1" })
        XCTAssertEqual(leaks.map(summary), ["presenter_outlived_screen ArticleDetailPresenter#1 (ArticleDetail#1)"])
        XCTAssertEqual(doublePushes(in: events), [])
    }

    func testTabsLeakKeepsTheDashboardCoordinatorAfterItFinished() throws {
        let (events, leaks) = try walk(tabs, inject: "leak")
        XCTAssertEqual(leaks.map(summary), ["finished_not_deallocated DashboardCoordinator#1"])
        XCTAssertEqual(doublePushes(in: events), [])
    }

    func testContentListLeakKeepsTheGuidesPresenterAfterItsScreenLeft() throws {
        let (events, leaks) = try walk(contentList, inject: "leak")
        XCTAssertEqual(leaks.map(summary), ["presenter_outlived_screen GuideDetailPresenter#1 (GuideDetail#1)"])
        XCTAssertEqual(doublePushes(in: events), [])
    }

    // MARK: - double_push

    func testMasterDetailDoublePushShowsDetailTwiceOnOneTap() throws {
        let app = try launch(SampleApps.masterDetail, ["inject": "double_push"])
        var journal: [Event] = []
        drain(app.sink, into: &journal)
        try app.tap("open-detail")
        assertEvents(app.sink, [
            "9 action Master#1 [Master#1] ←1",
            "10 coordinator.coordinate RootMasterCoordinator#1 ←9",
            "11 coordinator.start DetailCoordinator#1 ←10",
            "12 presenter.init DetailPresenter#1 ←11",
            "13 screen.push DetailCoordinator#1 [Detail#1] ←11",
            "14 coordinator.coordinate RootMasterCoordinator#1 ←9",
            "15 coordinator.start DetailCoordinator#2 ←14",
            "16 presenter.init DetailPresenter#2 ←15",
            "17 screen.push DetailCoordinator#2 [Detail#2] ←15",
            // The user sees only Detail#2: Detail#1, pushed under it by the same tap, is not displayed.
            "18 screen.ready DetailCoordinator#2 [Detail#2] ←9",
        ], journal: &journal)
        XCTAssertEqual(doublePushes(in: journal), ["Detail"])
        XCTAssertEqual(app.context.window.topContainer?.activeStack?.screens.map(\.id), ["Master#1", "Detail#1", "Detail#2"])
    }

    func testEveryAppsDoublePushShowsOneScreenTwiceOnOneTapAndLeaksNothing() throws {
        for (path, screen) in [(masterDetail, "Detail"), (articles, "ArticleDetail"), (tabs, "Report"), (contentList, "GuideDetail")] {
            let (events, leaks) = try walk(path, inject: "double_push")
            XCTAssertEqual(doublePushes(in: events), [screen], path.app.name)
            XCTAssertEqual(leaks, [], path.app.name)
        }
    }

    // MARK: - Helpers

    /// The screen types that one action pushed more than once, directly or through the events
    /// it caused, in order of their first push.
    private func doublePushes(in events: [Event]) -> [String] {
        let bySequence = Dictionary(events.map { ($0.sessionSeq, $0) }) { first, _ in first }
        func action(causing event: Event) -> UInt64? {
            var current = event
            while current.kind != .action {
                guard let cause = current.cause, let next = bySequence[cause] else { return nil }
                current = next
            }
            return current.sessionSeq
        }
        var screensByAction: [UInt64: [String: Set<String>]] = [:]
        var types: [String] = []
        for event in events where event.kind == .screenPush {
            guard let screen = event.screen, let action = action(causing: event) else { continue }
            let type = InstanceID.typeName(of: screen)
            screensByAction[action, default: [:]][type, default: []].insert(screen)
            if screensByAction[action]?[type]?.count == 2, !types.contains(type) { types.append(type) }
        }
        return types
    }

    /// A leak as `kind subject (screen)`.
    private func summary(_ leak: LeakDetector.Leak) -> String {
        "\(leak.kind.rawValue) \(leak.subject)" + (leak.screen.map { " (\($0))" } ?? "")
    }
}
