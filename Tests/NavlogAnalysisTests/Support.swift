@testable import NavlogAnalysis
import NavlogEvents
import XCTest

/// Writes one session's events by hand, with the payloads the runtime writes, on a clock
/// that moves only when told: `wait(ms)`.
struct SessionScript {
    let session: String
    private(set) var run: String
    private(set) var events: [Event] = []
    private var number: UInt64 = 0
    /// Milliseconds since the session started.
    private var now: UInt64 = 0

    /// Starts a session of `app` with `session.start` (sessionSeq 1), `startingAt` ms after a
    /// fixed instant.
    init(_ session: String = "s-1", run: String = "r-1", app: String = "demo", startingAt start: UInt64 = 0) {
        self.session = session
        self.run = run
        self.now = start
        record(.sessionStart, subject: "Session#1", payload: ["app": .string(app), "parameters": [:]])
    }

    /// Moves every event to another run.
    mutating func setRun(_ run: String) {
        self.run = run
        for index in events.indices { events[index].run = run }
    }

    /// The sessionSeq of the last event.
    var last: UInt64 { number }

    mutating func wait(_ milliseconds: UInt64) {
        now += milliseconds
    }

    @discardableResult
    mutating func record(
        _ kind: EventKind, subject: String, screen: String? = nil, cause: UInt64? = nil, parent: String? = nil,
        payload: JSONValue = [:]
    ) -> UInt64 {
        number += 1
        events.append(
            Event(
                wallNanoseconds: 1_796_083_200_000_000_000 + Int64(now) * 1_000_000, monotonicNanoseconds: now * 1_000_000,
                run: run, session: session, sessionSeq: number, kind: kind, subject: subject, screen: screen,
                cause: cause ?? 1, parent: parent, payload: payload
            )
        )
        return number
    }

    // MARK: - Navigation

    @discardableResult
    mutating func push(_ screen: String, on stack: String = "NavigationStack#1", cause: UInt64? = nil) -> UInt64 {
        record(.screenPush, subject: "AppCoordinator#1", screen: screen, cause: cause, payload: ["stack": .string(stack), "depth": 1])
    }

    @discardableResult
    mutating func pop(_ screen: String, to: String, from stack: String = "NavigationStack#1", by: String = "pop", cause: UInt64? = nil) -> UInt64 {
        record(.screenPop, subject: "AppCoordinator#1", screen: screen, cause: cause, payload: ["stack": .string(stack), "by": .string(by), "depth": 1, "to": .string(to)])
    }

    @discardableResult
    mutating func root(_ root: String, showing screen: String, cause: UInt64? = nil) -> UInt64 {
        record(.windowRoot, subject: "AppCoordinator#1", screen: screen, cause: cause, payload: ["window": "Window#1", "root": .string(root), "from": nil])
    }

    @discardableResult
    mutating func present(_ content: String, showing screen: String? = nil, level: Int64 = 1, cause: UInt64? = nil) -> UInt64 {
        record(
            .screenPresent, subject: "AppCoordinator#1", screen: screen ?? content, cause: cause,
            payload: ["style": "sheet", "content": .string(content), "over": nil, "level": .int(level)]
        )
    }

    @discardableResult
    mutating func dismiss(_ content: String, removed: [String], to: String, level: Int64 = 0, by: String = "dismiss", cause: UInt64? = nil) -> UInt64 {
        record(
            .screenDismiss, subject: "AppCoordinator#1", screen: removed.first, cause: cause,
            payload: ["style": "sheet", "content": .string(content), "by": .string(by), "removed": .array(removed.map { .string($0) }), "to": .string(to), "level": .int(level)]
        )
    }

    @discardableResult
    mutating func selectTab(_ tab: String, showing screen: String, in tabs: String = "TabContainer#1", cause: UInt64? = nil) -> UInt64 {
        record(.tabSelect, subject: "TabCoordinator#1", screen: screen, cause: cause, payload: ["tabs": .string(tabs), "tab": .string(tab), "index": 0, "from": nil])
    }

    @discardableResult
    mutating func action(_ element: String, on screen: String) -> UInt64 {
        record(.action, subject: screen, screen: screen, payload: ["element": .string(element), "role": "button"])
    }

    /// Records the first full display of `screen` (`screen.ready`) with `outcome`.
    @discardableResult
    mutating func ready(_ screen: String, outcome: String = "loaded", cause: UInt64? = nil) -> UInt64 {
        record(.screenReady, subject: "AppCoordinator#1", screen: screen, cause: cause, payload: ["outcome": .string(outcome)])
    }

    /// Records a view-model change of `subject` on `screen` from `previous` to `snapshot`.
    @discardableResult
    mutating func change(_ subject: String, on screen: String, from previous: [String: JSONValue], to snapshot: [String: JSONValue], viewModel: String = "HomeViewModel") -> UInt64 {
        let changed = Set(previous.keys).union(snapshot.keys).sorted().filter { previous[$0] != snapshot[$0] }
        return record(
            .viewModelChange, subject: subject, screen: screen,
            payload: [
                "viewmodel": .string(viewModel), "snapshot": .object(snapshot),
                "changed": .array(changed.map { .string($0) }),
                "previous": .object(Dictionary(uniqueKeysWithValues: changed.map { ($0, previous[$0] ?? .null) })),
            ]
        )
    }

    /// Shows `home` as the root stack's first screen, the way apps launch.
    mutating func launch(_ home: String = "Home#1") {
        let start = record(.coordinatorStart, subject: "AppCoordinator#1")
        push(home, cause: start)
        root("NavigationStack#1", showing: home, cause: start)
    }

    mutating func end() {
        record(.sessionEnd, subject: "Session#1", cause: nil, payload: ["reason": "ended"])
    }
}

/// Builds a report from the events of `scripts`, in order.
func makeReport(_ scripts: [SessionScript], options: ReportOptions = ReportOptions(), runs: [String: [String: String]] = [:]) -> FlowReport {
    var builder = ReportBuilder(options: options)
    for (run, labels) in runs.sorted(by: { $0.key < $1.key }) { builder.addRun(id: run, labels: labels) }
    for script in scripts {
        for event in script.events { builder.consume(event) }
    }
    return builder.finish()
}

/// The transitions as `From>To:count` strings, in report order.
func transitionList(_ report: FlowReport) -> [String] {
    report.transitions.map { "\($0.from)>\($0.to):\($0.count)" }
}
