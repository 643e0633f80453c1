import Foundation
import NavlogEvents
import NavlogExport
import XCTest

/// OTLP/JSON written straight to bytes (`OTLPTraceEncoder.writeRequest`,
/// `OTLPLogEncoder.writeRequest`) is the same text as the request built as a `JSONValue` and
/// serialized, byte for byte.
final class OTLPJSONWritingTests: XCTestCase {
    /// The spans of the leak and load fixtures' sessions, as the encoder hands them out.
    private func fixtureSpans() throws -> [OTLPSpan] {
        var encoder = OTLPTraceEncoder()
        var spans: [OTLPSpan] = []
        for events in [try LeakFixture.events(session: "s-1"), try LoadFixture.events(session: "s-2"), try LeakFixture.events(session: "s-3").dropLast(3)] {
            for event in events { spans += encoder.consume(event) }
        }
        spans += encoder.finish()
        return spans
    }

    private func assertSameText(_ spans: [OTLPSpan], scopeVersion: String, file: StaticString = #filePath, line: UInt = #line) {
        let resource = { (span: OTLPSpan) in
            OTLPResource(run: span.run, app: span.app, labels: span.session == "s-2" ? ["git_sha": "abc\"123", "ci": "1"] : [:])
        }
        let tree = OTLPTraceEncoder.makeRequest(spans: spans, scopeVersion: scopeVersion, resource: resource).serialized()
        var bytes: [UInt8] = []
        OTLPTraceEncoder.writeRequest(spans: spans, scopeVersion: scopeVersion, resource: resource, to: &bytes)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), tree, file: file, line: line)
    }

    func testRequestsOfTheFixturesAreTheSameText() throws {
        let spans = try fixtureSpans()
        XCTAssertGreaterThan(spans.count, 5)
        XCTAssertTrue(spans.contains { $0.parentSpanID == nil } && spans.contains { $0.parentSpanID != nil })
        for version in ["", "1.2.3"] { assertSameText(spans, scopeVersion: version) }
        assertSameText([], scopeVersion: "")
    }

    func testEveryKindOfValueEscapeAndOptionalMemberIsTheSameText() throws {
        var spans = try fixtureSpans()
        let hostile = "quote\" back\\ newline\n tab\t ctrl\u{01} é 日本 \u{200F}"
        spans[0].name = hostile
        spans[0].parentSpanID = nil
        spans[0].droppedEventCount = 172
        spans[0].status = OTLPStatus(code: .error, message: hostile)
        spans[0].attributes = [
            OTLPAttribute(hostile, .string(hostile)),
            OTLPAttribute("int", .int(-9_223_372_036_854_775_807)),
            OTLPAttribute("bools", .array([.bool(true), .bool(false)])),
            OTLPAttribute("doubles", .array([.double(1.5), .double(-0.0), .double(3.0), .double(1e300), .double(.nan), .double(-.infinity)])),
            OTLPAttribute("nested", .array([.array([.string("a"), .int(0)]), .array([])])),
        ]
        spans[0].events = [OTLPSpanEvent(timeNanoseconds: -5, name: hostile, attributes: spans[0].attributes), OTLPSpanEvent(timeNanoseconds: 0, name: "", attributes: [])]
        spans[1].status = OTLPStatus(code: .ok)
        spans[1].endNanoseconds = spans[1].startNanoseconds - 10
        assertSameText(spans, scopeVersion: "dev \"build\"")
    }

    func testLogRequestsAreTheSameText() throws {
        var events = try LeakFixture.events(session: "s-1") + LoadFixture.events(session: "s-2")
        events[3].run = "r-\"other\""
        events[4].kind = .error
        events[4].payload = ["message": "quote\" back\\ newline\n é 日本", "code": -1005, "ratio": 0.25]
        events[5].kind = .journalDropped
        let resource = { (event: Event) in OTLPResource(run: event.run, labels: event.session == "s-2" ? ["ci": "1"] : [:]) }
        for version in ["", "1.2.3"] {
            let tree = OTLPLogEncoder.makeRequest(events: events, scopeVersion: version, resource: resource).serialized()
            var bytes: [UInt8] = []
            OTLPLogEncoder.writeRequest(events: events, scopeVersion: version, resource: resource, to: &bytes)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), tree)
        }
        var empty: [UInt8] = []
        OTLPLogEncoder.writeRequest(events: [], resource: resource, to: &empty)
        XCTAssertEqual(String(decoding: empty, as: UTF8.self), OTLPLogEncoder.makeRequest(events: [], resource: resource).serialized())
    }
}
