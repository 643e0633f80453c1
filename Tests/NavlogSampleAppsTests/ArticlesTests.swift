import NavlogEvents
import NavlogTesting
import XCTest

@testable import NavlogSampleApps

final class ArticlesTests: XCTestCase {
    private let launchEvents = [
        "1 session.start Session#1",
        "2 coordinator.start ArticlesCoordinator#1 ←1",
        "3 presenter.init ScenePresenter#1 ←2",
        "4 screen.push SceneRouter#1 [Articles#1] ←2",
        "5 window.root ArticlesCoordinator#1 [Articles#1] ←2",
        "6 viewmodel.change SceneModel#1 [Articles#1] ←2",
        "7 viewmodel.change SceneModel#1 [Articles#1] ←2",
    ]

    // MARK: - Main flow

    func testFeedLoadsThenAnArticleRoutesToItsDetailAndAuthor() throws {
        let store = try NavigationTestStore(app: SampleApps.articles)
        store.assertLaunch(launchEvents)
        XCTAssertEqual(store.allEvents.last?.payload["bound"], nil)
        XCTAssertEqual(store.allEvents[3].payload["bound"], ["ScenePresenter#1", "SceneModel#1"])
        XCTAssertEqual(store.rendered?.element(withID: "spinner")?.isOn, true)
        XCTAssertEqual(store.rendered?.element(withID: "loading")?.text, "Loading articles…")

        try store.send(.wait(nanoseconds: 299_000_000), [])
        try store.send(.wait(nanoseconds: 1_000_000), [
            "8 viewmodel.change SceneModel#1 [Articles#1] ←2",
            "9 viewmodel.change SceneModel#1 [Articles#1] ←2",
            "10 viewmodel.change SceneModel#1 [Articles#1] ←2",
            "11 screen.ready SceneRouter#1 [Articles#1] ←2",
        ])
        let changes = store.allEvents.filter { $0.kind == .viewModelChange }
        XCTAssertEqual(changes.map { $0.payload["changed"] }, [["articlesState"], ["spinnerState"], ["articles"], ["articlesState"], ["spinnerState"]])
        XCTAssertEqual(changes.map { $0.payload["snapshot"]?["articlesState"] }, ["loading", "loading", "loading", "loaded", "loaded"])
        XCTAssertEqual(changes.map { $0.payload["snapshot"]?["spinnerState"] }, [false, true, true, true, false])
        XCTAssertEqual(changes.first?.payload["previous"], ["articlesState": "rest"])
        XCTAssertEqual(store.rendered?.element(withID: "spinner")?.isOn, false)
        XCTAssertEqual(store.rendered?.actionableIDs, [
            "article-swift-concurrency", "article-coordinators-in-practice", "article-viper-model-layer",
            "article-testing-navigation", "article-modular-features", "reload", "open-bookmarks",
        ])
        XCTAssertEqual(store.rendered?.element(withID: "article-viper-model-layer")?.detail, "Irina Volkova · 6 min read")

        try store.send(.action(element: "article-viper-model-layer", value: nil), [
            "12 action Articles#1 [Articles#1] ←1",
            "13 presenter.init ArticleDetailPresenter#1 ←12",
            "14 screen.push SceneRouter#1 [ArticleDetail#1] ←12",
            "15 screen.ready SceneRouter#1 [ArticleDetail#1] ←12",
        ])
        try store.send(.action(element: "open-author", value: nil), [
            "16 action ArticleDetail#1 [ArticleDetail#1] ←1",
            "17 presenter.init AuthorPresenter#1 ←16",
            "18 screen.push ArticleDetailRouter#1 [Author#1] ←16",
            "19 screen.ready ArticleDetailRouter#1 [Author#1] ←16",
        ])
        XCTAssertEqual(store.rendered?.element(withID: "author-name")?.text, "Irina Volkova")
        XCTAssertEqual(store.rendered?.actionableIDs, ["article-viper-model-layer"])

        try store.send(.back, [
            "20 action Author#1 [Author#1] ←1",
            "21 screen.pop ArticleDetailRouter#1 [Author#1] ←20",
            "22 presenter.deinit AuthorPresenter#1 ←1",
        ])
        try store.send(.back, [
            "23 action ArticleDetail#1 [ArticleDetail#1] ←1",
            "24 screen.pop SceneRouter#1 [ArticleDetail#1] ←23",
            "25 presenter.deinit ArticleDetailPresenter#1 ←1",
        ])
        XCTAssertEqual(store.visibleScreen, "Articles#1")
        store.finish()
    }

    // MARK: - Loading states

