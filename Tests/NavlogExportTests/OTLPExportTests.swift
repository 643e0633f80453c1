import Foundation
import NavlogEvents
import NavlogExport
import NavlogTestSupport
import XCTest

/// `navlog export --format otlp-json`: checked with the official protobuf definitions and
/// against the coordinator tree of the events.
final class OTLPExportTests: XCTestCase {
    /// Spans of the export as JSON objects with their resource's `navlog.run`.
    private func spans(of text: String) throws -> [(run: String, span: JSONValue)] {
        var spans: [(String, JSONValue)] = []
        for line in text.split(separator: "\n") {
            for resource in try JSONValue(parsing: String(line))["resourceSpans"]?.arrayValue ?? [] {
                let attributes = resource["resource"]?["attributes"]?.arrayValue ?? []
                let run = attributes.first { $0["key"] == "navlog.run" }?["value"]?["stringValue"]?.stringValue ?? ""
                for scope in resource["scopeSpans"]?.arrayValue ?? [] {
                    for span in scope["spans"]?.arrayValue ?? [] { spans.append((run, span)) }
                }
            }
        }
        return spans
    }

    private func attribute(_ span: JSONValue, _ key: String) -> JSONValue? {
        span["attributes"]?.arrayValue?.first { $0["key"]?.stringValue == key }?["value"]
    }

    // MARK: - Tests

    func testTracesParseWithTheOfficialDefinitionsAndFollowTheCoordinatorTree() throws {
        let journal = ExportTestSupport.seedJournal
        let text = try ExportTestSupport.export(["export", journal, "--format", "otlp-json", "--batch-size", "50"])
        let spans = try spans(of: text)
        XCTAssertGreaterThan(text.split(separator: "\n").count, 1, "batches of 50 spans make several requests")
        XCTAssertEqual(try OTLPValidator.count(.traces, in: text), spans.count)

        let events = try ExportTestSupport.events(in: journal)
        let sessions = Set(events.map { "\($0.run)/\($0.session)" })
        let starts = events.filter { $0.kind == .coordinatorStart }
        // One trace per session, one span per session, coordinator and screen shown.
        XCTAssertEqual(Set(spans.map { $0.span["traceId"]?.stringValue ?? "" }).count, sessions.count)
        XCTAssertEqual(spans.filter { $0.span["parentSpanId"] == nil }.count, sessions.count)
        XCTAssertEqual(spans.filter { attribute($0.span, "navlog.subject") != nil }.count, starts.count)
        let ids = spans.map { ($0.span["traceId"]?.stringValue ?? "") + ($0.span["spanId"]?.stringValue ?? "") }
        XCTAssertEqual(Set(ids).count, spans.count, "span ids are unique within their trace")

        // The span tree of coordinators is the coordinator tree: parent span = the span of the
        // coordinator named by `parent` in coordinator.start, or the session's span for roots.
        var spanOf: [String: JSONValue] = [:]
        for (run, span) in spans {
            let session = attribute(span, "navlog.session")?["stringValue"]?.stringValue
            if let session { spanOf["\(run)/\(session)/"] = span }
        }
        var subjectOf: [String: (key: String, span: JSONValue)] = [:]
        for (run, span) in spans {
            guard let subject = attribute(span, "navlog.subject")?["stringValue"]?.stringValue else { continue }
            let trace = span["traceId"]!.stringValue!
            subjectOf[trace + "/" + subject] = (run, span)
        }
        for start in starts {
            let trace = DeterministicID.traceID(run: start.run, session: start.session)
            let span = try XCTUnwrap(subjectOf[trace + "/" + start.subject]?.span, "no span for \(start.subject)")
            let expectedParent = start.parent.map { subjectOf[trace + "/" + $0]?.span["spanId"] }
                ?? spanOf["\(start.run)/\(start.session)/"]?["spanId"]
            XCTAssertEqual(span["parentSpanId"], expectedParent, "\(start.session) \(start.subject)")
            XCTAssertEqual(span["name"]?.stringValue, start.subjectType)
        }

        // Every action and view-model change is a span event.
        let spanEvents = spans.flatMap { $0.span["events"]?.arrayValue ?? [] }.compactMap { $0["name"]?.stringValue }
        XCTAssertEqual(spanEvents.filter { $0 == "action" }.count, events.filter { $0.kind == .action }.count)
        XCTAssertEqual(spanEvents.filter { $0 == "viewmodel.change" }.count, events.filter { $0.kind == .viewModelChange }.count)
        // Two exports give the same bytes: ids and order are deterministic.
        XCTAssertEqual(try ExportTestSupport.export(["export", journal, "--format", "otlp-json", "--batch-size", "50"]), text)
    }

