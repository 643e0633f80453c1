import NavlogEvents
import NavlogTesting
import XCTest

@testable import NavlogSampleApps

final class MasterDetailTests: XCTestCase {
    private let launchEvents = [
        "1 session.start Session#1",
        "2 coordinator.start AppCoordinator#1 ←1",
        "3 coordinator.coordinate AppCoordinator#1 ←2",
        "4 coordinator.start RootMasterCoordinator#1 ←3",
        "5 presenter.init MasterPresenter#1 ←4",
        "6 screen.push RootMasterCoordinator#1 [Master#1] ←4",
        "7 window.root RootMasterCoordinator#1 [Master#1] ←4",
        "8 screen.ready RootMasterCoordinator#1 [Master#1] ←2",
    ]

    // MARK: - Main flow

    func testPushedDetailIsRemovedFromItsParentWhenTheUserGoesBack() throws {
        let store = try NavigationTestStore(app: SampleApps.masterDetail, parameters: ["detail_style": "push"])
        store.assertLaunch(launchEvents)
        XCTAssertEqual(store.rendered?.element(withID: "open-detail")?.text, "Tuesday, 1 Dec 2026, 10:00")
        // Weak, as a host holds it: the session owns the tree.
        weak let master = store.root?.children.first as? RootMasterCoordinator

        try store.send(.action(element: "open-detail", value: nil), [
            "9 action Master#1 [Master#1] ←1",
            "10 coordinator.coordinate RootMasterCoordinator#1 ←9",
            "11 coordinator.start DetailCoordinator#1 ←10",
            "12 presenter.init DetailPresenter#1 ←11",
            "13 screen.push DetailCoordinator#1 [Detail#1] ←11",
            "14 screen.ready DetailCoordinator#1 [Detail#1] ←9",
        ])
        XCTAssertEqual(store.visibleScreen, "Detail#1")
        XCTAssertEqual(master?.navigation.screens.map(\.id), ["Master#1", "Detail#1"])
        XCTAssertEqual(master?.children.map(\.id), ["DetailCoordinator#1"])
        XCTAssertTrue(master?.children.first?.parent === master)

        try store.send(.back, [
            "15 action Detail#1 [Detail#1] ←1",
            "16 screen.pop DetailCoordinator#1 [Detail#1] ←15",
            "17 coordinator.finish DetailCoordinator#1 ←16",
            "18 coordinator.deinit DetailCoordinator#1 ←16",
            "19 presenter.deinit DetailPresenter#1 ←1",
        ])
        XCTAssertEqual(master?.children.isEmpty, true)
        XCTAssertEqual(store.visibleScreen, "Master#1")
        store.finish()
    }

    func testModalDetailIsTheSameViewAndSwipingItDownRemovesItsCoordinator() throws {
        let pushed = try launch(SampleApps.masterDetail, ["detail_style": "push"])
        try pushed.tap("open-detail")
        let pushedDetail = try XCTUnwrap(pushed.rendered)

        let store = try NavigationTestStore(app: SampleApps.masterDetail, parameters: ["detail_style": "modal"])
        store.assertLaunch(launchEvents)
        try store.send(.action(element: "open-detail", value: nil), [
            "9 action Master#1 [Master#1] ←1",
            "10 coordinator.coordinate RootMasterCoordinator#1 ←9",
            "11 coordinator.start DetailCoordinator#1 ←10",
            "12 presenter.init DetailPresenter#1 ←11",
            "13 screen.push DetailCoordinator#1 [Detail#1] ←11",
            "14 screen.present DetailCoordinator#1 [Detail#1] ←11",
            "15 screen.ready DetailCoordinator#1 [Detail#1] ←9",
        ])
        let present = try XCTUnwrap(store.allEvents.last { $0.kind == .screenPresent })
        XCTAssertEqual(present.payload["style"], "sheet")
        XCTAssertEqual(present.payload["over"], "Master#1")
        // The view did not change: same elements, same ids, whichever way it appeared.
        XCTAssertEqual(store.rendered, pushedDetail)
        XCTAssertEqual(store.session.context.window.state().root?.screens, ["Master#1"])

        try store.send(.dismiss, [
            "16 action Detail#1 [Detail#1] ←1",
            "17 screen.dismiss DetailCoordinator#1 [Detail#1] ←16",
            "18 coordinator.finish DetailCoordinator#1 ←17",
            "19 coordinator.deinit DetailCoordinator#1 ←17",
            "20 presenter.deinit DetailPresenter#1 ←16",
        ])
        XCTAssertEqual(store.root?.children.first?.children.count, 0)
        store.finish()
        pushed.context.end()
    }

    func testCloseButtonPopsOrDismissesAsTheCoordinatorChose() throws {
        for (style, kind) in [("push", EventKind.screenPop), ("modal", .screenDismiss)] {
            let app = try launch(SampleApps.masterDetail, ["detail_style": style])
            try app.tap("open-detail")
            app.sink.removeAll()
            try app.tap("close-detail")
            let events = app.sink.events
            XCTAssertEqual(events.map(\.kind), [.action, kind, .coordinatorFinish, .coordinatorDeinit, .presenterDeinit], style)
            XCTAssertEqual(events[1].payload["by"], style == "push" ? "pop" : "dismiss")
            XCTAssertEqual(app.visibleScreen, "Master#1", style)
            XCTAssertTrue(LeakDetector.leaks(in: events).isEmpty)
            app.context.end()
        }
    }

    // MARK: - Screens and payloads

