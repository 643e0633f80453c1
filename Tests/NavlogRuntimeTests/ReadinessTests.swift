import NavlogEvents
import NavlogRuntime
import XCTest

/// A view whose content loads later: its screen is ready when the test says so.
private final class LoadingView: ScreenView {
    func render() -> Element { .group([]) }
    func handle(_ action: UserAction) throws {}
    var reportsReadiness: Bool { true }
}

/// `screen.ready`: once per screen instance, at its first appearance unless its view reports it.
final class ReadinessTests: XCTestCase {
    private func readyLines(_ sink: MemoryEventSink) -> [String] {
        sink.events.filter { $0.kind == .screenReady }.map { "\($0.screen ?? "-") \($0.payload["outcome"]?.stringValue ?? "-")" }
    }

    func testAScreenWithoutAsynchronousWorkIsReadyWhenItFirstAppears() throws {
        let (context, sink) = makeContext()
        let root = RootCoordinator(context: context)
        try context.launch(root)
        let detail = Screen(name: "Detail", view: ScriptedView(), owner: root, context: context)
        try root.stack.push(detail)
        try root.stack.pop()
        XCTAssertEqual(readyLines(sink), ["Home#1 loaded", "Detail#1 loaded"], "Home's second appearance records nothing")
        let push = try XCTUnwrap(sink.events.first { $0.kind == .screenPush && $0.screen == "Detail#1" })
        let ready = try XCTUnwrap(sink.events.first { $0.kind == .screenReady && $0.screen == "Detail#1" })
        XCTAssertEqual(ready.sessionSeq, push.sessionSeq + 1, "right after the push that showed it")
        XCTAssertEqual(ready.subject, "RootCoordinator#1", "about the screen's owner, like the push")
        XCTAssertTrue(detail.isReady)
    }

    func testALoadingScreenIsReadyWhenItsPresenterSaysSoOnce() throws {
        let (context, sink) = makeContext()
        let root = RootCoordinator(context: context)
        try context.launch(root)
        let feed = Screen(name: "Feed", view: LoadingView(), owner: root, context: context)
        try root.stack.push(feed)
        XCTAssertEqual(readyLines(sink), ["Home#1 loaded"])
        XCTAssertFalse(feed.isReady)
        feed.reportReady(.failed)
        feed.reportReady(.loaded)
        XCTAssertEqual(readyLines(sink), ["Home#1 loaded", "Feed#1 failed"], "only the first report counts")
    }

    func testAReportBeforeTheFirstAppearanceWaitsForItAndOneAfterRemovalIsDropped() throws {
        let (context, sink) = makeContext()
        let root = RootCoordinator(context: context)
        try context.launch(root)
        let early = Screen(name: "Early", view: LoadingView(), owner: root, context: context)
        early.reportReady(.empty)
        XCTAssertEqual(readyLines(sink), ["Home#1 loaded"], "not shown yet")
        try root.stack.push(early)
        XCTAssertEqual(readyLines(sink), ["Home#1 loaded", "Early#1 empty"])
        let late = Screen(name: "Late", view: LoadingView(), owner: root, context: context)
        try root.stack.push(late)
        try root.stack.pop()
        late.reportReady()
        XCTAssertEqual(readyLines(sink), ["Home#1 loaded", "Early#1 empty"], "a screen that left the window is never displayed")
    }

    func testAReportWhileCoveredIsRecordedWhenTheScreenComesBack() throws {
        let (context, sink) = makeContext()
        let root = RootCoordinator(context: context)
        try context.launch(root)
        let feed = Screen(name: "Feed", view: LoadingView(), owner: root, context: context)
        try root.stack.push(feed)
        try root.stack.push(Screen(name: "Detail", view: ScriptedView(), owner: root, context: context))
        feed.reportReady()
        XCTAssertEqual(readyLines(sink), ["Home#1 loaded", "Detail#1 loaded"], "Feed is not displayed under Detail")
        try root.stack.pop()
        XCTAssertEqual(readyLines(sink), ["Home#1 loaded", "Detail#1 loaded", "Feed#1 loaded"])
    }
}
