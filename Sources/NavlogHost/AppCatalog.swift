import NavlogRuntime

/// The apps a host can run, by name.
public struct AppCatalog: Sendable {
    public let apps: [AppDefinition]

    /// Creates a catalog; a later app with the same name as an earlier one is refused.
    public init(_ apps: [AppDefinition]) throws {
        var seen = Set<String>()
        for app in apps {
            guard seen.insert(app.name).inserted else { throw HostError.duplicateApp(app.name) }
        }
        self.apps = apps
    }

    /// The app named `name`.
    public func app(named name: String) throws -> AppDefinition {
        guard let app = apps.first(where: { $0.name == name }) else {
            throw HostError.unknownApp(name, known: apps.map(\.name))
        }
        return app
    }

    /// A catalog with only the apps in `names`, in that order.
    public func restricted(to names: [String]) throws -> AppCatalog {
        try AppCatalog(names.map { try app(named: $0) })
    }
}

/// What a host refuses, with the culprit named.
public enum HostError: Error, Equatable, CustomStringConvertible {
    case unknownApp(String, known: [String])
    case duplicateApp(String)
    case unknownSession(String)
    case sessionLimit(Int)
    case sessionEnded(String)
    case notDeepLinkable(app: String)

    public var description: String {
        switch self {
        case .unknownApp(let name, let known):
            "unknown app '\(name)'; apps: \(known.isEmpty ? "none" : known.joined(separator: ", "))"
        case .duplicateApp(let name):
            "app '\(name)' is defined twice"
        case .unknownSession(let id):
            "no session '\(id)'"
        case .sessionLimit(let limit):
            "the session limit (\(limit)) is reached; end a session first"
        case .sessionEnded(let id):
            "session \(id) has ended"
        case .notDeepLinkable(let app):
            "app '\(app)' does not handle deep links"
        }
    }
}
