import NavlogEvents
import NavlogTesting
import XCTest

@testable import NavlogSampleApps

final class ContentListTests: XCTestCase {
    private let launchEvents = [
        "1 session.start Session#1",
        "2 coordinator.start ContentListCoordinator#1 ←1",
        "3 presenter.init ContentListPresenter#1 ←2",
        "4 screen.push ContentListRouter#1 [ContentList#1] ←2",
        "5 window.root ContentListCoordinator#1 [ContentList#1] ←2",
        "6 screen.ready ContentListRouter#1 [ContentList#1] ←2",
    ]

    // MARK: - Main flow

    func testTextsComeThroughTheDataSourceAndTheRouterPushesTheDetail() throws {
        let store = try NavigationTestStore(app: SampleApps.contentList)
        store.assertLaunch(launchEvents)
        XCTAssertEqual(store.allEvents[3].payload["bound"], ["ContentListPresenter#1", "DataSource#1"])
        XCTAssertEqual(store.rendered?.element(withID: "guides")?.children?.count, 7)

        try store.send(.action(element: "search", value: "swiftui"), [
            "7 action ContentList#1 [ContentList#1] ←1",
            "8 viewmodel.change ContentListPresenter#1 [ContentList#1] ←7",
            "9 viewmodel.change DataSource#1 [ContentList#1] ←7",
        ])
        // The presenter publishes guides; the data source holds exactly the texts the view shows.
        let source = try XCTUnwrap(snapshots(of: "DataSource#1", in: store.allEvents).last)
        XCTAssertEqual(source["query"], "swiftui")
        XCTAssertEqual(source["texts"], [["id": "hosting-swiftui", "text": "Hosting SwiftUI in UIKit", "detail": "UI · 7 min"]])
        XCTAssertEqual(snapshots(of: "ContentListPresenter#1", in: store.allEvents).last?["guides"]?.arrayValue?.count, 1)
        XCTAssertEqual(store.rendered?.element(withID: "guides")?.children?.map(\.id), ["guide-hosting-swiftui"])

        try store.send(.action(element: "guide-hosting-swiftui", value: nil), [
            "10 action ContentList#1 [ContentList#1] ←1",
            "11 presenter.init GuideDetailPresenter#1 ←10",
            "12 screen.push ContentListRouter#1 [GuideDetail#1] ←10",
            "13 screen.ready ContentListRouter#1 [GuideDetail#1] ←10",
        ])
        XCTAssertEqual(store.rendered?.element(withID: "guide-title")?.text, "Hosting SwiftUI in UIKit")
        XCTAssertNil(store.rendered?.element(withID: "open-related"), "the only UI guide has no related guide")

        try store.send(.back, [
            "14 action GuideDetail#1 [GuideDetail#1] ←1",
            "15 screen.pop ContentListRouter#1 [GuideDetail#1] ←14",
            "16 presenter.deinit GuideDetailPresenter#1 ←1",
        ])
        store.finish()
    }

    // MARK: - Filter and empty states

    func testFilterSheetNarrowsTheListAndSwipingItAwayChangesNothing() throws {
        let app = try launch(SampleApps.contentList)
        var journal: [Event] = []
        drain(app.sink, into: &journal)
        try app.tap("open-filter")
        try app.tap("category-testing")
        assertEvents(app.sink, [
            "7 action ContentList#1 [ContentList#1] ←1",
            "8 screen.present ContentListRouter#1 [CategoryFilter#1] ←7",
            "9 screen.ready ContentListRouter#1 [CategoryFilter#1] ←7",
            "10 action CategoryFilter#1 [CategoryFilter#1] ←1",
            "11 viewmodel.change ContentListPresenter#1 [ContentList#1] ←10",
            "12 viewmodel.change DataSource#1 [ContentList#1] ←10",
            "13 screen.dismiss ContentListRouter#1 [CategoryFilter#1] ←10",
        ], journal: &journal)
        XCTAssertEqual(app.rendered?.element(withID: "guides")?.children?.map(\.id), ["guide-testing-presenters", "guide-snapshot-testing"])
        XCTAssertEqual(app.rendered?.element(withID: "open-filter")?.text, "Filter: Testing")

        try app.tap("open-filter")
        XCTAssertEqual(app.rendered?.element(withID: "category-testing")?.detail, "selected")
        try app.context.window.userSwipeDismiss()
        assertEvents(app.sink, [
            "14 action ContentList#1 [ContentList#1] ←1",
            "15 screen.present ContentListRouter#1 [CategoryFilter#2] ←14",
            "16 screen.ready ContentListRouter#1 [CategoryFilter#2] ←14",
            "17 action CategoryFilter#2 [CategoryFilter#2] ←1",
            "18 screen.dismiss ContentListRouter#1 [CategoryFilter#2] ←17",
        ], journal: &journal)
        XCTAssertEqual(app.visibleScreen, "ContentList#1")
        XCTAssertEqual(app.endAndFindLeaks(allEvents: journal), [])
    }

    func testSearchWithoutMatchesShowsAnEmptyStateThatCanBeCleared() throws {
        let app = try launch(SampleApps.contentList, ["category": "concurrency"])
        XCTAssertEqual(app.rendered?.element(withID: "guides")?.children?.count, 2)
        try app.tap("search", value: "snapshot")
        XCTAssertNil(app.rendered?.element(withID: "guides"))
        XCTAssertEqual(app.rendered?.element(withID: "empty")?.text, "No guides match “snapshot” in Concurrency.")
        XCTAssertEqual(app.rendered?.actionableIDs, ["search", "open-filter", "clear-search"])
        try app.tap("clear-search")
        XCTAssertEqual(app.rendered?.element(withID: "search")?.value, "")
        XCTAssertEqual(app.rendered?.element(withID: "guides")?.children?.count, 2)
    }

