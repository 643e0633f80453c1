import NavlogEvents

/// How a user's app (or a sample app) is made known to a host: a name, documented parameters
/// with defaults and validation, and a factory for its root coordinator.
///
/// ```swift
/// let masterDetail = AppDefinition(
///     name: "master-detail",
///     summary: "Seed 000: MVP with coordinators",
///     parameters: [.choice("detail_style", ["push", "modal"], default: "push", summary: "How Detail is shown")]
/// ) { context, parameters in
///     AppCoordinator(context: context, detailStyle: parameters.string("detail_style"))
/// }
/// ```
///
/// The host creates the session's ``NavigationContext``, calls ``makeRoot`` and launches the
/// returned coordinator. When the root conforms to ``DeepLinkHandling`` the host routes deep
/// links to it.
public struct AppDefinition: Sendable {
    public let name: String
    public let summary: String
    public let parameters: [AppParameter]
    /// Builds the app's root coordinator for one session; the host launches it.
    public let makeRoot: @Sendable (NavigationContext, AppParameters) throws -> Coordinator

    public init(
        name: String,
        summary: String,
        parameters: [AppParameter] = [],
        makeRoot: @escaping @Sendable (NavigationContext, AppParameters) throws -> Coordinator
    ) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.makeRoot = makeRoot
    }

    /// Validates raw `key=value` parameters against the declared ones and fills in defaults.
    ///
    /// Throws ``AppParameterError`` naming the parameter at fault: an unknown name (with the
    /// known ones) or a value of the wrong form (with what was expected).
    public func resolveParameters(_ raw: [String: String]) throws -> AppParameters {
        var values: [String: JSONValue] = [:]
        for (key, text) in raw {
            guard let parameter = parameters.first(where: { $0.name == key }) else {
                throw AppParameterError.unknown(app: name, parameter: key, known: parameters.map(\.name))
            }
            values[key] = try parameter.parse(text, app: name)
        }
        var unrecordedNames: Set<String> = []
        for parameter in parameters where values[parameter.name] == nil || parameter.isOmittedAtDefault {
            let defaultValue = try parameter.parse(parameter.defaultValue, app: name)
            if values[parameter.name] == nil { values[parameter.name] = defaultValue }
            if parameter.isOmittedAtDefault, values[parameter.name] == defaultValue { unrecordedNames.insert(parameter.name) }
        }
        return AppParameters(
            values: values, privateNames: Set(parameters.filter(\.isPrivate).map(\.name)), unrecordedNames: unrecordedNames
        )
    }
}

