import NavlogEvents

/// An OTLP `AnyValue`: the value of an attribute, in the OTLP/JSON encoding.
///
/// OTLP/JSON writes 64-bit integers as strings (`{"intValue": "3"}`), as the protobuf JSON
/// mapping does for `int64`; ``jsonValue`` follows that rule.
public enum OTLPValue: Sendable, Equatable {
    case string(String)
    case int(Int64)
    case bool(Bool)
    case double(Double)
    case array([OTLPValue])

    /// Returns the OTLP/JSON form, such as `{"stringValue": "Detail#1"}`.
    public var jsonValue: JSONValue {
        switch self {
        case .string(let value): return ["stringValue": .string(value)]
        case .int(let value): return ["intValue": .string(String(value))]
        case .bool(let value): return ["boolValue": .bool(value)]
        case .double(let value): return ["doubleValue": .double(value)]
        case .array(let values): return ["arrayValue": ["values": .array(values.map(\.jsonValue))]]
        }
    }
}

/// One OTLP `KeyValue`: an attribute of a resource, span, span event or log record.
public struct OTLPAttribute: Sendable, Equatable {
    public var key: String
    public var value: OTLPValue

    public init(_ key: String, _ value: OTLPValue) {
        self.key = key
        self.value = value
    }

    /// Returns `{"key": …, "value": {…}}`.
    public var jsonValue: JSONValue {
        ["key": .string(key), "value": value.jsonValue]
    }
}

// MARK: - Attributes of events

extension OTLPAttribute {
    /// Returns the attributes that describe `event` on a span event or log record: its seq,
    /// session seq, kind, subject, screen, cause and parent, and its payload as JSON text.
    static func describing(_ event: Event) -> [OTLPAttribute] {
        var attributes = [
            OTLPAttribute("navlog.seq", .int(Int64(bitPattern: event.seq))),
            OTLPAttribute("navlog.session_seq", .int(Int64(bitPattern: event.sessionSeq))),
            OTLPAttribute("navlog.kind", .string(event.kind.rawValue)),
            OTLPAttribute("navlog.subject", .string(event.subject)),
        ]
        if let screen = event.screen { attributes.append(OTLPAttribute("navlog.screen", .string(screen))) }
        if let cause = event.cause { attributes.append(OTLPAttribute("navlog.cause", .int(Int64(bitPattern: cause)))) }
        if let parent = event.parent { attributes.append(OTLPAttribute("navlog.parent", .string(parent))) }
        // The fields people filter on get their own attributes; the whole payload stays as text.
        for key in ["element", "role", "value", "tab", "viewmodel", "child", "style", "by", "url", "message"] {
            if let text = event.payload[key]?.stringValue {
                attributes.append(OTLPAttribute("navlog.\(key)", .string(text)))
            }
        }
        if let changed = event.payload["changed"]?.arrayValue {
            attributes.append(OTLPAttribute("navlog.changed", .array(changed.compactMap(\.stringValue).map(OTLPValue.string))))
        }
        if event.payload.objectValue?.isEmpty == false {
            attributes.append(OTLPAttribute("navlog.payload", .string(event.payload.serialized())))
        }
        return attributes
    }
}
