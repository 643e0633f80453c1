import NavlogEvents
import NavlogHost
import NavlogRuntime
import NavlogTesting
import XCTest

@testable import NavlogSampleApps

/// When each sample app's screens are fully displayed (`screen.ready`), and how long after they
/// appeared: the loads `navlog report` times.
final class ScreenReadinessTests: XCTestCase {
    /// A hosted session in virtual time, as `navlog explore` and `navlog run` drive apps.
    private func start(_ app: AppDefinition, _ parameters: [String: String] = [:]) throws -> (SessionCore, MemoryEventSink) {
        let sink = MemoryEventSink()
        let session = try SessionCore(id: "s-1", app: app, parameters: try app.resolveParameters(parameters), sink: sink, timeMode: .virtual)
        return (session, sink)
    }

    /// The `screen.ready` events as trace lines with their outcome.
    private func readyLines(_ sink: MemoryEventSink) -> [String] {
        sink.events.filter { $0.kind == .screenReady }.map { "\(traceLine($0)) \($0.payload["outcome"]?.stringValue ?? "?")" }
    }

    /// Milliseconds from the event that showed `screen` to its `screen.ready`.
    private func loadMilliseconds(of screen: String, in sink: MemoryEventSink) throws -> Double {
        let shown = try XCTUnwrap(sink.events.first { $0.screen == screen && ($0.kind == .screenPush || $0.kind == .windowRoot) })
        let ready = try XCTUnwrap(sink.events.first { $0.screen == screen && $0.kind == .screenReady })
        return Double(ready.monotonicNanoseconds - shown.monotonicNanoseconds) / 1_000_000
    }

    func testArticlesIsReadyWhenTheFeedLoadsAndItsDetailsAtOnce() throws {
        let (session, sink) = try start(SampleApps.articles, ["latency_ms": "300"])
        XCTAssertEqual(readyLines(sink), [], "the feed is still loading")
        try session.perform(.wait(nanoseconds: 2_000_000_000))
        XCTAssertEqual(readyLines(sink), ["11 screen.ready SceneRouter#1 [Articles#1] ←2 loaded"])
        // Stamped when the load finished, not at the end of the two-second wait.
        XCTAssertEqual(try loadMilliseconds(of: "Articles#1", in: sink), 300, accuracy: 50)
        try session.perform(.action(element: "article-swift-concurrency", value: nil))
        try session.perform(.back)
        try session.perform(.action(element: "article-swift-concurrency", value: nil))
        XCTAssertEqual(readyLines(sink).dropFirst(), [
            "15 screen.ready SceneRouter#1 [ArticleDetail#1] ←12 loaded",
            "22 screen.ready SceneRouter#1 [ArticleDetail#2] ←19 loaded",
        ], "every new detail is ready when it appears; Articles' second appearance records nothing")
    }

    func testAFailedAndAnEmptyFeedAreReadyWithTheirOutcome() throws {
        let (failing, failingSink) = try start(SampleApps.articles, ["failure_rate": "1", "latency_ms": "100"])
        failing.waitUntilIdle()
        XCTAssertEqual(readyLines(failingSink).map { $0.split(separator: " ").last! }, ["failed"])
        try failing.perform(.action(element: "retry", value: nil))
        failing.waitUntilIdle()
        XCTAssertEqual(readyLines(failingSink).count, 1, "a retry is not a first display")
        let (empty, emptySink) = try start(SampleApps.articles, ["dataset": "empty"])
        empty.waitUntilIdle()
        XCTAssertEqual(readyLines(emptySink).map { $0.split(separator: " ").last! }, ["empty"])
    }

    func testLeavingArticlesWhileItLoadsRecordsNoReady() throws {
        let (session, sink) = try start(SampleApps.articles, ["latency_ms": "3000"])
        try session.perform(.wait(nanoseconds: 1_000_000_000))
        try session.perform(.action(element: "open-bookmarks", value: nil))
        try session.perform(.wait(nanoseconds: 5_000_000_000))
        XCTAssertEqual(readyLines(sink).map { $0.split(separator: " ")[3] }, ["[Bookmarks#1]"], "the feed finished while hidden: not displayed yet")
        try session.perform(.back)
        XCTAssertEqual(readyLines(sink).map { $0.split(separator: " ")[3] }, ["[Bookmarks#1]", "[Articles#1]"], "displayed when the user comes back")
    }

    func testContentListIsReadyAtOnceOrWhenItsDownloadFinishes() throws {
        let (bundled, bundledSink) = try start(SampleApps.contentList)
        XCTAssertEqual(readyLines(bundledSink), ["6 screen.ready ContentListRouter#1 [ContentList#1] ←2 loaded"])
        XCTAssertEqual(bundled.context.window.visibleScreen?.render().element(withID: "empty"), nil)
        let (downloading, downloadingSink) = try start(SampleApps.contentList, ["latency_ms": "200"])
        XCTAssertEqual(readyLines(downloadingSink), [])
        XCTAssertTrue(downloading.context.window.visibleScreen?.render().allElements.contains { $0.text == "Loading guides…" } ?? false)
        try downloading.perform(.wait(nanoseconds: 1_000_000_000))
        XCTAssertEqual(readyLines(downloadingSink).map { $0.split(separator: " ").last! }, ["loaded"])
        XCTAssertEqual(try loadMilliseconds(of: "ContentList#1", in: downloadingSink), 200, accuracy: 50)
        let (empty, emptySink) = try start(SampleApps.contentList, ["latency_ms": "200", "dataset": "empty"])
        empty.waitUntilIdle()
        XCTAssertEqual(readyLines(emptySink).map { $0.split(separator: " ").last! }, ["empty"])
    }

    func testMasterDetailAndTabsScreensAreReadyWhenTheyFirstAppear() throws {
        for app in [SampleApps.masterDetail, SampleApps.tabs] {
            let (session, sink) = try start(app)
            let shown = Set(sink.events.filter { $0.kind.isNavigation }.compactMap(\.screen))
            let ready = sink.events.filter { $0.kind == .screenReady }.compactMap(\.screen)
            XCTAssertEqual(Set(ready).count, ready.count, "\(app.name): one ready per screen")
            XCTAssertTrue(Set(ready).isSubset(of: shown), "\(app.name): only screens that were shown")
            XCTAssertEqual(ready, [session.context.window.visibleScreen?.id].compactMap { $0 }, "\(app.name): the first screen shown")
        }
    }
}
