@testable import NavlogAnalysis
import XCTest

final class PathTests: XCTestCase {
    /// Makes a session that launches on Home and then shows `screens` in turn, each by a tap
    /// and a push of a new instance, 10 ms apart.
    static func session(_ id: String, _ screens: [String]) -> SessionScript {
        var script = SessionScript(id)
        script.launch()
        var counters: [String: Int] = ["Home": 1]
        var visible = "Home#1"
        for screen in screens {
            script.wait(10)
            counters[screen, default: 0] += 1
            let instance = "\(screen)#\(counters[screen]!)"
            let tap = script.action("go", on: visible)
            script.push(instance, cause: tap)
            visible = instance
        }
        script.wait(10)
        script.end()
        return script
    }

    /// s-1: Home List Detail List Detail; s-2: Home List Detail; s-3: Home Search.
    private func threeSessions() -> [SessionScript] {
        [
            PathTests.session("s-1", ["List", "Detail", "List", "Detail"]),
            PathTests.session("s-2", ["List", "Detail"]),
            PathTests.session("s-3", ["Search"]),
        ]
    }

    func testSessionPathsAndSubpaths() {
        let options = ReportOptions(subpathLengths: 2...2)
        let report = makeReport(threeSessions(), options: options)
        // Each whole path occurs once; ties sort by the path's text.
        XCTAssertEqual(report.paths.sessionPaths.map { $0.screens.joined(separator: ">") }, [
            "Home>List>Detail", "Home>List>Detail>List>Detail", "Home>Search",
        ])
        XCTAssertEqual(report.paths.sessionPaths.map(\.sessions), [1, 1, 1])
        // List>Detail is in two sessions, three times (twice in s-1); Home>List in two, twice.
        XCTAssertEqual(report.paths.subpaths.map { "\($0.screens.joined(separator: ">")):\($0.sessions)/\($0.total)" }, [
            "List>Detail:2/3", "Home>List:2/2", "Detail>List:1/1", "Home>Search:1/1",
        ])
    }

    func testLongestSubpathsComeFirstAndPathsAreCut() {
        let options = ReportOptions(subpathLengths: 3...4, maxPathLength: 3)
        let report = makeReport(threeSessions(), options: options)
        // s-1 is cut after three screens and marked; s-2 is exactly three long and is not.
        XCTAssertEqual(report.paths.sessionPaths.map(\.screens), [["Home", "List", "Detail"], ["Home", "List", "Detail", "…"], ["Home", "Search"]])
        XCTAssertEqual(report.paths.subpaths.map(\.screens.count), [4, 4, 3, 3, 3])
    }

    func testAnchoredPaths() throws {
        let options = ReportOptions(pathsFrom: ["List"], pathsTo: ["Detail"], anchoredPathLength: 3)
        let report = makeReport(threeSessions(), options: options)
        // From List: s-1 at its 2nd screen (List Detail List) and 4th (List Detail, then the
        // end); s-2 once (List Detail, then the end).
        let from = try XCTUnwrap(report.paths.from.first)
        XCTAssertEqual(from.screen, "List")
        XCTAssertEqual(from.paths.map { "\($0.screens.joined(separator: ">")):\($0.sessions)/\($0.total)" }, [
            "List>Detail>(end):2/2", "List>Detail>List:1/1",
        ])
        // To Detail: s-1 (Home List Detail, Detail List Detail), s-2 (Home List Detail).
        let to = try XCTUnwrap(report.paths.to.first)
        XCTAssertEqual(to.paths.map { "\($0.screens.joined(separator: ">")):\($0.sessions)/\($0.total)" }, [
            "Home>List>Detail:2/2", "Detail>List>Detail:1/1",
        ])
        // A path shorter than the length that starts the session is marked.
        XCTAssertEqual(PathAnalysis.paths(to: "List", in: ["Home", "List"], length: 3), [["(start)", "Home", "List"]])
    }

    func testStepFlowsForTheSankey() {
        let report = makeReport(threeSessions())
        XCTAssertEqual(report.paths.steps.map { "\($0.step):\($0.from)>\($0.to):\($0.count)" }, [
            "1:Home>List:2", "1:Home>Search:1", "2:List>Detail:2", "3:Detail>List:1", "4:List>Detail:1",
        ])
    }

    func testLoopsAndRepeats() {
        let report = makeReport(threeSessions())
        // s-1 has List Detail List and Detail List Detail, once each.
        XCTAssertEqual(report.loops.cycles.map { "\($0.screens.joined(separator: ">")):\($0.sessions)/\($0.total)" }, [
            "Detail>List>Detail:1/1", "List>Detail>List:1/1",
        ])
        // s-1 sees List and Detail twice each: one extra visit each.
        XCTAssertEqual(report.loops.repeats.map { "\($0.screen):\($0.sessions)/\($0.extraVisits)" }, ["Detail:1/1", "List:1/1"])
    }
}
