@testable import NavlogAnalysis
import XCTest

extension SessionScript {
    /// Launches `home`, ready at once, as the runtime records a screen without asynchronous work.
    mutating func launchReady(_ home: String = "Home#1") {
        launch(home)
        ready(home)
    }
}

/// The load section and the censoring rule, on hand-built journals with known answers.
final class LoadTests: XCTestCase {
    /// Five sessions that open Feed from Home; Feed loads asynchronously.
    ///
    /// - s-1: Feed ready after 250 ms (loaded), then the session ends on Feed.
    /// - s-2: Feed ready after 400 ms (failed); 500 ms later Detail (ready at once), then the end.
    /// - s-3: back from Feed after 50 ms, before it is ready (abandoned); its late ready is
    ///   ignored, as is its second showing.
    /// - s-4: the session ends 30 ms after Feed appeared, still loading (censored).
    /// - s-5: a journal without `screen.ready` (an older runtime): no load figures at all.
    private func sessions() -> [SessionScript] {
        var one = SessionScript("s-1")
        one.launchReady()
        one.wait(100)
        one.push("Feed#1", cause: one.action("feed", on: "Home#1"))
        one.wait(250)
        one.ready("Feed#1")
        one.wait(1000)
        one.end()

        var two = SessionScript("s-2")
        two.launchReady()
        two.wait(100)
        two.push("Feed#1", cause: two.action("feed", on: "Home#1"))
        two.wait(400)
        two.ready("Feed#1", outcome: "failed")
        two.wait(500)
        let tap = two.action("detail", on: "Feed#1")
        two.push("Detail#1", cause: tap)
        two.ready("Detail#1", cause: tap)
        two.wait(100)
        two.end()

        var three = SessionScript("s-3")
        three.launchReady()
        three.wait(100)
        three.push("Feed#1", cause: three.action("feed", on: "Home#1"))
        three.wait(50)
        three.pop("Feed#1", to: "Home#1", by: "user_back")
        three.wait(5)
        three.ready("Feed#1")
        three.wait(5)
        three.end()

        var four = SessionScript("s-4")
        four.launchReady()
        four.wait(100)
        four.push("Feed#1", cause: four.action("feed", on: "Home#1"))
        four.wait(30)
        four.end()

        var five = SessionScript("s-5")
        five.launch()
        five.wait(100)
        five.push("Feed#1", cause: five.action("feed", on: "Home#1"))
        five.wait(70)
        five.pop("Feed#1", to: "Home#1", by: "user_back")
        five.end()
        return [one, two, three, four, five]
    }

    func testLoadTimesOutcomesAbandonedAndCensoredLoads() throws {
        let report = makeReport(sessions())
        let feed = try XCTUnwrap(report.load.first { $0.screen == "Feed" })
        // Finished loads: 250 (loaded) and 400 (failed); s-3 abandoned, s-4 censored, s-5 unknown.
        XCTAssertEqual(feed.summary.count, 2)
        XCTAssertEqual(feed.summary.medianMilliseconds, 325)
        XCTAssertEqual(feed.summary.p90Milliseconds, 400)
        XCTAssertEqual([feed.loaded, feed.failed, feed.empty, feed.abandoned, feed.censored], [1, 1, 0, 1, 1])
        XCTAssertEqual(feed.abandonedShare, 0.3333)
        XCTAssertEqual(feed.failedShare, 0.5)
        // Home is ready when it appears in the four sessions that record readiness.
        let home = try XCTUnwrap(report.load.first { $0.screen == "Home" })
        XCTAssertEqual(home.summary.count, 4)
        XCTAssertEqual(home.summary.medianMilliseconds, 0)
        XCTAssertEqual(home.abandoned, 0)
        let detail = try XCTUnwrap(report.load.first { $0.screen == "Detail" })
        XCTAssertEqual(detail.summary.count, 1)
        // Busiest first: Home (4), Feed (2 finished + 1 abandoned), Detail (1).
        XCTAssertEqual(report.load.map(\.screen), ["Home", "Feed", "Detail"])
    }