    func testLogsParseWithTheOfficialDefinitions() throws {
        let journal = ExportTestSupport.seedJournal
        let text = try ExportTestSupport.export(["export", journal, "--format", "otlp-json", "--otlp-logs"])
        XCTAssertEqual(try OTLPValidator.count(.logs, in: text), try ExportTestSupport.events(in: journal).count)
    }

    func testALeakedCoordinatorSpanIsMarkedAndScreensAreChildrenOfTheirCoordinator() throws {
        let events = try LeakFixture.events()
        var encoder = OTLPTraceEncoder()
        var spans: [OTLPSpan] = []
        for event in events { spans += encoder.consume(event) }
        XCTAssertEqual(encoder.openSessionCount, 0, "session.end finishes and forgets the session")
        XCTAssertEqual(encoder.finish(), [])

        let leaky = try XCTUnwrap(spans.first { $0.attribute("navlog.subject") == .string("LeakyCoordinator#1") })
        XCTAssertEqual(leaky.attribute("navlog.leaked"), .bool(true))
        XCTAssertEqual(leaky.status.code, .error)
        let finish = try XCTUnwrap(events.first { $0.kind == .coordinatorFinish && $0.subject == "LeakyCoordinator#1" })
        XCTAssertEqual(leaky.endNanoseconds, finish.wallNanoseconds)
        let clean = try XCTUnwrap(spans.first { $0.attribute("navlog.subject") == .string("CleanCoordinator#1") })
        XCTAssertNil(clean.attribute("navlog.leaked"))
        XCTAssertEqual(clean.status.code, .unset)

        let leakyScreen = try XCTUnwrap(spans.first { $0.role == .screen && $0.name == "Leaky" })
        XCTAssertEqual(leakyScreen.parentSpanID, leaky.spanID)
        // Home is still shown when the session ends: closed there and marked.
        let home = try XCTUnwrap(spans.first { $0.role == .screen && $0.name == "Home" })
        XCTAssertEqual(home.attribute("navlog.unfinished"), .bool(true))
        XCTAssertEqual(spans.last?.role, .session, "the session span comes out last")
        XCTAssertEqual(home.endNanoseconds, spans.last?.endNanoseconds)
        // The screen's first display and the back button's action pressed on it are its events.
        XCTAssertEqual(leakyScreen.events.map(\.name), ["screen.ready", "action"])
    }

    func testScreenSpansCarryTheirFirstVisitsLoadAndTheCutOffOneIsCensored() throws {
        var encoder = OTLPTraceEncoder()
        var spans: [OTLPSpan] = []
        for event in try LoadFixture.events() { spans += encoder.consume(event) }
        let screens = spans.filter { $0.role == .screen }.map { span in
            ([span.name] + ["navlog.load_ms", "navlog.load_outcome", "navlog.censored", "navlog.unfinished"].compactMap { key in
                span.attribute(key).map { "\(key.dropFirst("navlog.".count))=\($0.jsonValue.serialized())" }
            }).joined(separator: " ")
        }
        // Spans come out as screens leave; Home and Pending are still shown at the end, and
        // Pending, the one the user sees, is cut off while it loads: no load outcome.
        XCTAssertEqual(screens, [
            #"Feed load_ms={"doubleValue":300} load_outcome={"stringValue":"loaded"}"#,
            #"Slow load_outcome={"stringValue":"abandoned"}"#,
            #"Broken load_ms={"doubleValue":50} load_outcome={"stringValue":"failed"}"#,
            #"Home load_ms={"doubleValue":0} load_outcome={"stringValue":"loaded"} unfinished={"boolValue":true}"#,
            #"Pending censored={"boolValue":true} unfinished={"boolValue":true}"#,
        ])
    }

