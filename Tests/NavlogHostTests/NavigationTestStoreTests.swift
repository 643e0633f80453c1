import NavlogEvents
import NavlogHost
import NavlogRuntime
import NavlogTestSupport
import XCTest

@testable import NavlogTesting

/// `NavigationTestStore`: exhaustive assertions, and the check it makes when it goes away.
///
/// Corelibs XCTest on Linux has no `XCTExpectFailure`, so the tests of failures replace the
/// store's reporter (`XCTFail` by default) with one that collects the messages.
final class NavigationTestStoreTests: XCTestCase {
    /// Failure messages a store reported.
    private final class Failures {
        var messages: [String] = []
    }

    /// A store of the demo app, launched and its launch asserted, that reports into `failures`.
    private func makeStore(_ failures: Failures, app: AppDefinition = DemoApp.definition) throws -> NavigationTestStore {
        let store = try NavigationTestStore(app: app, parameters: app.name == "demo" ? ["latency_ms": "100"] : [:])
        store.reportFailure = { message, _, _ in failures.messages.append(message) }
        store.skipReceivedEvents()
        return store
    }

    /// Asserts `failures` holds exactly `expected`, showing a labelled -/+ diff.
    private func assertMessages(_ failures: Failures, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        let actual = failures.messages.flatMap { $0.split(separator: "\n").map(String.init) }
        XCTAssertTrue(actual == expected, "reported failures differ (Expected: −, Actual: +)\n" + lineDiff(expected: expected, actual: actual),
                      file: file, line: line)
    }

    func testStoreAssertsEachCommandsEventsExhaustively() throws {
        let store = try NavigationTestStore(app: DemoApp.definition, parameters: ["latency_ms": "100"])
        store.assertLaunch([
            "1 session.start Session#1",
            "2 coordinator.start HomeCoordinator#1 ←1",
            "3 presenter.init HomePresenter#1 ←2",
            "4 screen.push HomeCoordinator#1 [Home#1] ←2",
            "5 window.root HomeCoordinator#1 [Home#1] ←2",
            "6 screen.ready HomeCoordinator#1 [Home#1] ←2",
        ])
        store.receive(["7 viewmodel.change HomePresenter#1 [Home#1] ←2"])
        try store.send(.action(element: "detail", value: nil), [
            "8 action Home#1 [Home#1] ←1",
            "9 screen.push HomeCoordinator#1 [Detail#1] ←8",
            "10 screen.ready HomeCoordinator#1 [Detail#1] ←8",
        ])
        try store.send(.back, [
            "11 action Detail#1 [Detail#1] ←1",
            "12 screen.pop HomeCoordinator#1 [Detail#1] ←11",
        ])
        XCTAssertThrowsError(try store.send(.dismiss, ["13 error Window#1 [Home#1] ←1"]))
        store.finish([
            "14 coordinator.finish HomeCoordinator#1 ←1",
            "15 coordinator.deinit HomeCoordinator#1 ←1",
            "16 presenter.deinit HomePresenter#1 ←1",
            "17 session.end Session#1",
        ])
    }

    // MARK: - The check when the store goes away

    func testAStoreGoneWithUnassertedEventsFailsListingThem() throws {
        let failures = Failures()
        do {
            let store = try makeStore(failures)
            try store.session.perform(.action(element: "detail", value: nil))
        }
        assertMessages(failures, [
            "events were recorded but never asserted (skipReceivedEvents() or exhaustivity = .off if that is meant):",
            "+ 7 action Home#1 [Home#1] ←1",
            "+ 8 screen.push HomeCoordinator#1 [Detail#1] ←7",
            "+ 9 screen.ready HomeCoordinator#1 [Detail#1] ←7",
        ])
    }

    func testAStoreGoneAfterFinishReportsOnlyWhatFinishFound() throws {
        let failures = Failures()
        do {
            let store = try makeStore(failures)
            XCTAssertThrowsError(try store.session.perform(.back), "Home is the stack's root")
            store.finish()
            XCTAssertEqual(failures.messages.count, 1, "finish reports the unasserted error event")
        }
        XCTAssertEqual(failures.messages.count, 1, "nothing more when the store goes away")
        XCTAssertTrue(failures.messages.first?.hasPrefix("events were recorded but never asserted") == true, "\(failures.messages)")
    }

    func testSkippedEventsAndExhaustivityOffAreNoFailure() throws {
        let failures = Failures()
        do {
            let store = try makeStore(failures)
            try store.session.perform(.action(element: "detail", value: nil))
            store.skipReceivedEvents()
            try store.send(.back, [
                "10 action Detail#1 [Detail#1] ←1",
                "11 screen.pop HomeCoordinator#1 [Detail#1] ←10",
            ])
        }
        do {
            let store = try makeStore(failures)
            store.exhaustivity = .off
            try store.session.perform(.action(element: "sheet", value: nil))
        }
        assertMessages(failures, [])
    }

    func testAStoreGoneWithALeakFailsNamingIt() throws {
        let failures = Failures()
        do {
            let store = try makeStore(failures, app: SelfRetainingCoordinator.app)
            store.exhaustivity = .off
        }
        assertMessages(failures, [
            "the session leaked:",
            "  SelfRetainingCoordinator#1 finished but was never deallocated",
        ])
    }
}

/// A root coordinator that holds itself: it finishes when the session ends and is never
/// deallocated, a leak on purpose.
private final class SelfRetainingCoordinator: Coordinator {
    static let app = AppDefinition(name: "leaky", summary: "A root that keeps itself alive") { context, _ in
        SelfRetainingCoordinator(context: context)
    }

    private var retainedSelf: Coordinator?
    private lazy var stack = NavigationStack(context: context)

    override func didStart() throws {
        retainedSelf = self
        try stack.push(Screen(name: "Home", view: EmptyView(), owner: self, context: context))
        try context.window.setRoot(stack, owner: self)
    }
}

/// A screen that shows nothing and ignores every action.
private final class EmptyView: ScreenView {
    func render() -> Element { .group([]) }
    func handle(_ action: UserAction) throws {}
}
