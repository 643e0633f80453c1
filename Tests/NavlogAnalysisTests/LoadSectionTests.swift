@testable import NavlogAnalysis
import XCTest

/// The report's load section: time from a screen instance's first visit to its screen.ready.
final class LoadSectionTests: XCTestCase {
    /// Home is ready at once. Feed#1 is left before it is ready (abandoned); Feed#2 fails after
    /// 60 ms; Feed#3 is still loading when the session ends at 500 ms (censored). Coming back
    /// to Home is no first visit: nothing to time.
    private func loadingSession() -> SessionScript {
        var script = SessionScript("s-1")
        script.launch()
        script.ready("Home#1", cause: 2)
        script.wait(100)
        script.push("Feed#1", cause: script.action("feed", on: "Home#1"))
        script.wait(50)
        script.pop("Feed#1", to: "Home#1", cause: script.action("system.back", on: "Feed#1"))
        script.wait(50)
        let tap = script.action("feed", on: "Home#1")
        script.push("Feed#2", cause: tap)
        script.wait(60)
        script.ready("Feed#2", outcome: "failed", cause: tap)
        script.wait(40)
        script.pop("Feed#2", to: "Home#1", cause: script.action("system.back", on: "Feed#2"))
        script.wait(100)
        script.push("Feed#3", cause: script.action("feed", on: "Home#1"))
        script.wait(100)
        script.end()
        return script
    }

    /// The same moves from a runtime that records no screen.ready: no load can be told.
    private func sessionWithoutReadiness() -> SessionScript {
        var script = SessionScript("s-2")
        script.launch()
        script.wait(100)
        let tap = script.action("feed", on: "Home#1")
        script.push("Feed#1", cause: tap)
        script.wait(50)
        script.end()
        return script
    }

    func testFirstVisitsAreTimedAbandonedOrCensored() throws {
        let report = makeReport([loadingSession(), sessionWithoutReadiness()])
        XCTAssertEqual(report.load.map(\.screen), ["Feed", "Home"])
        let feed = try XCTUnwrap(report.load.first)
        XCTAssertEqual([feed.summary.count, feed.loaded, feed.empty, feed.failed, feed.abandoned, feed.censored], [1, 0, 0, 1, 1, 1])
        XCTAssertEqual(feed.summary.medianMilliseconds, 60)
        XCTAssertEqual(feed.abandonedShare, 0.5)
        XCTAssertEqual(feed.failedShare, 1)
        // Home's first visit only, and only in the session that records readiness.
        let home = try XCTUnwrap(report.load.last)
        XCTAssertEqual([home.summary.count, home.loaded, home.abandoned, home.censored], [1, 1, 0, 0])
        XCTAssertEqual(home.summary.medianMilliseconds, 0)
    }
}