    func testScreenSpanLoadsAddUpToTheReportsLoadSectionAndCensoredSpansToItsDwell() throws {
        let journal = ExportTestSupport.seedJournal
        let spans = try spans(of: try ExportTestSupport.export(["export", journal, "--format", "otlp-json"])).map(\.span)
        let report = try JSONValue(parsing: try ExportTestSupport.export(["report", journal, "--output", "json"]))
        var outcomes: [String: [String: Int64]] = [:]
        var times: [String: [Double]] = [:]
        for span in spans {
            guard let screen = span["name"]?.stringValue, let outcome = attribute(span, "navlog.load_outcome")?["stringValue"]?.stringValue else { continue }
            outcomes[screen, default: [:]][outcome, default: 0] += 1
            if let milliseconds = attribute(span, "navlog.load_ms")?["doubleValue"]?.doubleValue { times[screen, default: []].append(milliseconds) }
        }
        let load = try XCTUnwrap(report["load"]?.arrayValue)
        XCTAssertEqual(Set(outcomes.keys), Set(load.compactMap { $0["screen"]?.stringValue }))
        for item in load {
            let screen = try XCTUnwrap(item["screen"]?.stringValue)
            for outcome in ["loaded", "empty", "failed", "abandoned"] {
                XCTAssertEqual(outcomes[screen]?[outcome] ?? 0, item[outcome]?.intValue, "\(screen) \(outcome)")
            }
            let sorted = (times[screen] ?? []).sorted()
            XCTAssertEqual(Int64(sorted.count), item["n"]?.intValue, screen)
            if !sorted.isEmpty {
                let median = (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
                XCTAssertEqual(median, item["median_ms"]?.doubleValue ?? -1, accuracy: 0.0011, screen)
            }
        }
        XCTAssertGreaterThan(outcomes.values.reduce(0) { $0 + ($1["abandoned"] ?? 0) }, 0)
        // One censored span per session that ends on a screen: the report's censored visits.
        let censored = spans.filter { attribute($0, "navlog.censored") == ["boolValue": true] }.count
        let reportCensored = (report["dwell"]?.arrayValue ?? []).reduce(0) { $0 + ($1["censored"]?.intValue ?? 0) }
        XCTAssertEqual(Int64(censored), reportCensored)
        XCTAssertGreaterThan(censored, 0)
    }

    func testASpanKeepsItsFirst128EventsAndCountsTheRest() throws {
        // A screen shown for a whole long session: its presenter changes its view model 300
        // times while its span is open. The span keeps 128 events (OpenTelemetry's default
        // limit), so an open span's memory stays bounded, and says how many it dropped.
        var events: [Event] = []
        func add(_ kind: EventKind, _ subject: String, screen: String? = nil, payload: JSONValue = [:]) {
            let number = Int64(events.count + 1)
            events.append(Event(wallNanoseconds: 1_800_000_000_000_000_000 + number * 1_000_000, monotonicNanoseconds: UInt64(number) * 1_000_000,
                                session: "s-1", sessionSeq: UInt64(number), kind: kind, subject: subject, screen: screen, payload: payload))
        }
        add(.sessionStart, "Session#1", payload: ["app": "demo"])
        add(.coordinatorStart, "AppCoordinator#1")
        add(.screenPush, "AppCoordinator#1", screen: "Home#1", payload: ["stack": "Stack#1", "depth": 1])
        for index in 1...300 {
            add(.viewModelChange, "HomePresenter#1", screen: "Home#1",
                payload: ["viewmodel": "HomeViewModel", "changed": ["count"], "snapshot": ["count": .int(Int64(index))]])
        }
        add(.sessionEnd, "Session#1")
        let journal = try ExportTestSupport.writeJournal(events, test: self)
        let text = try ExportTestSupport.export(["export", journal, "--format", "otlp-json"])
        let home = try XCTUnwrap(try spans(of: text).map(\.span).first { $0["name"]?.stringValue == "Home" })
        let kept = home["events"]?.arrayValue ?? []
        XCTAssertEqual(kept.count, OTLPSpan.maximumEventCount)
        XCTAssertEqual(home["droppedEventsCount"], 172)
        XCTAssertEqual(kept.last?["attributes"]?.arrayValue?.first { $0["key"] == "navlog.session_seq" }?["value"]?["intValue"], "131",
                       "the first 128 changes are kept, from session_seq 4")
        XCTAssertEqual(try OTLPValidator.count(.traces, in: text), try spans(of: text).count)
    }

    func testTheEncoderHandsOutSpansAsCoordinatorsGoAwayAndForgetsEndedSessions() throws {
        // Two sessions, interleaved event by event, as a live daemon would see them.
        let first = try LeakFixture.events(session: "s-1")
        let second = try LeakFixture.events(session: "s-2")
        var encoder = OTLPTraceEncoder()
        var emittedBeforeEnd = 0
        for (a, b) in zip(first, second) {
            for event in [a, b] {
                let spans = encoder.consume(event)
                if event.kind == .coordinatorDeinit, event.subject == "CleanCoordinator#1" {
                    XCTAssertEqual(spans.map(\.name), ["CleanCoordinator"], "a coordinator's span comes out at its deinit")
                    emittedBeforeEnd += 1
                }
            }
            XCTAssertLessThanOrEqual(encoder.openSessionCount, 2)
        }
        XCTAssertEqual(emittedBeforeEnd, 2)
        XCTAssertEqual(encoder.openSessionCount, 0)

        // A session cut off before its end is closed by flushSession.
        for event in first.dropLast() { _ = encoder.consume(event) }
        XCTAssertEqual(encoder.openSessionCount, 1)
        let flushed = encoder.flushSession(run: first[0].run, session: "s-1")
        XCTAssertEqual(flushed.last?.role, .session)
        XCTAssertEqual(encoder.openSessionCount, 0)
        let request = OTLPTraceEncoder.makeRequest(spans: flushed) { OTLPResource(run: $0.run, app: $0.app) }
        XCTAssertEqual(request["resourceSpans"]?.arrayValue?.count, 1)
    }
}
