import NavlogEvents

/// Turns a stream of events into OTLP spans, incrementally: feed events, get the spans they
/// finish. A batch export and a live push (the daemon) use it the same way.
///
/// - Each session is a trace; its id is ``DeterministicID/traceID(run:session:)``.
/// - The session itself is the root span, from its first event to `session.end`.
/// - Each coordinator's life, from `coordinator.start` to `coordinator.finish`, is a span whose
///   parent is the coordinator that coordinated to it (`parent` of `coordinator.start`); a root
///   coordinator's parent is the session span.
/// - Each screen shown is a child span of the coordinator it was shown for, from the push,
///   present or root that showed it to the pop, dismiss or replacement that removed it. It
///   carries how the screen's first visit loaded (`navlog.load_ms`, `navlog.load_outcome`)
///   and, for the screen the user saw when the session ended, `navlog.censored`.
/// - Every other event (actions, transitions, view-model changes, tab switches, deep links,
///   errors) is a span event on its screen's span, else its coordinator's, else the session's.
///
/// A coordinator's span is emitted at its `coordinator.deinit`, or at the session's end: one
/// that finished but was never deallocated is marked `navlog.leaked` with an error status;
/// a coordinator or screen still open when the session ends gets the end time and
/// `navlog.unfinished`.
///
/// ```swift
/// var encoder = OTLPTraceEncoder()
/// var batch: [OTLPSpan] = []
/// while let event = try events.next() { batch += encoder.consume(event) }
/// batch += encoder.finish()
/// var body: [UInt8] = []
/// OTLPTraceEncoder.writeRequest(spans: batch, resource: { OTLPResource(run: $0.run, app: $0.app) }, to: &body)
/// // POST body to /v1/traces
/// ```
///
/// ``makeRequest(spans:scopeVersion:resource:)`` gives the same request as a `JSONValue`, to
/// inspect or change before printing; `writeRequest` writes its text without building it.
public struct OTLPTraceEncoder: Sendable {
    /// Open sessions by run and session id.
    private var sessions: [SessionKey: SessionSpans] = [:]

    public init() {}

    /// The number of sessions read but not ended: the encoder's memory grows with this, not
    /// with the number of events.
    public var openSessionCount: Int { sessions.count }

    // MARK: - Feeding events

    /// Applies `event` (each session's events in order; sessions may interleave) and returns the
    /// spans it finished. `session.end` finishes every span still open in that session.
    public mutating func consume(_ event: Event) -> [OTLPSpan] {
        let key = SessionKey(run: event.run, session: event.session)
        // Taken out of the dictionary while it changes, so its open spans and visits are not
        // shared and change in place: a copy of them on every event made exports quadratic in
        // a session's length.
        var spans = sessions.removeValue(forKey: key) ?? SessionSpans(first: event)
        var finished = spans.consume(event)
        if event.kind == .sessionEnd {
            finished += spans.finish()
        } else {
            sessions[key] = spans
        }
        return finished
    }

    /// Closes the spans of one session that has not ended (a live session being drained, or
    /// one cut off) at its last event, and forgets it.
    public mutating func flushSession(run: String, session: String) -> [OTLPSpan] {
        guard var spans = sessions.removeValue(forKey: SessionKey(run: run, session: session)) else { return [] }
        return spans.finish()
    }

    /// Closes every session still open, in order of run and session, and returns their spans.
    public mutating func finish() -> [OTLPSpan] {
        let keys = sessions.keys.sorted { ($0.run, $0.session) < ($1.run, $1.session) }
        return keys.flatMap { flushSession(run: $0.run, session: $0.session) }
    }

    // MARK: - Requests

    /// Returns an OTLP/JSON `ExportTraceServiceRequest` holding `spans`, grouped under one
    /// `resourceSpans` per distinct resource, in order of first appearance; the body of a
    /// POST to `/v1/traces`.
    public static func makeRequest(
        spans: [OTLPSpan], scopeVersion: String = "", resource: (OTLPSpan) -> OTLPResource
    ) -> JSONValue {
        var order: [OTLPResource] = []
        var grouped: [OTLPResource: [JSONValue]] = [:]
        for span in spans {
            let key = resource(span)
            if grouped[key] == nil { order.append(key) }
            grouped[key, default: []].append(span.jsonObject())
        }
        let resourceSpans: [JSONValue] = order.map { key in
            [
                "resource": key.jsonObject(),
                "scopeSpans": [["scope": OTLPResource.scope(version: scopeVersion), "spans": .array(grouped[key]!)]],
            ]
        }
        return ["resourceSpans": .array(resourceSpans)]
    }
}

/// A session's identity across runs: session ids such as `s-1` repeat in every run.
struct SessionKey: Hashable, Sendable {
    var run: String
    var session: String
}
