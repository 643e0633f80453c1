@testable import NavlogAnalysis
import XCTest

/// The gates of `navlog diff` between sampled runs: structural findings by the share of
/// sessions showing them, transition shares with sessions as the unit, load times.
final class DiffGateTests: XCTestCase {
    /// A session that launches Home and opens Detail; `doublePush` pushes Detail twice on one tap.
    private func session(_ index: Int, run: String, doublePush: Bool = false, feedLoad: UInt64? = nil) -> SessionScript {
        var script = SessionScript("s-\(index)", run: run)
        script.launchReady()
        script.wait(100 + UInt64(index % 7) * 10)
        let tap = script.action("detail", on: "Home#1")
        script.push("Detail#1", cause: tap)
        script.ready("Detail#1", cause: tap)
        if doublePush {
            script.push("Detail#2", cause: tap)
            script.ready("Detail#2", cause: tap)
        }
        script.wait(50 + UInt64(index % 5) * 10)
        if let feedLoad {
            let open = script.action("feed", on: doublePush ? "Detail#2" : "Detail#1")
            script.push("Feed#1", cause: open)
            script.wait(feedLoad)
            script.ready("Feed#1")
            script.wait(30)
            script.pop("Feed#1", to: doublePush ? "Detail#2" : "Detail#1", by: "user_back")
        }
        script.wait(20)
        script.end()
        return script
    }

    private func side(_ scripts: [SessionScript], labels: [String: String], settings: DiffSettings = DiffSettings()) -> DiffSide {
        var collector = DiffSideCollector(settings: settings)
        for run in Set(scripts.map(\.run)).sorted() { collector.addRun(id: run, labels: labels) }
        for script in scripts { for event in script.events { collector.consume(event) } }
        return collector.finish()
    }

    private let explored = ["app": "demo", "explore_seed": "1"]
    /// Another walk's seed: the sessions are not the same scenario, so no exact comparison.
    private let exploredElsewhere = ["app": "demo", "explore_seed": "1001"]

    // MARK: - Structural

    func testOneSessionWithANewSmellDoesNotFailSampledRuns() throws {
        let base = side((1...40).map { session($0, run: "r-1") }, labels: explored)
        let candidate = side((1...40).map { session($0, run: "r-2", doublePush: $0 == 7) }, labels: exploredElsewhere)
        let diff = FlowDiff(base: base, candidate: candidate, settings: DiffSettings())
        let smell = try XCTUnwrap(diff.structural.first { $0.kind == .newSmell })
        XCTAssertEqual(smell.subject, "double push Detail")
        let share = try XCTUnwrap(smell.share)
        XCTAssertEqual(share.base.showing, 0)
        XCTAssertEqual(share.candidate.showing, 1)
        XCTAssertEqual(share.test, "fisher")
        // Fisher on [[0, 40], [1, 39]]: p = 1.
        XCTAssertEqual(share.pValue, 1, accuracy: 1e-12)
        XCTAssertFalse(smell.isFailure)
        XCTAssertFalse(diff.hasRegression)
    }

    func testASmellInMostSessionsFailsSampledRuns() throws {
        let base = side((1...40).map { session($0, run: "r-1") }, labels: explored)
        let candidate = side((1...40).map { session($0, run: "r-2", doublePush: $0 % 4 != 0) }, labels: exploredElsewhere)
        let diff = FlowDiff(base: base, candidate: candidate, settings: DiffSettings())
        let smell = try XCTUnwrap(diff.structural.first { $0.kind == .newSmell })
        let share = try XCTUnwrap(smell.share)
        XCTAssertEqual(share.candidate.showing, 30)
        // scipy.stats.fisher_exact([[0, 40], [30, 10]]).pvalue = 5.860e-13 (the z-test is not
        // used: an expected cell is 15 ≥ 5, so ProportionTest takes z; both are far below 0.05).
        XCTAssertLessThan(share.adjustedPValue, 1e-6)
        XCTAssertTrue(smell.isFailure)
        XCTAssertTrue(diff.hasRegression)
        XCTAssertTrue(smell.detail.contains("in 30 of 40 sessions, 0 of 40 in the base"), smell.detail)
    }

    func testScriptedRunsFailOnAnySingleOccurrence() throws {
        let scripted = ["scenario": "checkout"]
        let base = side([session(1, run: "r-1")], labels: scripted)
        let candidate = side([session(1, run: "r-2", doublePush: true)], labels: scripted)
        XCTAssertTrue(base.isScripted)
        let diff = FlowDiff(base: base, candidate: candidate, settings: DiffSettings())
        let smell = try XCTUnwrap(diff.structural.first { $0.kind == .newSmell })
        XCTAssertNil(smell.share)
        XCTAssertTrue(smell.isFailure)
    }

