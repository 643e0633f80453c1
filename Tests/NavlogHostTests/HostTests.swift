import NavlogEvents
import NavlogHost
import NavlogRuntime
import NavlogTestSupport
import NavlogTesting
import XCTest

final class AppCatalogTests: XCTestCase {
    func testUnknownAppAndParametersAreNamed() throws {
        let catalog = try AppCatalog([DemoApp.definition])
        XCTAssertThrowsError(try catalog.app(named: "demos")) { error in
            XCTAssertEqual("\(error)", "unknown app 'demos'; apps: demo")
        }
        XCTAssertThrowsError(try DemoApp.definition.resolveParameters(["latency": "5"])) { error in
            XCTAssertEqual("\(error)", "app 'demo' has no parameter 'latency'; its parameters: broken, latency_ms")
        }
        XCTAssertThrowsError(try DemoApp.definition.resolveParameters(["latency_ms": "-5"])) { error in
            XCTAssertEqual("\(error)", "app 'demo': parameter 'latency_ms' must be an integer from 0 to 10000, not '-5'")
        }
        XCTAssertThrowsError(try DemoApp.definition.resolveParameters(["broken": "maybe"])) { error in
            XCTAssertEqual("\(error)", "app 'demo': parameter 'broken' must be true or false, not 'maybe'")
        }
        XCTAssertEqual(try DemoApp.definition.resolveParameters([:]).values, ["latency_ms": 200, "broken": false])
        XCTAssertThrowsError(try AppCatalog([DemoApp.definition, DemoApp.definition]))
    }

    func testAParameterOmittedAtItsDefaultIsRecordedOnlyWhenSetOtherwise() throws {
        let app = AppDefinition(
            name: "calibrated", summary: "Demo with a mode added later",
            parameters: DemoApp.definition.parameters + [
                .choice("mode", ["plain", "odd"], default: "plain", summary: "How it behaves", isOmittedAtDefault: true),
            ],
            makeRoot: DemoApp.definition.makeRoot
        )
        for (given, recorded) in [([:], nil), (["mode": "plain"], nil), (["mode": "odd"], "odd")] as [([String: String], JSONValue?)] {
            let parameters = try app.resolveParameters(given)
            XCTAssertEqual(parameters.string("mode"), given["mode"] ?? "plain")
            let sink = MemoryEventSink()
            let session = try SessionCore(id: "s-1", app: app, parameters: parameters, sink: sink)
            session.end()
            let start = try XCTUnwrap(sink.events.first)
            XCTAssertEqual(start.payload["parameters"]?["mode"], recorded, "\(given)")
            XCTAssertEqual(start.payload["parameters"]?["latency_ms"], 200, "\(given)")
        }
    }
}

