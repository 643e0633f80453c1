@testable import NavlogAnalysis
import NavlogEvents
import XCTest

/// A builder that folds finished sessions on a thread of its own (as `navlog report` does)
/// gives the report, byte for byte, that folding them in place gives: same order, nothing lost.
final class BackgroundFoldingTests: XCTestCase {
    /// `count` sessions of varied paths over two runs, each `version`-labelled, interleaved
    /// in pairs, a few left open.
    private func events(sessions count: Int) -> [Event] {
        var generator = SplitMix64(seed: 7)
        let screens = ["Home#1", "List#1", "Detail#1", "Settings#1", "Detail#2"]
        var scripts: [SessionScript] = []
        for index in 0..<count {
            var script = SessionScript("s-\(index)", run: index % 2 == 0 ? "r-a" : "r-b", app: index % 3 == 0 ? "shop" : "news",
                                       startingAt: UInt64(index) * 10)
            script.launch()
            var shown = "Home#1"
            for _ in 0..<Int(generator.below(12)) {
                script.wait(UInt64(50 + generator.below(4000)))
                let next = screens[generator.below(screens.count)]
                if next != shown {
                    script.action("button", on: shown)
                    script.push(next)
                    script.change("\(next.prefix { $0 != "#" })Presenter#1", on: next, from: ["n": .int(0)], to: ["n": .int(Int64(generator.below(3)))])
                    shown = next
                }
            }
            if index % 50 != 49 { script.end() }
            scripts.append(script)
        }
        // Interleave neighbours, so sessions end out of start order.
        var merged: [Event] = []
        for pair in stride(from: 0, to: scripts.count, by: 2) {
            let first = scripts[pair].events
            let second = pair + 1 < scripts.count ? scripts[pair + 1].events : []
            for index in 0..<max(first.count, second.count) {
                if index < second.count { merged.append(second[index]) }
                if index < first.count { merged.append(first[index]) }
            }
        }
        return merged
    }

    func testFoldingInTheBackgroundGivesTheSameReportByteForByte() {
        let events = events(sessions: 3000)
        let options = ReportOptions(breakdownLabels: ["version", "app"])
        func report(background: Bool) -> String {
            var builder = ReportBuilder(options: options, snapshots: .values, foldsInBackground: background)
            builder.addRun(id: "r-a", labels: ["version": "1.0"])
            builder.addRun(id: "r-b", labels: ["version": "1.1"])
            for event in events { builder.consume(event) }
            return builder.finish().jsonText()
        }
        let inPlace = report(background: false)
        XCTAssertTrue(inPlace.contains("\"version\""), "the breakdown is in the report")
        // More sessions than the folder's queue holds, so handing over waits for the thread.
        XCTAssertGreaterThan(3000, BackgroundFolder.batchSize * BackgroundFolder.depth)
        XCTAssertEqual(report(background: true), inPlace)
    }

    func testABuilderDroppedBeforeItsReportStopsItsThread() {
        for _ in 0..<50 {
            var builder = ReportBuilder(options: ReportOptions(), snapshots: .values, foldsInBackground: true)
            for event in events(sessions: 20) { builder.consume(event) }
        }
    }
}