    func testAnEmptyLibrarySaysSo() throws {
        let app = try launch(SampleApps.contentList, ["dataset": "empty", "query": "actors"])
        XCTAssertEqual(app.rendered?.element(withID: "empty")?.text, "No guides yet. The first ones arrive with the next update.")
        let initial = try XCTUnwrap(app.sink.events.first { $0.kind == .presenterInit })
        XCTAssertEqual(initial.payload["snapshot"]?["guides"], [])
    }

    // MARK: - Downloading the guides

    func testDownloadedGuidesMakeTheListReadyWhenTheyArrive() throws {
        let app = try launch(SampleApps.contentList, ["latency_ms": "400"])
        var journal: [Event] = []
        // The list shows, but is not ready until the guides are here.
        assertEvents(app.sink, Array(launchEvents.dropLast()), journal: &journal)
        XCTAssertEqual(app.rendered?.element(withID: "empty")?.text, "Loading guides…")
        XCTAssertEqual(app.wait(milliseconds: 399), 0)
        XCTAssertEqual(app.wait(milliseconds: 1), 1)
        assertEvents(app.sink, [
            "6 viewmodel.change ContentListPresenter#1 [ContentList#1] ←2",
            "7 viewmodel.change DataSource#1 [ContentList#1] ←2",
            "8 screen.ready ContentListRouter#1 [ContentList#1] ←2",
        ], journal: &journal)
        XCTAssertEqual(journal.last?.payload, ["outcome": "loaded"])
        XCTAssertEqual(app.rendered?.element(withID: "guides")?.children?.count, 7)
        XCTAssertEqual(app.endAndFindLeaks(allEvents: journal), [])
    }

    func testAnEmptyDownloadMakesTheListReadyAndEmpty() throws {
        let app = try launch(SampleApps.contentList, ["latency_ms": "400", "dataset": "empty"])
        app.wait(milliseconds: 400)
        let ready = try XCTUnwrap(app.sink.events.last)
        XCTAssertEqual(trace(ready), "8 screen.ready ContentListRouter#1 [ContentList#1] ←2")
        XCTAssertEqual(ready.payload, ["outcome": "empty"])
        XCTAssertEqual(app.rendered?.element(withID: "empty")?.text, "No guides yet. The first ones arrive with the next update.")
    }

    // MARK: - Detail, related guide and notes

    func testRelatedGuideAndNotesArePushedByTheDetailRouter() throws {
        let app = try launch(SampleApps.contentList)
        var journal: [Event] = []
        try app.tap("guide-actors-and-isolation")
        try app.tap("toggle-read")
        XCTAssertEqual(app.rendered?.element(withID: "toggle-read")?.isOn, true)
        try app.tap("open-related")
        XCTAssertEqual(app.rendered?.element(withID: "guide-title")?.text, "AsyncSequence in practice")
        drain(app.sink, into: &journal)

        try app.tap("open-notes")
        try app.tap("note-text", value: "for await line in url.lines ")
        try app.tap("save-note")
        assertEvents(app.sink, [
            "17 action GuideDetail#2 [GuideDetail#2] ←1",
            "18 presenter.init GuideNotesPresenter#1 ←17",
            "19 screen.push GuideDetailRouter#2 [GuideNotes#1] ←17",
            "20 screen.ready GuideDetailRouter#2 [GuideNotes#1] ←17",
            "21 action GuideNotes#1 [GuideNotes#1] ←1",
            "22 viewmodel.change GuideNotesPresenter#1 [GuideNotes#1] ←21",
            "23 action GuideNotes#1 [GuideNotes#1] ←1",
            "24 viewmodel.change GuideNotesPresenter#1 [GuideNotes#1] ←23",
            "25 screen.pop GuideDetailRouter#2 [GuideNotes#1] ←23",
            "26 presenter.deinit GuideNotesPresenter#1 ←23",
        ], journal: &journal)
        XCTAssertEqual(app.visibleScreen, "GuideDetail#2")

        try app.tap("open-notes")
        XCTAssertEqual(app.rendered?.element(withID: "note-text")?.value, "for await line in url.lines")
        XCTAssertEqual(app.rendered?.element(withID: "save-note")?.text, "Saved")
        XCTAssertEqual(app.endAndFindLeaks(allEvents: journal), [])
    }

    // MARK: - Parameters

    func testParametersAreValidated() {
        let app = SampleApps.contentList
        assertParameterError("app 'content-list' has no parameter 'filter'; its parameters: category, dataset, inject, latency_ms, query") {
            _ = try app.resolveParameters(["filter": "testing"])
        }
        assertParameterError("app 'content-list': parameter 'category' must be one of all, architecture, concurrency, testing, ui, not 'design'") {
            _ = try app.resolveParameters(["category": "design"])
        }
    }

    func testEveryAppIsListedOnceByName() {
        XCTAssertEqual(SampleApps.all.map(\.name), ["master-detail", "articles", "tabs", "content-list"])
        XCTAssertNil(SampleApps.app(named: "missing"))
    }
}