/// One declared app parameter.
public struct AppParameter: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case string
        case integer(ClosedRange<Int64>)
        case number(ClosedRange<Double>)
        case boolean
        case choice([String])
    }

    public let name: String
    public let kind: Kind
    /// The default, written as a user would write it.
    public let defaultValue: String
    public let summary: String
    /// Whether the value is private (a user's name, an email): `session.start` records it
    /// only as a keyed hash, or not at all, like a private view-model field.
    public let isPrivate: Bool
    /// Whether `session.start` leaves the parameter out while it holds its default: an app can
    /// gain such a parameter without changing what its existing sessions record.
    public let isOmittedAtDefault: Bool

    public init(
        name: String, kind: Kind, defaultValue: String, summary: String, isPrivate: Bool = false, isOmittedAtDefault: Bool = false
    ) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
        self.isPrivate = isPrivate
        self.isOmittedAtDefault = isOmittedAtDefault
    }

    public static func string(_ name: String, default value: String, summary: String, isPrivate: Bool = false) -> AppParameter {
        AppParameter(name: name, kind: .string, defaultValue: value, summary: summary, isPrivate: isPrivate)
    }

    public static func integer(
        _ name: String, in range: ClosedRange<Int64>, default value: Int64, summary: String, isOmittedAtDefault: Bool = false
    ) -> AppParameter {
        AppParameter(name: name, kind: .integer(range), defaultValue: String(value), summary: summary, isOmittedAtDefault: isOmittedAtDefault)
    }

    public static func number(_ name: String, in range: ClosedRange<Double>, default value: Double, summary: String) -> AppParameter {
        AppParameter(name: name, kind: .number(range), defaultValue: String(value), summary: summary)
    }

    public static func boolean(_ name: String, default value: Bool, summary: String) -> AppParameter {
        AppParameter(name: name, kind: .boolean, defaultValue: String(value), summary: summary)
    }

    public static func choice(
        _ name: String, _ options: [String], default value: String, summary: String, isOmittedAtDefault: Bool = false
    ) -> AppParameter {
        AppParameter(name: name, kind: .choice(options), defaultValue: value, summary: summary, isOmittedAtDefault: isOmittedAtDefault)
    }

    /// What values the parameter accepts, for help and errors: `one of push, modal`.
    public var expectation: String {
        switch kind {
        case .string: "any text"
        case .integer(let range): "an integer from \(range.lowerBound) to \(range.upperBound)"
        case .number(let range): "a number from \(range.lowerBound) to \(range.upperBound)"
        case .boolean: "true or false"
        case .choice(let options): "one of \(options.joined(separator: ", "))"
        }
    }

    func parse(_ text: String, app: String) throws -> JSONValue {
        let invalid = AppParameterError.invalid(app: app, parameter: name, value: text, expected: expectation)
        switch kind {
        case .string:
            return .string(text)
        case .integer(let range):
            guard let value = Int64(text), range.contains(value) else { throw invalid }
            return .int(value)
        case .number(let range):
            guard let value = Double(text), value.isFinite, range.contains(value) else { throw invalid }
            return .double(value)
        case .boolean:
            switch text.lowercased() {
            case "true", "yes", "1", "on": return .bool(true)
            case "false", "no", "0", "off": return .bool(false)
            default: throw invalid
            }
        case .choice(let options):
            guard options.contains(text) else { throw invalid }
            return .string(text)
        }
    }
}

/// Validated parameter values, defaults filled in.
public struct AppParameters: Sendable, Equatable {
    public let values: [String: JSONValue]
    /// The parameters declared private.
    public let privateNames: Set<String>
    /// The parameters left out of ``json``: those omitted at their default that hold it.
    public let unrecordedNames: Set<String>

    public init(values: [String: JSONValue], privateNames: Set<String> = [], unrecordedNames: Set<String> = []) {
        self.values = values
        self.privateNames = privateNames
        self.unrecordedNames = unrecordedNames
    }

    public func string(_ name: String) -> String { values[name]?.stringValue ?? values[name]?.serialized() ?? "" }
    public func integer(_ name: String) -> Int64 { values[name]?.intValue ?? 0 }
    public func number(_ name: String) -> Double { values[name]?.doubleValue ?? 0 }
    public func boolean(_ name: String) -> Bool { values[name]?.boolValue ?? false }

    /// The values as a JSON object, as recorded in `session.start` (without ``unrecordedNames``).
    public var json: JSONValue {
        unrecordedNames.isEmpty ? .object(values) : .object(values.filter { !unrecordedNames.contains($0.key) })
    }
}

/// A parameter the app does not declare, or a value it does not accept.
public enum AppParameterError: Error, Equatable, CustomStringConvertible {
    case unknown(app: String, parameter: String, known: [String])
    case invalid(app: String, parameter: String, value: String, expected: String)

    public var description: String {
        switch self {
        case .unknown(let app, let parameter, let known):
            "app '\(app)' has no parameter '\(parameter)'; its parameters: "
                + (known.isEmpty ? "none" : known.sorted().joined(separator: ", "))
        case .invalid(let app, let parameter, let value, let expected):
            "app '\(app)': parameter '\(parameter)' must be \(expected), not '\(value)'"
        }
    }
}
