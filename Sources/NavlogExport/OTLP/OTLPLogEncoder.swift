import NavlogEvents

/// Turns events into OTLP log records: one record per event, tied to its session's trace.
///
/// It keeps no state, so it streams as it is. Each record carries the session's trace id and
/// the session span's id (``DeterministicID/sessionSpanID(run:session:)``), so a backend shows
/// the logs next to the trace that ``OTLPTraceEncoder`` makes of the same session.
///
/// - `body`: the event's documented JSON line (DESIGN.md), as a string;
/// - `severityNumber`: 17 (`ERROR`) for `error` and `journal.dropped`, else 9 (`INFO`);
/// - attributes: those of a span event (`navlog.kind`, `navlog.subject`, …) plus
///   `navlog.run` and `navlog.session`.
public enum OTLPLogEncoder {
    /// Returns the OTLP/JSON `LogRecord` of `event`.
    public static func logRecord(for event: Event) -> JSONValue {
        let isError = event.kind == .error || event.kind == .journalDropped
        let attributes = [OTLPAttribute("navlog.run", .string(event.run)), OTLPAttribute("navlog.session", .string(event.session))]
            + OTLPAttribute.describing(event)
        return [
            "timeUnixNano": .string(String(event.wallNanoseconds)),
            "observedTimeUnixNano": .string(String(event.wallNanoseconds)),
            "severityNumber": isError ? 17 : 9,
            "severityText": isError ? "ERROR" : "INFO",
            "body": ["stringValue": .string(event.jsonLine())],
            "attributes": .array(attributes.map(\.jsonValue)),
            "traceId": .string(DeterministicID.traceID(run: event.run, session: event.session)),
            "spanId": .string(DeterministicID.sessionSpanID(run: event.run, session: event.session)),
        ]
    }

    /// Returns an OTLP/JSON `ExportLogsServiceRequest` holding the records of `events`,
    /// grouped under one `resourceLogs` per distinct resource; the body of a POST to `/v1/logs`.
    public static func makeRequest(events: [Event], scopeVersion: String = "", resource: (Event) -> OTLPResource) -> JSONValue {
        var order: [OTLPResource] = []
        var grouped: [OTLPResource: [JSONValue]] = [:]
        for event in events {
            let key = resource(event)
            if grouped[key] == nil { order.append(key) }
            grouped[key, default: []].append(logRecord(for: event))
        }
        let resourceLogs: [JSONValue] = order.map { key in
            [
                "resource": key.jsonObject(),
                "scopeLogs": [["scope": OTLPResource.scope(version: scopeVersion), "logRecords": .array(grouped[key]!)]],
            ]
        }
        return ["resourceLogs": .array(resourceLogs)]
    }
}
