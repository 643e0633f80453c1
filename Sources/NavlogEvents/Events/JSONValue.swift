import Foundation

/// A JSON value: payloads, view-model snapshots and rendered elements travel as these.
///
/// Objects keep no key order; ``serialized()`` always writes keys sorted, so equal values give
/// equal bytes, which both compression and diffs rely on.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Creates the JSON form of an `Encodable` value, with the same shape `JSONEncoder` gives.
    public init(encoding value: some Encodable) throws {
        self = try JSONValueEncoder().encode(value)
    }

    /// Decodes a `Decodable` value from this JSON value.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: Data(serialized().utf8))
    }

    // MARK: - Access

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    public var intValue: Int64? {
        switch self {
        case .int(let value): return value
        case .double(let value) where value.rounded() == value && abs(value) < 9.2e18: return Int64(value)
        default: return nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }
}

// MARK: - Equality

extension JSONValue: Hashable {
    /// Numbers compare by value: `1` parsed as an integer equals `1.0` parsed as a double.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Double(a) == b && b.rounded() == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .int(let value): hasher.combine(Double(value))
        case .double(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let value): hasher.combine(value)
        case .object(let value): hasher.combine(value)
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}

// MARK: - Codable

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

// MARK: - Serializing

extension JSONValue: CustomStringConvertible {
    public var description: String { serialized() }

    /// Returns compact JSON text with object keys sorted.
    public func serialized() -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        write(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends compact JSON text with object keys sorted.
    public func write(to output: inout String) {
        output += serialized()
    }

    /// Appends compact JSON text with object keys sorted, as UTF-8. Building bytes is several
    /// times faster than appending to a `String`, which every response and record pays.
    public func write(to output: inout [UInt8]) {
        switch self {
        case .null: output += "null".utf8
        case .bool(let value): output += (value ? "true" : "false").utf8
        case .int(let value): JSONValue.writeInteger(value, to: &output)
        case .double(let value):
            if value.isFinite {
                if value.rounded() == value && abs(value) < 1e15 {
                    JSONValue.writeInteger(Int64(value), to: &output)
                } else {
                    output += "\(value)".utf8
                }
            } else {
                output += "null".utf8
            }
        case .string(let value): JSONValue.writeString(value, to: &output)
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            var isFirst = true
            for (key, value) in members.sorted(by: { $0.key < $1.key }) {
                if !isFirst { output.append(UInt8(ascii: ",")) }
                isFirst = false
                JSONValue.writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeInteger(_ value: Int64, to output: inout [UInt8]) {
        if value >= 0 && value < 10 {
            output.append(UInt8(ascii: "0") + UInt8(value))
        } else {
            output += String(value).utf8
        }
    }

    /// Appends `string` as a quoted, escaped JSON string.
    public static func writeString(_ string: String, to output: inout String) {
        var bytes: [UInt8] = []
        writeString(string, to: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `string` as a quoted, escaped JSON string, as UTF-8.
    public static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                switch byte {
                case 0x22: output += "\\\"".utf8
                case 0x5C: output += "\\\\".utf8
                case 0x0A: output += "\\n".utf8
                case 0x0D: output += "\\r".utf8
                case 0x09: output += "\\t".utf8
                default:
                    let hex = String(byte, radix: 16)
                    output += ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        output.append(UInt8(ascii: "\""))
    }
}
