import Navigation

// OTLP/JSON written straight to bytes: the same text as `serialized()` of the `jsonObject()` and
// `jsonValue` trees (compact, keys in sorted order), without building them. A profile of
// `navlog export --format otlp-json` showed half its time in building those trees (a dictionary
// per span, event and attribute, each key hashed) and in sorting their keys again to print them.
// `OTLPJSONWritingTests` checks the bytes against the trees'.

extension OTLPTraceEncoder {
    /// Appends the OTLP/JSON text of ``makeRequest(spans:scopeVersion:resource:)``'s request
    /// for `spans`: the same bytes as its `serialized()`.
    public static func writeRequest(
        spans: [OTLPSpan], scopeVersion: String = "", resource: (OTLPSpan) -> OTLPResource, to output: inout [UInt8]
    ) {
        var order: [OTLPResource] = []
        var grouped: [OTLPResource: [Int]] = [:]
        for (index, span) in spans.enumerated() {
            let key = resource(span)
            if grouped[key] == nil { order.append(key) }
            grouped[key, default: []].append(index)
        }
        output += #"{"resourceSpans":["#.utf8
        for (position, key) in order.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            output += #"{"resource":"#.utf8
            key.jsonObject().write(to: &output)
            output += #","scopeSpans":[{"scope":"#.utf8
            OTLPResource.scope(version: scopeVersion).write(to: &output)
            output += #","spans":["#.utf8
            for (count, index) in grouped[key]!.enumerated() {
                if count > 0 { output.append(UInt8(ascii: ",")) }
                spans[index].writeJSON(to: &output)
            }
            output += "]}]}".utf8
        }
        output += "]}".utf8
    }
}

extension OTLPSpan {
    /// Appends ``jsonObject()`` as JSON text.
    func writeJSON(to output: inout [UInt8]) {
        output += #"{"attributes":"#.utf8
        OTLPAttribute.writeJSON(attributes, to: &output)
        if droppedEventCount > 0 {
            output += #","droppedEventsCount":"#.utf8
            JSONValue.int(Int64(droppedEventCount)).write(to: &output)
        }
        output += #","endTimeUnixNano":"#.utf8
        OTLPValue.writeInt64String(max(endNanoseconds, startNanoseconds), to: &output)
        output += #","events":["#.utf8
        for (index, event) in events.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            event.writeJSON(to: &output)
        }
        output += #"],"kind":1,"name":"#.utf8
        JSONValue.writeString(name, to: &output)
        if let parentSpanID {
            output += #","parentSpanId":"#.utf8
            JSONValue.writeString(parentSpanID, to: &output)
        }
        output += #","spanId":"#.utf8
        JSONValue.writeString(spanID, to: &output)
        output += #","startTimeUnixNano":"#.utf8
        OTLPValue.writeInt64String(startNanoseconds, to: &output)
        output += #","status":"#.utf8
        status.writeJSON(to: &output)
        output += #","traceId":"#.utf8
        JSONValue.writeString(traceID, to: &output)
        output.append(UInt8(ascii: "}"))
    }
}

extension OTLPSpanEvent {
    /// Appends ``jsonObject()`` as JSON text.
    func writeJSON(to output: inout [UInt8]) {
        output += #"{"attributes":"#.utf8
        OTLPAttribute.writeJSON(attributes, to: &output)
        output += #","name":"#.utf8
        JSONValue.writeString(name, to: &output)
        output += #","timeUnixNano":"#.utf8
        OTLPValue.writeInt64String(timeNanoseconds, to: &output)
        output.append(UInt8(ascii: "}"))
    }
}

extension OTLPStatus {
    /// Appends ``jsonObject()`` as JSON text.
    func writeJSON(to output: inout [UInt8]) {
        output += #"{"code":"#.utf8
        JSONValue.int(code.rawValue).write(to: &output)
        if !message.isEmpty {
            output += #","message":"#.utf8
            JSONValue.writeString(message, to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }
}

extension OTLPAttribute {
    /// Appends `attributes` as the JSON array of their ``jsonValue``s.
    static func writeJSON(_ attributes: [OTLPAttribute], to output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        for (index, attribute) in attributes.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output += #"{"key":"#.utf8
            JSONValue.writeString(attribute.key, to: &output)
            output += #","value":"#.utf8
            attribute.value.writeJSON(to: &output)
            output.append(UInt8(ascii: "}"))
        }
        output.append(UInt8(ascii: "]"))
    }
}

extension OTLPValue {
    /// Appends `value` as OTLP/JSON writes a 64-bit integer: its digits as a string.
    static func writeInt64String(_ value: Int64, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        output += String(value).utf8
        output.append(UInt8(ascii: "\""))
    }

    /// Appends ``jsonValue`` as JSON text.
    func writeJSON(to output: inout [UInt8]) {
        switch self {
        case .string(let value):
            output += #"{"stringValue":"#.utf8
            JSONValue.writeString(value, to: &output)
        case .int(let value):
            output += #"{"intValue":"#.utf8
            Self.writeInt64String(value, to: &output)
        case .bool(let value):
            output += (value ? #"{"boolValue":true"# : #"{"boolValue":false"#).utf8
        case .double(let value):
            output += #"{"doubleValue":"#.utf8
            JSONValue.double(value).write(to: &output)
        case .array(let values):
            output += #"{"arrayValue":{"values":["#.utf8
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                value.writeJSON(to: &output)
            }
            output += "]}".utf8
        }
        output.append(UInt8(ascii: "}"))
    }
}
