import NavlogEvents

// MARK: - The web console (`ui`)

extension DaemonConfiguration {
    /// The web console at `GET /ui` (`ui` in the JSON).
    public struct ConsoleSettings: Sendable, Equatable {
        /// Whether `/ui` is served; nil (the default, `null` in the JSON) serves it when TCP
        /// listens on loopback or not at all, and not when it listens beyond loopback.
        public var enabled: Bool?
        /// Whether the console may perform actions on sessions (click, type, flip): requests
        /// from a browser to change a session are refused with 403 unless this is true.
        public var allowsActions = false

        public init() {}
    }

    /// Whether `/ui` is served: `ui.enabled`, or when it is `null`, whether TCP listens on
    /// loopback (or not at all).
    public var servesConsole: Bool {
        console.enabled ?? (listen.tcp?.isLoopback ?? true)
    }

    mutating func parseConsole(_ value: JSONValue) throws {
        var reader = try ConfigurationReader(value, path: "ui")
        if let raw = reader.value("enabled") {
            switch raw {
            case .null: console.enabled = nil
            case .bool(let flag): console.enabled = flag
            default: throw ConfigurationError(path: "ui.enabled", message: "must be true, false or null, got \(ConfigurationReader.describe(raw))")
            }
        }
        if let raw = reader.value("allow_actions") {
            guard let flag = raw.boolValue else {
                throw ConfigurationError(path: "ui.allow_actions", message: "must be true or false, got \(ConfigurationReader.describe(raw))")
            }
            console.allowsActions = flag
        }
        try reader.finish()
    }
}