    func testWalksWithAnotherBackBiasAreNotComparedEventByEvent() throws {
        // navlog explore labels a biased walk with its bias: the same seed walks elsewhere, so
        // its sessions are not the base's scenarios. --back-bias 0 is the walk of old journals.
        func labels(_ bias: String) -> [String: String] { explored.merging(["explore_back_bias": bias]) { $1 } }
        let base = side((1...3).map { session($0, run: "r-1") }, labels: explored)
        let unbiased = side((1...3).map { session($0, run: "r-2", doublePush: $0 == 2) }, labels: labels("0"))
        let biased = side((1...3).map { session($0, run: "r-3", doublePush: $0 == 2) }, labels: labels("0.33"))
        XCTAssertEqual(Set(base.sequences.map(\.scenario)), ["explore demo seed 1"])
        XCTAssertEqual(Set(unbiased.sequences.map(\.scenario)), ["explore demo seed 1"])
        XCTAssertEqual(Set(biased.sequences.map(\.scenario)), ["explore demo seed 1 back-bias 0.33"])
        XCTAssertEqual(FlowDiff(base: base, candidate: unbiased, settings: DiffSettings()).scenarios.map(\.status), [.same, .changed, .same])
        XCTAssertEqual(Set(FlowDiff(base: base, candidate: biased, settings: DiffSettings()).scenarios.map(\.status)), [.onlyInBase, .onlyInCandidate])
    }

    func testABaselineWithoutSessionCountsGatesAsBefore() throws {
        var base = side((1...10).map { session($0, run: "r-1") }, labels: explored)
        base.sessionsShowing = nil
        base.scriptedSessions = nil
        let candidate = side((1...10).map { session($0, run: "r-2", doublePush: $0 == 3) }, labels: explored)
        let diff = FlowDiff(base: base, candidate: candidate, settings: DiffSettings())
        XCTAssertTrue(try XCTUnwrap(diff.structural.first { $0.kind == .newSmell }).isFailure)
    }

    // MARK: - Transition shares

    /// Per-session counts: (x transitions A → B, n departures from A).
    func testClusteredShareTestMatchesAnOLSWithClusterRobustErrors() throws {
        let base = [(1, 3), (0, 2), (2, 2), (1, 4), (0, 1), (3, 5)]
        let candidate = [(2, 2), (1, 1), (3, 4), (2, 3), (0, 2), (4, 5), (1, 1)]
        func sums(_ data: [(Int, Int)]) -> ClusteredProportionTest.Side {
            ClusteredProportionTest.Side(
                sessions: data.count, successes: data.map(\.0).reduce(0, +), trials: data.map(\.1).reduce(0, +),
                successSquares: data.map { $0.0 * $0.0 }.reduce(0, +), crossProducts: data.map { $0.0 * $0.1 }.reduce(0, +),
                trialSquares: data.map { $0.1 * $0.1 }.reduce(0, +)
            )
        }
        let result = try XCTUnwrap(ClusteredProportionTest.test(sums(base), sums(candidate)))
        // numpy: an OLS of each departure's outcome on the side, with the sandwich variance
        // clustered by session (factor G/(G − 1) per side): z = 1.9721016548835097; and
        // 2·scipy.stats.norm.sf(z) = 0.04859800309719697.
        XCTAssertEqual(result.z, 1.9721016548835097, accuracy: 1e-12)
        XCTAssertEqual(result.pValue, 0.04859800309719697, accuracy: 1e-12)
        XCTAssertEqual(sums(base).variance ?? 0, 0.014913614540055796, accuracy: 1e-15)
    }

    func testTransitionSharesAreTestedWithSessionsAsTheUnit() throws {
        let base = side((1...12).map { session($0, run: "r-1", feedLoad: 100) }, labels: explored)
        let candidate = side((1...12).map { session($0, run: "r-2", feedLoad: 100) }, labels: explored)
        let diff = FlowDiff(base: base, candidate: candidate, settings: DiffSettings())
        let share = try XCTUnwrap(diff.metrics.first { $0.family == .transitionShare && $0.name == "Detail → Feed" })
        XCTAssertEqual(share.test, "clustered z")
        XCTAssertEqual(share.base.count, 12, "the samples are the sessions that left Detail")
        XCTAssertEqual(share.status, .unchanged)
    }

    // MARK: - Load

    func testASlowerLoadFailsTheLoadFamily() throws {
        let base = side((1...20).map { session($0, run: "r-1", feedLoad: 100 + UInt64($0 % 3)) }, labels: explored)
        let candidate = side((1...20).map { session($0, run: "r-2", feedLoad: 130 + UInt64($0 % 3)) }, labels: exploredElsewhere)
        let diff = FlowDiff(base: base, candidate: candidate, settings: DiffSettings())
        let load = try XCTUnwrap(diff.metrics.first { $0.family == .load && $0.name == "Feed" })
        XCTAssertEqual(load.base.value, 101)
        XCTAssertEqual(load.candidate.value, 131)
        XCTAssertEqual(load.status, .regression)
        XCTAssertTrue(load.isFailure, "load gates by default")
        XCTAssertTrue(diff.hasRegression)
        let same = FlowDiff(base: base, candidate: base, settings: DiffSettings())
        XCTAssertFalse(same.hasRegression)
    }

    func testDurationChangesBelowTheNoiseFloorAreWithinNoise() throws {
        let base = side((1...20).map { session($0, run: "r-1", feedLoad: 2) }, labels: explored)
        let candidate = side((1...20).map { session($0, run: "r-2", feedLoad: 3) }, labels: exploredElsewhere)
        let load = try XCTUnwrap(FlowDiff(base: base, candidate: candidate, settings: DiffSettings()).metrics.first { $0.family == .load && $0.name == "Feed" })
        XCTAssertEqual(load.status, .withinNoise, "+50% but no more than 1 ms")
    }
}