final class SessionTests: XCTestCase {
    func testManySessionsRunInParallelEachInOrder() async throws {
        let sink = MemoryEventSink()
        let registry = SessionRegistry(catalog: try AppCatalog([DemoApp.definition]), sink: sink, maximumSessions: 64, timeMode: .virtual)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<32 {
                let session = try await registry.create(appName: "demo")
                group.addTask {
                    for _ in 0..<5 {
                        try await session.perform(.action(element: "detail", value: nil))
                        try await session.perform(.back)
                    }
                    session.end()
                }
            }
            try await group.waitForAll()
        }
        let bySession = Dictionary(grouping: sink.events, by: \.session)
        XCTAssertEqual(bySession.count, 32)
        for (session, events) in bySession {
            XCTAssertEqual(events.map(\.sessionSeq), Array(1...UInt64(events.count)), "\(session) events out of order")
            XCTAssertEqual(events.filter { $0.kind == .screenPush }.count, 6)
            XCTAssertEqual(events.last?.kind, .sessionEnd)
        }
    }

    func testRegistryLimitsAndLookups() async throws {
        let registry = SessionRegistry(catalog: try AppCatalog([DemoApp.definition]), sink: NullEventSink(), maximumSessions: 2, timeMode: .virtual)
        let first = try await registry.create(appName: "demo")
        _ = try await registry.create(appName: "demo", parameters: ["latency_ms": "0"])
        do {
            _ = try await registry.create(appName: "demo")
            XCTFail("the third session must be refused")
        } catch {
            XCTAssertEqual("\(error)", "the session limit (2) is reached; end a session first")
        }
        let found = try registry.session("s-1")
        XCTAssertTrue(found === first)
        try await registry.end("s-1")
        do {
            _ = try registry.session("s-1")
            XCTFail("an ended session is gone")
        } catch {
            XCTAssertEqual("\(error)", "no session 's-1'")
        }
        let state = try await registry.create(appName: "demo").state()
        XCTAssertEqual(state.session, "s-3")
        XCTAssertEqual(state.visible?.id, "Home#1")
    }

    func testRealTimeSessionRunsDueWorkWithoutARequest() async throws {
        let sink = MemoryEventSink()
        let session = try Session(id: "s-1", app: DemoApp.definition, parameters: try DemoApp.definition.resolveParameters(["latency_ms": "1"]), sink: sink, timeMode: .realTime)
        // The first command arms the wake-up; after it, the load completes on its own.
        try await session.perform(.wait(nanoseconds: 5_000_000))
        let state = session.state()
        XCTAssertEqual(state.visible?.elements.element(withID: "items")?.children?.count, 2)
        session.end()
    }

    func testCommandsFromManyThreadsRunOneAtATimeInOrderPerSession() throws {
        let sink = MemoryEventSink()
        let sessions = try (1...4).map { number in
            try Session(id: "s-\(number)", app: DemoApp.definition, parameters: try DemoApp.definition.resolveParameters([:]), sink: sink, timeMode: .virtual)
        }
        // Eight threads, two per session, each sending its commands straight from its thread.
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let session = sessions[index % sessions.count]
            for _ in 0..<20 {
                _ = try? session.performNow(.action(element: "detail", value: nil))
                _ = try? session.performNow(.back)
            }
        }
        for session in sessions { session.end() }
        for (session, events) in Dictionary(grouping: sink.events, by: \.session) {
            XCTAssertEqual(events.map(\.sessionSeq), Array(1...UInt64(events.count)), "\(session) events out of order")
            XCTAssertGreaterThan(events.filter { $0.kind == .screenPush }.count, 1, session)
            XCTAssertEqual(events.last?.kind, .sessionEnd)
        }
        XCTAssertEqual(Set(sink.events.map(\.session)).count, 4)
    }

    func testEndedSessionsAreFreed() async throws {
        let registry = SessionRegistry(catalog: try AppCatalog([DemoApp.definition]), sink: NullEventSink(), maximumSessions: 4, timeMode: .realTime)
        weak var ended: Session?
        do {
            let session = try await registry.create(appName: "demo", parameters: ["latency_ms": "50"])
            try session.performNow(.action(element: "detail", value: nil))
            ended = session
            try await registry.end(session.id)
        }
        XCTAssertNil(ended, "an ended session is still referenced")
        // What the session held goes with it: its sink is referenced only by its runtime.
        weak var sink: MemoryEventSink?
        do {
            let memory = MemoryEventSink()
            sink = memory
            let session = try Session(id: "s-9", app: DemoApp.definition, parameters: try DemoApp.definition.resolveParameters([:]),
                                      sink: memory, timeMode: .realTime)
            try session.performNow(.action(element: "detail", value: nil))
            session.end()
        }
        XCTAssertNil(sink, "an ended session's runtime is still referenced")
    }

    func testRealTimeWaitHoldsNoLockWhileItSleeps() async throws {
        let session = try Session(id: "s-1", app: DemoApp.definition, parameters: try DemoApp.definition.resolveParameters(["latency_ms": "0"]),
                                  sink: NullEventSink(), timeMode: .realTime)
        XCTAssertTrue(session.waits(.wait(nanoseconds: 1_000_000)))
        XCTAssertFalse(session.waits(.wait(nanoseconds: 0)))
        XCTAssertFalse(session.waits(.back))
        let waiting = Task { try await session.perform(.wait(nanoseconds: 30_000_000_000)) }
        // While the long wait sleeps, the same session answers at once; then the wait is cancelled.
        let state = try session.performNow(.action(element: "detail", value: nil))
        XCTAssertEqual(state.visible?.id, "Detail#1")
        waiting.cancel()
        do {
            _ = try await waiting.value
            XCTFail("a cancelled wait throws")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        session.end()
    }
}

