import Foundation

/// Encodes an `Encodable` value straight into a ``JSONValue``, with the shape `JSONEncoder`
/// gives (dates as ISO 8601 without fractions, data as Base64), without writing and parsing
/// text in between. View-model snapshots are made this way on every change.
struct JSONValueEncoder {
    func encode(_ value: some Encodable) throws -> JSONValue {
        let root = Slot()
        try Self.encode(value, into: root, codingPath: [])
        return root.resolve()
    }

    /// Encodes `value`, treating the types `JSONEncoder` treats specially.
    static func encode<T: Encodable>(_ value: T, into slot: Slot, codingPath: [any CodingKey]) throws {
        // By type identity, as in `primitive`: four failing `as` casts per struct or array
        // walked the runtime's conversions each time a view model was snapshotted.
        if T.self == Date.self {
            slot.value = .string(iso8601(value as! Date))
        } else if T.self == Data.self {
            slot.value = .string((value as! Data).base64EncodedString())
        } else if T.self == URL.self {
            slot.value = .string((value as! URL).absoluteString)
        } else if T.self == Decimal.self {
            slot.value = .double(NSDecimalNumber(decimal: value as! Decimal).doubleValue)
        } else {
            let encoder = ValueEncoder(slot: slot, codingPath: codingPath)
            try value.encode(to: encoder)
        }
    }

    /// `2026-12-01T10:00:00Z`, as `ISO8601DateFormatter` writes it (whole seconds, rounded down).
    static func iso8601(_ date: Date) -> String {
        Event.formatTime(Int64((date.timeIntervalSince1970 * 1e9).rounded(.down)), fractionDigits: 0)
    }

    /// Where one encoded value goes; containers hold slots of their members.
    final class Slot {
        var value: JSONValue = .object([:])
        var members: [(key: String, slot: Slot)]?
        var elements: [Slot]?

        /// Folds nested containers into ``value``.
        func resolve() -> JSONValue {
            if let members {
                var object: [String: JSONValue] = [:]
                object.reserveCapacity(members.count)
                for (key, slot) in members { object[key] = slot.resolve() }
                return .object(object)
            }
            if let elements { return .array(elements.map { $0.resolve() }) }
            return value
        }
    }
}

// MARK: - Encoder

private struct ValueEncoder: Encoder {
    let slot: JSONValueEncoder.Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if slot.members == nil { slot.members = [] }
        return KeyedEncodingContainer(KeyedContainer<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if slot.elements == nil { slot.elements = [] }
        return UnkeyedContainer(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(slot: slot, codingPath: codingPath)
    }
}

/// The JSON of `value` when it is a number, string, boolean or date, nil for anything else.
///
/// Compares the type first: a failing `as` cast walks the runtime's conversions, and a
/// struct's members would otherwise try a dozen of them each.
private func primitive<T: Encodable>(_ value: T) -> JSONValue? {
    if T.self == String.self { return .string(value as! String) }
    if T.self == Int.self { return .int(Int64(value as! Int)) }
    if T.self == Bool.self { return .bool(value as! Bool) }
    if T.self == Double.self { return .double(value as! Double) }
    if T.self == Date.self { return .string(JSONValueEncoder.iso8601(value as! Date)) }
    if T.self == Int64.self { return .int(value as! Int64) }
    if T.self == Int32.self { return .int(Int64(value as! Int32)) }
    if T.self == Int16.self { return .int(Int64(value as! Int16)) }
    if T.self == Int8.self { return .int(Int64(value as! Int8)) }
    if T.self == UInt.self {
        let value = value as! UInt
        return value <= UInt(Int64.max) ? .int(Int64(value)) : .double(Double(value))
    }
    if T.self == UInt64.self {
        let value = value as! UInt64
        return value <= UInt64(Int64.max) ? .int(Int64(value)) : .double(Double(value))
    }
    if T.self == UInt32.self { return .int(Int64(value as! UInt32)) }
    if T.self == UInt16.self { return .int(Int64(value as! UInt16)) }
    if T.self == UInt8.self { return .int(Int64(value as! UInt8)) }
    if T.self == Float.self { return .double(Double(value as! Float)) }
    return nil
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let slot: JSONValueEncoder.Slot
    let codingPath: [any CodingKey]

    private func member(_ key: Key) -> JSONValueEncoder.Slot {
        let member = JSONValueEncoder.Slot()
        if let index = slot.members!.firstIndex(where: { $0.key == key.stringValue }) {
            slot.members![index].slot = member
        } else {
            slot.members!.append((key.stringValue, member))
        }
        return member
    }

    mutating func encodeNil(forKey key: Key) throws { member(key).value = .null }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let target = member(key)
        if let simple = primitive(value) {
            target.value = simple
        } else {
            try JSONValueEncoder.encode(value, into: target, codingPath: codingPath + [key])
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let target = member(key)
        target.members = []
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(slot: target, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let target = member(key)
        target.elements = []
        return UnkeyedContainer(slot: target, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { ValueEncoder(slot: member(Key(stringValue: "super")!), codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ValueEncoder(slot: member(key), codingPath: codingPath + [key]) }
}

private struct IndexKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ index: Int) { stringValue = String(index); intValue = index }
    init?(stringValue: String) { self.stringValue = stringValue; intValue = Int(stringValue) }
    init?(intValue: Int) { self.init(intValue) }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let slot: JSONValueEncoder.Slot
    let codingPath: [any CodingKey]
    var count: Int { slot.elements!.count }

    private func next() -> JSONValueEncoder.Slot {
        let element = JSONValueEncoder.Slot()
        slot.elements!.append(element)
        return element
    }

    mutating func encodeNil() throws { next().value = .null }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let target = next()
        if let simple = primitive(value) {
            target.value = simple
        } else {
            try JSONValueEncoder.encode(value, into: target, codingPath: codingPath + [IndexKey(count - 1)])
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let target = next()
        target.members = []
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(slot: target, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let target = next()
        target.elements = []
        return UnkeyedContainer(slot: target, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder { ValueEncoder(slot: next(), codingPath: codingPath) }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let slot: JSONValueEncoder.Slot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { slot.value = .null }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let simple = primitive(value) {
            slot.value = simple
        } else {
            try JSONValueEncoder.encode(value, into: slot, codingPath: codingPath)
        }
    }
}