    func testSharingValidatesTheRecipientThenReturnsToDetail() throws {
        let store = try NavigationTestStore(app: SampleApps.masterDetail, parameters: ["detail_style": "modal"])
        try store.session.perform(.action(element: "open-detail", value: nil))
        try store.session.perform(.action(element: "open-share", value: nil))
        XCTAssertEqual(store.visibleScreen, "Share#1")
        try store.session.perform(.action(element: "share-recipient", value: "ana at example"))
        try store.session.perform(.action(element: "send-share", value: nil))
        XCTAssertEqual(store.rendered?.element(withID: "share-error")?.text, "Enter an email address, such as ana@example.com.")
        XCTAssertEqual(store.visibleScreen, "Share#1")
        store.skipReceivedEvents()

        try store.send(.action(element: "share-recipient", value: " ana@example.com "), [
            "24 action Share#1 [Share#1] ←1",
            "25 viewmodel.change SharePresenter#1 [Share#1] ←24",
        ])
        try store.send(.action(element: "send-share", value: nil), [
            "26 action Share#1 [Share#1] ←1",
            "27 viewmodel.change SharePresenter#1 [Share#1] ←26",
            "28 viewmodel.change DetailPresenter#1 [Detail#1] ←26",
            "29 screen.pop DetailCoordinator#1 [Share#1] ←26",
            "30 presenter.deinit SharePresenter#1 ←26",
        ])
        XCTAssertEqual(snapshots(of: "SharePresenter#1", in: store.allEvents).map { $0["recipient"] },
                       ["ana at example", "ana at example", "ana@example.com", "ana@example.com"])
        XCTAssertEqual(snapshots(of: "SharePresenter#1", in: store.allEvents).last?["isSent"], true)
        XCTAssertEqual(snapshots(of: "DetailPresenter#1", in: store.allEvents).last?["sharedWith"], ["ana@example.com"])
        XCTAssertEqual(store.visibleScreen, "Detail#1")
        XCTAssertEqual(store.rendered?.element(withID: "shared-with")?.text, "Shared with ana@example.com")
        store.finish()
    }

    func testMasterViewModelChangesDayByDayAndWeekendsHaveAnEmptyAgenda() throws {
        let app = try launch(SampleApps.masterDetail)
        let presenterInit = try XCTUnwrap(app.sink.events.first { $0.kind == .presenterInit })
        XCTAssertEqual(presenterInit.payload["snapshot"], ["date": "2026-12-01T10:00:00Z"])
        for _ in 0..<4 { try app.tap("next-day") }
        try app.tap("previous-day")
        XCTAssertEqual(snapshots(of: "MasterPresenter#1", in: app.sink.events).map { $0["date"] }, [
            "2026-12-02T10:00:00Z", "2026-12-03T10:00:00Z", "2026-12-04T10:00:00Z", "2026-12-05T10:00:00Z", "2026-12-04T10:00:00Z",
        ])
        try app.tap("next-day")
        XCTAssertEqual(app.rendered?.element(withID: "open-detail")?.text, "Saturday, 5 Dec 2026, 10:00")
        try app.tap("open-detail")
        XCTAssertEqual(app.rendered?.element(withID: "agenda-empty")?.text, "Nothing planned for Saturday. Enjoy the day off.")
        XCTAssertNil(app.rendered?.element(withID: "agenda"))
        try app.tap("toggle-pinned", value: "true")
        XCTAssertEqual(app.rendered?.element(withID: "toggle-pinned")?.isOn, true)
        XCTAssertEqual(app.sink.events.last?.payload["changed"], ["isPinned"])
    }

    func testDetailShowsTheAgendaOfTheChosenDay() throws {
        let app = try launch(SampleApps.masterDetail, ["now": "1796299200"])  // Thursday 3 Dec 2026, 12:00
        try app.tap("open-detail")
        XCTAssertEqual(app.rendered?.element(withID: "detail-date")?.text, "3 Dec 2026")
        XCTAssertEqual(app.rendered?.element(withID: "agenda")?.children?.map(\.text), [
            "09:30  Team stand-up · Room Lisbon", "13:00  Lunch and learn: Swift concurrency · Kitchen",
        ])
        XCTAssertEqual(app.rendered?.actionableIDs, ["toggle-pinned", "open-share", "close-detail"])
    }

    func testAboutIsPushedAndClosedByTheRootCoordinator() throws {
        let store = try NavigationTestStore(app: SampleApps.masterDetail)
        store.skipReceivedEvents()
        try store.send(.action(element: "open-about", value: nil), [
            "9 action Master#1 [Master#1] ←1",
            "10 screen.push RootMasterCoordinator#1 [About#1] ←9",
            "11 screen.ready RootMasterCoordinator#1 [About#1] ←9",
        ])
        try store.send(.action(element: "close-about", value: nil), [
            "12 action About#1 [About#1] ←1",
            "13 screen.pop RootMasterCoordinator#1 [About#1] ←12",
        ])
        XCTAssertEqual(store.visibleScreen, "Master#1")
        store.finish()
    }

    // MARK: - Parameters

    func testParametersAreValidated() {
        let app = SampleApps.masterDetail
        assertParameterError("app 'master-detail' has no parameter 'style'; its parameters: detail_style, inject, now") {
            _ = try app.resolveParameters(["style": "push"])
        }
        assertParameterError("app 'master-detail': parameter 'detail_style' must be one of push, modal, not 'sheet'") {
            _ = try app.resolveParameters(["detail_style": "sheet"])
        }
        XCTAssertEqual(try app.resolveParameters([:]).string("detail_style"), "push")
        XCTAssertEqual(SampleApps.app(named: "master-detail")?.name, "master-detail")
    }
}
