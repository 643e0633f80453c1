import NavlogEvents
import NavlogHost
import NavlogTestSupport
import XCTest

final class ScenarioParserTests: XCTestCase {
    func testParsesEveryCommand() throws {
        let scenario = try ScenarioParser.parse("""
            # a comment
            app demo latency_ms=50
            tap detail
            enter search "hello \\"world\\""
            back
            dismiss
            select Settings
            deeplink demo://detail#anchor
            wait 1.5s
            wait
            expect screen Detail
            expect text "Open detail"
            expect no-text "Error"
            expect stack Home Detail
            """, source: "flow.scenario")
        XCTAssertEqual(scenario.app, .init(name: "demo", parameters: ["latency_ms": "50"], line: 2))
        XCTAssertEqual(scenario.steps.map(\.command), [
            .tap("detail"), .enter("search", text: "hello \"world\""), .back, .dismiss, .select("Settings"),
            .deepLink("demo://detail#anchor"), .wait(nanoseconds: 1_500_000_000), .wait(nanoseconds: nil),
            .expectScreen("Detail"), .expectText("Open detail"), .expectNoText("Error"), .expectStack(["Home", "Detail"]),
        ])
        XCTAssertEqual(scenario.steps.map(\.line), Array(3...14))
    }

    func testParseErrorsNameFileAndLine() {
        let cases: [(String, String)] = [
            ("taps detail", "s.scenario:1: unknown command 'taps'; did you mean 'tap'? (commands: app, tap, enter, back, dismiss, select, deeplink, wait, expect)"),
            ("\n\ntap", "s.scenario:3: 'tap' takes one argument: tap ELEMENT"),
            ("enter search \"open", "s.scenario:1: unterminated quote"),
            ("wait soon", "s.scenario:1: 'soon' is not a duration; write e.g. 250ms, 2s or 1.5m"),
            ("expect colour red", "s.scenario:1: unknown expectation 'colour'; use screen, text, no-text or stack"),
            ("tap a\napp demo", "s.scenario:2: the 'app' line must come before the first step"),
            ("app demo latency", "s.scenario:1: app parameters are key=value, not 'latency'"),
            ("back now", "s.scenario:1: 'back' takes no arguments: back"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try ScenarioParser.parse(text, source: "s.scenario"), text) { error in
                XCTAssertEqual("\(error)", message)
            }
        }
    }

    func testDurations() {
        XCTAssertEqual(ScenarioParser.parseDuration("250ms"), 250_000_000)
        XCTAssertEqual(ScenarioParser.parseDuration("2s"), 2_000_000_000)
        XCTAssertEqual(ScenarioParser.parseDuration("1m"), 60_000_000_000)
        XCTAssertNil(ScenarioParser.parseDuration("-1s"))
        XCTAssertNil(ScenarioParser.parseDuration("5"))
        XCTAssertNil(ScenarioParser.parseDuration("1e30s"))
    }
}

final class ScenarioRunnerTests: XCTestCase {
    private func makeSession(_ parameters: [String: String] = [:]) throws -> (SessionCore, MemoryEventSink) {
        let sink = MemoryEventSink()
        let app = DemoApp.definition
        return (try SessionCore(id: "s-1", app: app, parameters: try app.resolveParameters(parameters), sink: sink), sink)
    }

    func testRunsAScenarioAndRecordsIt() throws {
        let (session, sink) = try makeSession()
        let scenario = try ScenarioParser.parse("""
            expect screen Home
            expect stack Home
            wait 250ms
            expect text alpha
            enter search coordinators
            tap detail
            expect screen Detail#1
            expect stack Home Detail
            back
            tap sheet
            expect screen Sheet
            dismiss
            deeplink demo://detail
            expect stack Home Detail
            """, source: "demo.scenario")
        let outcome = ScenarioRunner.run(scenario, on: session)
        XCTAssertNil(outcome.failure)
        XCTAssertEqual(outcome.stepsRun, 14)
        XCTAssertEqual(sink.events.filter { $0.kind == .action }.map { $0.payload["element"] }, ["search", "detail", "system.back", "sheet", "system.dismiss"])
        let start = try XCTUnwrap(sink.events.first)
        XCTAssertEqual(start.payload["app"], "demo")
        XCTAssertEqual(start.payload["parameters"], ["latency_ms": 200, "broken": false])
    }