    func testFailedLoadShowsRetryAndRetrySucceeds() throws {
        // Seed 3 draws a failure first, then a success, at a failure rate of one half.
        let app = try launch(SampleApps.articles, ["failure_rate": "0.5", "seed": "3", "latency_ms": "1200"])
        var journal: [Event] = []
        drain(app.sink, into: &journal)
        app.wait(milliseconds: 1200)
        let failed = drain(app.sink, into: &journal)
        // The error is shown, then the screen is ready: its first load failed.
        XCTAssertEqual(failed.map { $0.payload["changed"] }, [["errorMessage"], ["articlesState"], ["spinnerState"], nil])
        XCTAssertEqual(failed.last { $0.kind == .viewModelChange }?.payload["snapshot"]?["articlesState"], "failed")
        XCTAssertEqual(failed.last.map(trace), "11 screen.ready SceneRouter#1 [Articles#1] ←2")
        XCTAssertEqual(failed.last?.payload, ["outcome": "failed"])
        XCTAssertEqual(app.rendered?.element(withID: "error")?.text,
                       "The feed could not be loaded (HTTP 503, attempt 1). Check your connection and try again.")
        XCTAssertEqual(app.rendered?.actionableIDs, ["retry", "open-bookmarks"])

        try app.tap("retry")
        assertEvents(app.sink, [
            "12 action Articles#1 [Articles#1] ←1",
            "13 viewmodel.change SceneModel#1 [Articles#1] ←12",
            "14 viewmodel.change SceneModel#1 [Articles#1] ←12",
            "15 viewmodel.change SceneModel#1 [Articles#1] ←12",
        ], journal: &journal)
        XCTAssertEqual(snapshots(of: "SceneModel#1", in: journal).suffix(3).map { $0["articlesState"] }, ["failed", "loading", "loading"])
        XCTAssertEqual(snapshots(of: "SceneModel#1", in: journal).last?["spinnerState"], true)
        XCTAssertNil(snapshots(of: "SceneModel#1", in: journal).last?["errorMessage"])

        // The retry loads the feed; the screen was ready already (its first load failed), so
        // no second screen.ready.
        app.wait(milliseconds: 1200)
        assertEvents(app.sink, [
            "16 viewmodel.change SceneModel#1 [Articles#1] ←12",
            "17 viewmodel.change SceneModel#1 [Articles#1] ←12",
            "18 viewmodel.change SceneModel#1 [Articles#1] ←12",
        ], journal: &journal)
        XCTAssertEqual(app.rendered?.element(withID: "articles")?.children?.count, 5)
        XCTAssertEqual(app.endAndFindLeaks(allEvents: journal), [])
    }

    func testAFailureRateOfOneAlwaysFailsAndCountsAttempts() throws {
        let app = try launch(SampleApps.articles, ["failure_rate": "1"])
        app.wait(milliseconds: 300)
        try app.tap("retry")
        // A second tap while loading starts nothing new.
        try app.tap("open-bookmarks")
        try app.context.window.userBack()
        XCTAssertEqual(app.context.scheduler.pendingCount, 1)
        app.wait(milliseconds: 300)
        XCTAssertEqual(app.rendered?.element(withID: "error")?.text,
                       "The feed could not be loaded (HTTP 503, attempt 2). Check your connection and try again.")
        XCTAssertEqual(app.context.scheduler.pendingCount, 0)
    }

    func testEmptyFeedShowsTheEmptyState() throws {
        let app = try launch(SampleApps.articles, ["dataset": "empty", "latency_ms": "0"])
        XCTAssertEqual(app.wait(milliseconds: 0), 1)
        XCTAssertEqual(snapshots(of: "SceneModel#1", in: app.sink.events).map { $0["articlesState"] }, ["loading", "loading", "empty", "empty"])
        XCTAssertEqual(snapshots(of: "SceneModel#1", in: app.sink.events).last?["spinnerState"], false)
        XCTAssertNil(app.rendered?.element(withID: "articles"))
        XCTAssertEqual(app.rendered?.element(withID: "empty")?.text, "No articles yet. New pieces are published every Monday.")
        XCTAssertEqual(app.rendered?.actionableIDs, ["reload", "open-bookmarks"])
    }

    // MARK: - Bookmarks

    func testBookmarksFollowTheToggleOnTheDetail() throws {
        let app = try launch(SampleApps.articles)
        var journal: [Event] = []
        app.wait(milliseconds: 300)
        try app.tap("open-bookmarks")
        XCTAssertNotNil(app.rendered?.element(withID: "bookmarks-empty"))
        try app.context.window.userBack()

        try app.tap("article-swift-concurrency")
        try app.tap("toggle-bookmark", value: "true")
        XCTAssertEqual(app.rendered?.element(withID: "toggle-bookmark")?.isOn, true)
        try app.context.window.userBack()
        try app.tap("open-bookmarks")
        XCTAssertEqual(app.rendered?.element(withID: "bookmarks")?.children?.map(\.id), ["article-swift-concurrency"])
        drain(app.sink, into: &journal)

        // Un-bookmarking from a detail opened from the list updates the list underneath.
        try app.tap("article-swift-concurrency")
        try app.tap("toggle-bookmark")
        assertEvents(app.sink, [
            "32 action Bookmarks#2 [Bookmarks#2] ←1",
            "33 presenter.init ArticleDetailPresenter#2 ←32",
            "34 screen.push ArticleListRouter#2 [ArticleDetail#2] ←32",
            "35 screen.ready ArticleListRouter#2 [ArticleDetail#2] ←32",
            "36 action ArticleDetail#2 [ArticleDetail#2] ←1",
            "37 viewmodel.change BookmarksPresenter#2 [Bookmarks#2] ←36",
            "38 viewmodel.change ArticleDetailPresenter#2 [ArticleDetail#2] ←36",
        ], journal: &journal)
        try app.context.window.userBack()
        XCTAssertNotNil(app.rendered?.element(withID: "bookmarks-empty"))
        XCTAssertEqual(app.endAndFindLeaks(allEvents: journal), [])
    }

    // MARK: - Parameters

    func testParametersAreValidated() throws {
        let app = SampleApps.articles
        assertParameterError("app 'articles' has no parameter 'latency'; its parameters: dataset, failure_rate, inject, latency_ms, seed") {
            _ = try app.resolveParameters(["latency": "10"])
        }
        assertParameterError("app 'articles': parameter 'failure_rate' must be a number from 0.0 to 1.0, not '1.5'") {
            _ = try app.resolveParameters(["failure_rate": "1.5"])
        }
        assertParameterError("app 'articles': parameter 'latency_ms' must be an integer from 0 to 60000, not 'fast'") {
            _ = try app.resolveParameters(["latency_ms": "fast"])
        }
        let defaults = try app.resolveParameters([:])
        XCTAssertEqual(defaults.integer("latency_ms"), 300)
        XCTAssertEqual(defaults.string("dataset"), "full")
    }
}
