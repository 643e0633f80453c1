@testable import NavlogAnalysis
import NavlogEvents
import XCTest

/// The gates of `navlog diff` on many seeded pairs of synthetic random walks: quiet on noise,
/// loud on signal. (`scripts/calibrate` measures the same on the real sample apps.)
final class GateCalibrationTests: XCTestCase {
    /// A walk over Home → List → Item → Author with backs, think times and a loading List,
    /// drawn from `seed`. `doublePushShare` of the sessions push Item twice on one tap;
    /// `listLoad` is the List's load time in ms.
    private func walk(_ index: Int, seed: UInt64, run: String, listLoad: UInt64 = 100, doublePushShare: Double = 0) -> SessionScript {
        var random = SplitMix64(seed: seed &* 1_000_003 &+ UInt64(index))
        var script = SessionScript("s-\(index)", run: run)
        script.launchReady()
        var stack = ["Home#1"]
        var ready: Set<String> = ["Home#1"]
        var counters: [String: Int] = ["Home": 1]
        let doublesPush = random.nextUnit() < doublePushShare
        func think() -> UInt64 { 300 + random.next() % 2700 }
        for _ in 0..<30 {
            script.wait(think())
            let top = stack.last!
            let type = String(top.split(separator: "#")[0])
            let next: String? = ["Home": "List", "List": "Item", "Item": "Author", "Author": nil][type] ?? nil
            if let next, stack.count == 1 || random.nextUnit() < 0.6 {
                let tap = script.action("open", on: top)
                counters[next, default: 0] += 1
                let screen = "\(next)#\(counters[next]!)"
                script.push(screen, cause: tap)
                stack.append(screen)
                if next == "Item", doublesPush {
                    // The second push hides the first: only it is displayed, as the runtime records.
                    counters[next, default: 0] += 1
                    let twice = "\(next)#\(counters[next]!)"
                    script.push(twice, cause: tap)
                    script.ready(twice, cause: tap)
                    ready.insert(twice)
                    stack.append(twice)
                } else if next == "List" {
                    script.wait(listLoad + random.next() % 20)
                    script.ready(screen)
                    ready.insert(screen)
                } else {
                    script.ready(screen, cause: tap)
                    ready.insert(screen)
                }
            } else if stack.count > 1 {
                let gone = stack.removeLast()
                let back = script.action("system.back", on: gone)
                script.pop(gone, to: stack.last!, by: "user_back", cause: back)
                if ready.insert(stack.last!).inserted { script.ready(stack.last!, cause: back) }
            }
        }
        script.end()
        return script
    }

    private func side(seed: UInt64, run: String, listLoad: UInt64 = 100, doublePushShare: Double = 0) -> DiffSide {
        var collector = DiffSideCollector(settings: DiffSettings())
        collector.addRun(id: run, labels: ["app": "synthetic", "explore_seed": "\(seed)"])
        for index in 1...40 {
            for event in walk(index, seed: seed, run: run, listLoad: listLoad, doublePushShare: doublePushShare).events { collector.consume(event) }
        }
        return collector.finish()
    }

    /// Pairs of 40 sessions a side, with disjoint seeds; how many fail.
    private func failures(pairs: Int, listLoad: UInt64 = 100, doublePushShare: Double = 0) -> (count: Int, families: [String: Int]) {
        var count = 0
        var families: [String: Int] = [:]
        for pair in 1...pairs {
            let base = side(seed: UInt64(pair) * 2, run: "r-\(pair)-b")
            let candidate = side(seed: UInt64(pair) * 2 + 1, run: "r-\(pair)-c", listLoad: listLoad, doublePushShare: doublePushShare)
            let diff = FlowDiff(base: base, candidate: candidate, settings: DiffSettings())
            guard diff.hasRegression else { continue }
            count += 1
            for metric in diff.metrics where metric.isFailure { families[metric.family.rawValue, default: 0] += 1 }
            for finding in diff.structural where finding.isFailure { families[finding.kind.rawValue, default: 0] += 1 }
        }
        return (count, families)
    }

    func testSameConfigurationPairsRarelyFail() {
        let result = failures(pairs: 40)
        print("gate calibration: \(result.count) of 40 same-configuration pairs failed \(result.families)")
        // alpha is 0.01 for everything that gates, corrected together: under 1 of 40 expected.
        XCTAssertLessThanOrEqual(result.count, 2, "false alarms: \(result.families)")
    }

    func testAThirtyPercentSlowerLoadIsDetected() {
        let result = failures(pairs: 10, listLoad: 130)
        print("gate calibration: \(result.count) of 10 pairs with a 30% slower load failed \(result.families)")
        XCTAssertGreaterThanOrEqual(result.families["load"] ?? 0, 9, "\(result.families)")
    }

    func testADoublePushInMostSessionsIsDetected() {
        let result = failures(pairs: 10, doublePushShare: 0.8)
        print("gate calibration: \(result.count) of 10 pairs with a double push failed \(result.families)")
        XCTAssertGreaterThanOrEqual(result.families["new_smell"] ?? 0, 10, "\(result.families)")
    }
}