    func testAWaitMovesRecordedTimeWithoutSleeping() throws {
        let (session, sink) = try makeSession()
        let before = ContinuousClock.now
        _ = ScenarioRunner.run(try ScenarioParser.parse("wait 1m\ntap detail", source: "t"), on: session)
        XCTAssertLessThan(before.duration(to: .now), .seconds(30), "a scripted wait must not sleep")
        let times = sink.events.map(\.monotonicNanoseconds)
        XCTAssertGreaterThanOrEqual(times.last! - times.first!, 60_000_000_000)
    }

    func testWorkThatFallsDueDuringAWaitIsRecordedWhenItRan() throws {
        // Home's list loads 200 ms after launch: a 2 s wait runs the load at 200 ms, not 2 s.
        let (session, sink) = try makeSession()
        _ = ScenarioRunner.run(try ScenarioParser.parse("wait 2s\ntap detail", source: "t"), on: session)
        let start = try XCTUnwrap(sink.events.first).monotonicNanoseconds
        let loaded = try XCTUnwrap(sink.events.first { $0.kind == .viewModelChange }).monotonicNanoseconds - start
        XCTAssertGreaterThanOrEqual(loaded, 200_000_000)
        XCTAssertLessThan(loaded, 1_000_000_000)
        let tap = try XCTUnwrap(sink.events.first { $0.kind == .action }).monotonicNanoseconds - start
        XCTAssertGreaterThanOrEqual(tap, 2_000_000_000)
    }

    func testFailedExpectationShowsExpectedAndActual() throws {
        let (session, _) = try makeSession()
        let outcome = ScenarioRunner.run(try ScenarioParser.parse("tap detail\nexpect screen Sheet\ntap sheet", source: "x.scenario"), on: session)
        XCTAssertEqual(outcome.stepsRun, 1)
        XCTAssertEqual(outcome.failure?.description, "x.scenario:2: expect screen\n  expected: Sheet\n  actual:   Detail#1")

        let (other, _) = try makeSession()
        let stack = ScenarioRunner.run(try ScenarioParser.parse("expect stack Home Detail", source: "y"), on: other)
        XCTAssertEqual(stack.failure?.description, "y:1: expect stack\n  expected: Home Detail\n  actual:   Home#1")

        let text = ScenarioRunner.run(try ScenarioParser.parse("expect text Missing", source: "z"), on: other)
        XCTAssertEqual(text.failure?.expected, "\"Missing\"")
        XCTAssertEqual(text.failure?.actual, "\"Home\", \"\", \"Open detail\", \"Open sheet\"")
    }

    func testRefusedActionNamesTheLine() throws {
        let (session, sink) = try makeSession()
        let outcome = ScenarioRunner.run(try ScenarioParser.parse("\ntap nope", source: "a.scenario"), on: session)
        XCTAssertEqual(outcome.failure?.description, "a.scenario:2: tap nope: no element 'nope' on screen Home#1; actionable elements: search, detail, sheet")
        XCTAssertEqual(sink.events.last?.kind, .error)
    }

    func testUnreachableDeepLinkFailsTheStep() throws {
        let (session, _) = try makeSession()
        let outcome = ScenarioRunner.run(try ScenarioParser.parse("deeplink demo://nowhere", source: "d"), on: session)
        XCTAssertEqual(outcome.failure?.description, "d:1: deeplink demo://nowhere: deep link demo://nowhere cannot be reached: unknown link demo://nowhere")
    }
}
