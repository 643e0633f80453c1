import NavlogEvents

/// One finished OTLP span: a session, a coordinator's life or a screen shown.
///
/// Spans remember the run, session and app they belong to, so ``OTLPTraceEncoder/makeRequest(spans:resource:)``
/// can group them under the right resource.
public struct OTLPSpan: Sendable, Equatable {
    /// What the span stands for.
    public enum Role: String, Sendable {
        case session
        case coordinator
        case screen
    }

    public var role: Role
    /// The journal run the events came from.
    public var run: String
    public var session: String
    /// The app of the session, from `session.start`, when known.
    public var app: String?
    /// 32 hex digits.
    public var traceID: String
    /// 16 hex digits.
    public var spanID: String
    /// 16 hex digits; nil for the session's root span.
    public var parentSpanID: String?
    public var name: String
    /// Wall-clock nanoseconds since the Unix epoch.
    public var startNanoseconds: Int64
    public var endNanoseconds: Int64
    public var attributes: [OTLPAttribute]
    /// The span's first ``maximumEventCount`` events.
    public var events: [OTLPSpanEvent]
    /// The events recorded on the span after its first ``maximumEventCount`` (OTLP's
    /// `droppedEventsCount`).
    public var droppedEventCount = 0
    public var status: OTLPStatus

    /// How many events a span keeps, OpenTelemetry's default span limit: a screen shown for a
    /// whole long session records an event at each change of its view model, and its span,
    /// open all the while, would otherwise keep every one (in the daemon's push too).
    public static let maximumEventCount = 128

    /// Adds `event`, or counts it as dropped once the span holds ``maximumEventCount``.
    public mutating func add(_ event: OTLPSpanEvent) {
        if events.count < Self.maximumEventCount {
            events.append(event)
        } else {
            droppedEventCount += 1
        }
    }

    /// Returns the OTLP/JSON `Span`: hex ids, lowerCamelCase keys, int64 times as strings,
    /// `kind` 1 (`SPAN_KIND_INTERNAL`).
    public func jsonObject() -> JSONValue {
        var members: [String: JSONValue] = [
            "traceId": .string(traceID),
            "spanId": .string(spanID),
            "name": .string(name),
            "kind": 1,
            "startTimeUnixNano": .string(String(startNanoseconds)),
            "endTimeUnixNano": .string(String(max(endNanoseconds, startNanoseconds))),
            "attributes": .array(attributes.map(\.jsonValue)),
            "events": .array(events.map { $0.jsonObject() }),
            "status": status.jsonObject(),
        ]
        if let parentSpanID { members["parentSpanId"] = .string(parentSpanID) }
        if droppedEventCount > 0 { members["droppedEventsCount"] = .int(Int64(droppedEventCount)) }
        return .object(members)
    }

    /// The value of attribute `key`, if the span has it.
    public func attribute(_ key: String) -> OTLPValue? {
        attributes.last { $0.key == key }?.value
    }
}

/// A timed event inside a span: an action, a transition, a view-model change.
public struct OTLPSpanEvent: Sendable, Equatable {
    /// Wall-clock nanoseconds since the Unix epoch.
    public var timeNanoseconds: Int64
    public var name: String
    public var attributes: [OTLPAttribute]

    public init(timeNanoseconds: Int64, name: String, attributes: [OTLPAttribute]) {
        self.timeNanoseconds = timeNanoseconds
        self.name = name
        self.attributes = attributes
    }

    /// Creates the span event that stands for `event`, named after its kind.
    public init(_ event: Event) {
        self.init(timeNanoseconds: event.wallNanoseconds, name: event.kind.rawValue, attributes: OTLPAttribute.describing(event))
    }

    /// Returns the OTLP/JSON `Span.Event`.
    public func jsonObject() -> JSONValue {
        [
            "timeUnixNano": .string(String(timeNanoseconds)),
            "name": .string(name),
            "attributes": .array(attributes.map(\.jsonValue)),
        ]
    }
}

/// An OTLP span status; `code` is the integer enum of OTLP/JSON.
public struct OTLPStatus: Sendable, Equatable {
    /// `STATUS_CODE_UNSET`, `STATUS_CODE_OK`, `STATUS_CODE_ERROR`.
    public enum Code: Int64, Sendable {
        case unset = 0
        case ok = 1
        case error = 2
    }

    public var code: Code
    public var message: String

    public init(code: Code = .unset, message: String = "") {
        self.code = code
        self.message = message
    }

    /// Returns `{"code": 2, "message": …}`, without the message when it is empty.
    public func jsonObject() -> JSONValue {
        var members: [String: JSONValue] = ["code": .int(code.rawValue)]
        if !message.isEmpty { members["message"] = .string(message) }
        return .object(members)
    }
}