    func testTheLoadSectionInJSONAndText() throws {
        let report = makeReport(sessions())
        let load = try XCTUnwrap(report.jsonValue()["load"]?.arrayValue)
        let feed = try XCTUnwrap(load.first { $0["screen"]?.stringValue == "Feed" })
        XCTAssertEqual(feed["n"]?.intValue, 2)
        XCTAssertEqual(feed["median_ms"]?.doubleValue, 325)
        XCTAssertEqual(feed["p90_ms"]?.doubleValue, 400)
        XCTAssertEqual(feed["abandoned"]?.intValue, 1)
        XCTAssertEqual(feed["censored"]?.intValue, 1)
        XCTAssertEqual(feed["failed"]?.intValue, 1)
        XCTAssertEqual(feed["abandoned_share"]?.doubleValue, 0.3333)
        XCTAssertEqual(feed["failed_share"]?.doubleValue, 0.5)
        XCTAssertEqual(feed["histogram"]?.arrayValue?.compactMap { $0["count"]?.intValue }.reduce(0, +), 2)
        XCTAssertNil(feed["ci95_low_ms"]?.doubleValue, "two samples give no interval")
        let text = report.rendered(as: .text, width: 120)
        XCTAssertTrue(text.contains("Load time (ms)"), text)
        XCTAssertTrue(text.contains("Feed"), text)
        XCTAssertTrue(report.rendered(as: .markdown, width: 120).contains("## Load time (ms)"))
        XCTAssertTrue(report.rendered(as: .html, width: 120).contains("<h2>Load time</h2>"))
    }

    /// Each session's last visit is cut off by its end: left out of dwell, counted as censored.
    func testCensoredLastVisitsAreLeftOutOfDwell() throws {
        let report = makeReport(sessions())
        let feed = try XCTUnwrap(report.dwell.first { $0.screen == "Feed" })
        // Feed dwells: s-2 900 ms (until Detail), s-3 50 ms, s-5 70 ms; s-1 and s-4 end on Feed.
        XCTAssertEqual(feed.summary.count, 3)
        XCTAssertEqual(feed.summary.medianMilliseconds, 70)
        XCTAssertEqual(feed.censored, 2)
        let home = try XCTUnwrap(report.dwell.first { $0.screen == "Home" })
        // Home: 100 ms in each of the five sessions; s-3 and s-5 end on Home again (censored).
        XCTAssertEqual(home.summary.count, 5)
        XCTAssertEqual(home.censored, 2)
        let detail = try XCTUnwrap(report.dwell.first { $0.screen == "Detail" })
        XCTAssertEqual(detail.summary.count, 0)
        XCTAssertEqual(detail.censored, 1)
        XCTAssertEqual(report.jsonValue()["dwell"]?.arrayValue?.first { $0["screen"]?.stringValue == "Feed" }?["censored"]?.intValue, 2)
    }

    /// A ready before the screen is visible, or for another screen than the visible one,
    /// times nothing; only an instance's first visit is timed.
    func testOnlyTheFirstVisitOfAnInstanceIsTimed() throws {
        var script = SessionScript("s-1")
        script.launchReady()
        script.wait(10)
        script.push("Feed#1", cause: script.action("feed", on: "Home#1"))
        script.wait(20)
        script.ready("Feed#1")
        script.push("Detail#1", cause: script.action("detail", on: "Feed#1"))
        script.ready("Detail#1")
        script.wait(5)
        script.pop("Detail#1", to: "Feed#1", by: "user_back")
        script.wait(40)
        script.ready("Feed#1")
        script.end()
        let report = makeReport([script])
        let feed = try XCTUnwrap(report.load.first { $0.screen == "Feed" })
        XCTAssertEqual(feed.summary.count, 1)
        XCTAssertEqual(feed.summary.medianMilliseconds, 20)
        XCTAssertEqual(feed.abandoned, 0)
    }
}
