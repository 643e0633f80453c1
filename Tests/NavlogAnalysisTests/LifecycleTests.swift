@testable import NavlogAnalysis
import NavlogEvents
import XCTest

final class LifecycleTests: XCTestCase {
    /// The app coordinator shows Home, coordinates to a DetailCoordinator that shows Detail
    /// (with DetailPresenter#1 bound); the user goes back, the detail coordinator finishes but
    /// is never deallocated, its presenter changes its view model after the screen left and is
    /// never deallocated either. A ListCoordinator starts and never finishes.
    private func leakySession() -> SessionScript {
        var script = SessionScript()
        let start = script.record(.coordinatorStart, subject: "AppCoordinator#1")  // 2
        script.push("Home#1", cause: start)  // 3
        script.root("NavigationStack#1", showing: "Home#1", cause: start)  // 4
        let tap = script.action("detail", on: "Home#1")  // 5
        let coordinate = script.record(.coordinatorCoordinate, subject: "AppCoordinator#1", cause: tap, payload: ["child": "DetailCoordinator#1"])  // 6
        let child = script.record(.coordinatorStart, subject: "DetailCoordinator#1", cause: coordinate, parent: "AppCoordinator#1")  // 7
        script.record(.presenterInit, subject: "DetailPresenter#1", cause: child)  // 8
        script.record(
            .screenPush, subject: "DetailCoordinator#1", screen: "Detail#1", cause: child,
            payload: ["stack": "NavigationStack#1", "depth": 2, "bound": ["DetailPresenter#1"]]
        )  // 9
        let pop = script.record(
            .screenPop, subject: "DetailCoordinator#1", screen: "Detail#1",
            payload: ["stack": "NavigationStack#1", "by": "user_back", "depth": 1, "to": "Home#1"]
        )  // 10
        script.record(.coordinatorFinish, subject: "DetailCoordinator#1", cause: pop, parent: "AppCoordinator#1")  // 11
        script.change("DetailPresenter#1", on: "Detail#1", from: ["title": "a"], to: ["title": "b"], viewModel: "DetailViewModel")  // 12
        let list = script.record(.coordinatorCoordinate, subject: "AppCoordinator#1", payload: ["child": "ListCoordinator#1"])  // 13
        script.record(.coordinatorStart, subject: "ListCoordinator#1", cause: list, parent: "AppCoordinator#1")  // 14
        script.record(.coordinatorFinish, subject: "AppCoordinator#1", cause: nil)  // 15
        script.record(.coordinatorDeinit, subject: "AppCoordinator#1", cause: nil)  // 16
        script.end()
        return script
    }

    func testTreeAndBalance() throws {
        let report = makeReport([leakySession()])
        let lifecycles = report.lifecycles
        XCTAssertEqual(lifecycles.types.map { "\($0.coordinator) \($0.started)/\($0.finished)/\($0.deallocated)/\($0.unbalanced)" }, [
            "AppCoordinator 1/1/1/0", "DetailCoordinator 1/1/0/0", "ListCoordinator 1/0/0/1",
        ])
        XCTAssertEqual(lifecycles.unbalanced, 1)
        XCTAssertEqual(lifecycles.edges.map { "\($0.parent)>\($0.child):\($0.count)" }, [
            "AppCoordinator>DetailCoordinator:1", "AppCoordinator>ListCoordinator:1",
        ])
        let tree = try XCTUnwrap(lifecycles.trees.first)
        XCTAssertEqual(tree.roots.map(\.coordinator), ["AppCoordinator#1"])
        XCTAssertEqual(tree.node("AppCoordinator#1")?.children, ["DetailCoordinator#1", "ListCoordinator#1"])
        XCTAssertEqual(tree.node("ListCoordinator#1")?.parent, "AppCoordinator#1")
    }

    func testLeaksComeFromTheLeakDetector() {
        let script = leakySession()
        let report = makeReport([script])
        // The same findings LeakDetector gives on the raw stream, in its order.
        XCTAssertEqual(report.leaks.examples, LeakDetector.leaks(in: script.events))
        // Screen left at 10 with the presenter alive; finished at 11, never deallocated; a
        // view-model change at 12 after Detail#1 left.
        XCTAssertEqual(report.leaks.examples.map { "\($0.kind.rawValue) \($0.subject) \($0.sessionSeq)" }, [
            "presenter_outlived_screen DetailPresenter#1 10",
            "finished_not_deallocated DetailCoordinator#1 11",
            "viewmodel_change_after_dismiss DetailPresenter#1 12",
        ])
        XCTAssertEqual(report.leaks.count, 3)
        XCTAssertEqual(report.leaks.groups.map { "\($0.kind) \($0.subjectType) \($0.count)" }, [
            "finished_not_deallocated DetailCoordinator 1",
            "presenter_outlived_screen DetailPresenter 1",
            "viewmodel_change_after_dismiss DetailPresenter 1",
        ])
        XCTAssertEqual(report.smells.changesAfterDismiss.map { "\($0.screen) \($0.count)" }, ["Detail 1"])
    }

    func testLeakExamplesOfSeveralRunsNameTheirRun() {
        var first = leakySession()
        var second = leakySession()
        first.setRun("r-a")
        second.setRun("r-b")
        let report = makeReport([first, second])
        XCTAssertEqual(report.leaks.examples.map(\.session), Array(repeating: "r-a/s-1", count: 3) + Array(repeating: "r-b/s-1", count: 3))
        XCTAssertTrue(report.rendered(as: .text, width: 120).contains("r-b/s-1: "))
        XCTAssertEqual(makeReport([second]).leaks.examples.map(\.session), Array(repeating: "s-1", count: 3))
    }

    func testTreeExamplesAreBounded() {
        let sessions = (1...3).map { index -> SessionScript in
            var script = SessionScript("s-\(index)")
            script.launch()
            script.end()
            return script
        }
        let report = makeReport(sessions, options: ReportOptions(lifecycleTreeLimit: 2))
        XCTAssertEqual(report.lifecycles.trees.map(\.session), ["s-1", "s-2"])
        // Three AppCoordinators started, none finished in these streams.
        XCTAssertEqual(report.lifecycles.types.first?.started, 3)
        XCTAssertEqual(report.lifecycles.unbalanced, 3)
    }
}
