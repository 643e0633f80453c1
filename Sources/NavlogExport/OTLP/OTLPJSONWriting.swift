import NavlogEvents

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
        OTLPResource.writeRequest(spans, names: ("resourceSpans", "scopeSpans", "spans"), scopeVersion: scopeVersion, resource: resource,
                                  to: &output) { span, output in span.writeJSON(to: &output) }
    }
}

extension OTLPLogEncoder {
    /// Appends the OTLP/JSON text of ``makeRequest(events:scopeVersion:resource:)``'s request
    /// for `events`: the same bytes as its `serialized()`.
    public static func writeRequest(
        events: [Event], scopeVersion: String = "", resource: (Event) -> OTLPResource, to output: inout [UInt8]
    ) {
        OTLPResource.writeRequest(events, names: ("resourceLogs", "scopeLogs", "logRecords"), scopeVersion: scopeVersion, resource: resource,
                                  to: &output) { event, output in writeLogRecord(for: event, to: &output) }
    }

    /// Appends ``logRecord(for:)`` as JSON text.
    static func writeLogRecord(for event: Event, to output: inout [UInt8]) {
        let isError = event.kind == .error || event.kind == .journalDropped
        output += #"{"attributes":"#.utf8
        OTLPAttribute.writeJSON(
            [OTLPAttribute("navlog.run", .string(event.run)), OTLPAttribute("navlog.session", .string(event.session))] + OTLPAttribute.describing(event),
            to: &output)
        output += #","body":"#.utf8
        OTLPValue.string(event.jsonLine()).writeJSON(to: &output)
        output += #","observedTimeUnixNano":"#.utf8
        OTLPValue.writeInt64String(event.wallNanoseconds, to: &output)
        output += (isError ? #","severityNumber":17,"severityText":"ERROR","# : #","severityNumber":9,"severityText":"INFO","#).utf8
        output += #""spanId":"#.utf8
        JSONValue.writeString(DeterministicID.sessionSpanID(run: event.run, session: event.session), to: &output)
        output += #","timeUnixNano":"#.utf8
        OTLPValue.writeInt64String(event.wallNanoseconds, to: &output)
        output += #","traceId":"#.utf8
        JSONValue.writeString(DeterministicID.traceID(run: event.run, session: event.session), to: &output)
        output.append(UInt8(ascii: "}"))
    }
}

extension OTLPResource {
    /// Appends an OTLP/JSON export request: `items` grouped under one resource each, in order of
    /// first appearance, as `{"<resources>":[{"resource":…,"<scopes>":[{"<items>":[…],"scope":…}]}]}`
    /// with every object's keys in sorted order, as `JSONValue.serialized()` prints them.
    static func writeRequest<Item>(
        _ items: [Item], names: (resources: String, scopes: String, items: String), scopeVersion: String,
        resource: (Item) -> OTLPResource, to output: inout [UInt8], writeItem: (Item, inout [UInt8]) -> Void
    ) {
        var order: [OTLPResource] = []
        var grouped: [OTLPResource: [Int]] = [:]
        for (index, item) in items.enumerated() {
            let key = resource(item)
            if grouped[key] == nil { order.append(key) }
            grouped[key, default: []].append(index)
        }
        func writeItems(_ key: OTLPResource) {
            JSONValue.writeString(names.items, to: &output)
            output += ":[".utf8
            for (count, index) in grouped[key]!.enumerated() {
                if count > 0 { output.append(UInt8(ascii: ",")) }
                writeItem(items[index], &output)
            }
            output.append(UInt8(ascii: "]"))
        }
        output.append(UInt8(ascii: "{"))
        JSONValue.writeString(names.resources, to: &output)
        output += ":[".utf8
        for (position, key) in order.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            output += #"{"resource":"#.utf8
            key.jsonObject().write(to: &output)
            output.append(UInt8(ascii: ","))
            JSONValue.writeString(names.scopes, to: &output)
            output += ":[{".utf8
            let itemsFirst = names.items < "scope"
            if itemsFirst {
                writeItems(key)
                output.append(UInt8(ascii: ","))
            }
            output += #""scope":"#.utf8
            scope(version: scopeVersion).write(to: &output)
            if !itemsFirst {
                output.append(UInt8(ascii: ","))
                writeItems(key)
            }
            output += "}]}".utf8
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