final class ExplorerTests: XCTestCase {
    private func walk(seed: UInt64, steps: Int = 60, parameters: [String: String] = [:]) throws -> (Explorer.Report, [String]) {
        let sink = MemoryEventSink()
        let report = try Explorer(configuration: .init(seed: seed, steps: steps))
            .explore(app: DemoApp.definition, parameters: try DemoApp.definition.resolveParameters(parameters), sessionID: "s-1", sink: sink)
        return (report, sink.events.map { "\(traceLine($0)) \($0.payload.serialized())" })
    }

    func testTheSameSeedGivesTheSameEventSequence() throws {
        let (first, events) = try walk(seed: 42)
        let (_, again) = try walk(seed: 42)
        XCTAssertEqual(events, again)
        XCTAssertEqual(first.stepsTaken, 60)
        let (_, other) = try walk(seed: 43)
        XCTAssertNotEqual(events, other)
        XCTAssertTrue(first.thrownActions.isEmpty, "\(first.thrownActions)")
        XCTAssertTrue(first.leaks.isEmpty, "\(first.leaks)")
        XCTAssertGreaterThan(first.screensVisited["Detail", default: 0], 0)
    }

    func testBackBiasZeroPicksUniformlyAsWalksBeforeTheBiasDid() {
        // `navlog explore --back-bias 0` must walk as explorers did before the bias: the same
        // draws, one per step, so the same seed gives the same journal.
        let moves: [Explorer.Move] = [.command(.action(element: "open", value: nil)), .command(.back), .waitForWork]
        let explorer = Explorer(configuration: .init(seed: 1, steps: 1, backBias: 0))
        var generator = SeededGenerator(seed: 9)
        var uniform = SeededGenerator(seed: 9)
        for _ in 0..<200 {
            XCTAssertEqual(explorer.pick(from: moves, generator: &generator), moves[uniform.below(moves.count)])
        }
    }

    func testBackBiasGoesBackThatMuchMoreOftenWhereItCan() {
        let open = Explorer.Move.command(.action(element: "open", value: nil))
        let moves: [Explorer.Move] = [open, .command(.dismiss), .command(.back)]
        var generator = SeededGenerator(seed: 3)
        let explorer = Explorer(configuration: .init(seed: 1, steps: 1, backBias: 0.33))
        var counts: [String: Int] = [:]
        for _ in 0..<20_000 { counts[explorer.pick(from: moves, generator: &generator).description, default: 0] += 1 }
        // Back: 0.33 first, then a third of the rest; the others share what is left.
        XCTAssertEqual(Double(counts["back"] ?? 0) / 20_000, 0.33 + 0.67 / 3, accuracy: 0.015)
        XCTAssertEqual(Double(counts["dismiss"] ?? 0) / 20_000, 0.67 / 3, accuracy: 0.015)

        let always = Explorer(configuration: .init(seed: 1, steps: 1, backBias: 1))
        XCTAssertEqual(always.pick(from: moves, generator: &generator), .command(.back))
        XCTAssertEqual(always.pick(from: [open, .command(.dismiss)], generator: &generator), .command(.dismiss), "swipe-dismiss when there is no back")
        XCTAssertEqual(always.pick(from: [open], generator: &generator), open, "the uniform pick where it cannot go back")
        XCTAssertEqual(Explorer.Configuration(seed: 1, steps: 1, backBias: 7).backBias, 1, "clamped to 0...1")
    }

    func testFindsADeadEnd() throws {
        // In the broken variant, Detail is a full-screen modal with no button: no way out.
        var found: Explorer.Report?
        for seed: UInt64 in 1...20 {
            let (report, _) = try walk(seed: seed, steps: 40, parameters: ["broken": "true"])
            if report.deadEnd != nil { found = report; break }
        }
        XCTAssertEqual(found?.deadEnd, "Detail#1")
    }
}
