import Foundation
import NavlogEvents
import NavlogHost
import NavlogJournal
import NavlogRuntime

// MARK: - Parsing

extension DaemonConfiguration {
    /// Parses and validates configuration text against the apps of `catalog`.
    ///
    /// Throws ``ConfigurationError`` naming the key path of the first problem.
    public init(parsing text: String, catalog: AppCatalog) throws {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: text, maximumDepth: 16)
        } catch {
            throw ConfigurationError(path: "", message: "not valid JSON: \(error)")
        }
        self.init()
        var root = try ConfigurationReader(document, path: "")
        if let value = root.value("journal") { try parseJournal(value) }
        if let value = root.value("privacy") { try parsePrivacy(value) }
        if let value = root.value("listen") { try parseListen(value) }
        if let value = root.value("auth") { try parseAuth(value) }
        if let value = root.value("limits") { try parseLimits(value) }
        if let value = root.value("log") { try parseLog(value) }
        if let value = root.value("testing") { try parseTesting(value) }
        if let value = root.value("apps") { apps = try Self.parseApps(value, catalog: catalog) }
        if let value = root.value("labels") { labels = try Self.parseLabels(value) }
        if let value = root.value("otlp") { otlp = try Self.parseOTLP(value) }
        if let value = root.value("ui") { try parseConsole(value) }
        if let value = root.value("ingest") { try parseIngest(value) }
        try root.finish()
        try validate()
    }

    /// Reads the configuration file at `path`, or the embedded default when `path` is nil.
    public static func load(path: String?, defaultText: String = DaemonConfiguration.defaultText, catalog: AppCatalog) throws -> DaemonConfiguration {
        guard let path else { return try DaemonConfiguration(parsing: defaultText, catalog: catalog) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(path: "", message: "cannot read the configuration file \(path)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(path: "", message: "\(path) is not UTF-8 text")
        }
        return try DaemonConfiguration(parsing: text, catalog: catalog)
    }

    /// Checks what no single key can: a listener exists, and TCP beyond loopback has a token.
    func validate() throws {
        guard listen.unixSocket != nil || listen.tcp != nil else {
            throw ConfigurationError(path: "listen", message: "needs a unix_socket, a tcp address, or both")
        }
        if let tcp = listen.tcp, !tcp.isLoopback, token == nil {
            throw ConfigurationError(
                path: "auth.token",
                message: "is required because listen.tcp.host \(tcp.host) is beyond loopback; set auth.token or auth.token_file, or listen on 127.0.0.1"
            )
        }
    }

    // MARK: - Sections

    private mutating func parseJournal(_ value: JSONValue) throws {
        var reader = try ConfigurationReader(value, path: "journal")
        journal.directory = try reader.string("directory", journal.directory, isNullable: false, expectation: "a directory path")!
        journal.flushIntervalMilliseconds = try reader.positive("flush_interval_ms", journal.flushIntervalMilliseconds, maximum: 60_000)
        journal.batchSize = try reader.positive("batch_size", journal.batchSize, maximum: 1 << 20)
        journal.queueCapacity = try reader.positive("queue_capacity", journal.queueCapacity, maximum: 1 << 24)
        if let raw = reader.value("overflow") {
            guard let text = raw.stringValue, let policy = BackpressurePolicy(rawValue: text) else {
                throw ConfigurationError(path: "journal.overflow", message: "must be \"block\" or \"drop\", got \(ConfigurationReader.describe(raw))")
            }
            journal.overflow = policy
        }
        if let raw = reader.value("durability") {
            guard let text = raw.stringValue, let durability = JournalSettings.Durability(rawValue: text) else {
                throw ConfigurationError(path: "journal.durability",
                                         message: "must be \"flush_interval\" or \"flush_per_request\", got \(ConfigurationReader.describe(raw))")
            }
            journal.durability = durability
        }
        journal.rotateBytes = Int64(try reader.positive("rotate_bytes", Int(journal.rotateBytes), maximum: 1 << 40))
        journal.rotateAgeSeconds = try reader.positive("rotate_age_s", journal.rotateAgeSeconds, maximum: 366 * 86_400)
        if case .some(let number) = try reader.integer("retention_bytes", in: 1...(1 << 50), expectation: "a positive integer or null") {
            journal.retentionBytes = number
        }
        if case .some(let number) = try reader.integer("retention_age_s", in: 1...(3660 * 86_400), expectation: "a positive integer or null") {
            journal.retentionAgeSeconds = number.map { Int($0) }
        }
        try reader.finish()
    }

    private mutating func parsePrivacy(_ value: JSONValue) throws {
        var reader = try ConfigurationReader(value, path: "privacy")
        if let raw = reader.value("mode") {
            guard let text = raw.stringValue, let mode = PrivacyPolicy.Mode(rawValue: text) else {
                throw ConfigurationError(path: "privacy.mode", message: "must be \"hash\" or \"remove\", got \(ConfigurationReader.describe(raw))")
            }
            privacy.mode = mode
        }
        if let raw = reader.value("redact") {
            guard case .array(let items) = raw else {
                throw ConfigurationError(path: "privacy.redact", message: "must be an array of rules, got \(ConfigurationReader.describe(raw))")
            }
            privacy.redact = try items.enumerated().map { index, item in
                guard let text = item.stringValue else {
                    throw ConfigurationError(path: "privacy.redact[\(index)]", message: "must be a string, got \(ConfigurationReader.describe(item))")
                }
                do {
                    return try RedactionRule(parsing: text)
                } catch {
                    throw ConfigurationError(path: "privacy.redact[\(index)]", message: "\(error)")
                }
            }
        }
        privacy.keyFile = try reader.string("key_file", nil, isNullable: true, expectation: "a file path")
        try reader.finish()
    }

    private mutating func parseListen(_ value: JSONValue) throws {
        var reader = try ConfigurationReader(value, path: "listen")
        listen.unixSocket = try reader.string("unix_socket", listen.unixSocket, isNullable: true, expectation: "a socket path")
        if let socket = listen.unixSocket, socket.utf8.count >= 104 {
            throw ConfigurationError(path: "listen.unix_socket", message: "must be shorter than 104 bytes, got \(socket.utf8.count)")
        }
        if let raw = reader.value("tcp") {
            if case .null = raw {
                listen.tcp = nil
            } else {
                var tcp = try ConfigurationReader(raw, path: "listen.tcp")
                let host = try tcp.string("host", "127.0.0.1", isNullable: false, expectation: "an IPv4 address")!
                var address = in_addr()
                guard host == "localhost" || inet_pton(AF_INET, host, &address) == 1 else {
                    throw ConfigurationError(path: "listen.tcp.host", message: "must be an IPv4 address such as 127.0.0.1, got \"\(host)\"")
                }
                var port = 7878
                if case .some(let number) = try tcp.integer("port", in: 0...65_535, expectation: "a port from 0 to 65535", statesRange: true) {
                    guard let number else { throw ConfigurationError(path: "listen.tcp.port", message: "must be a port from 0 to 65535, got null") }
                    port = Int(number)
                }
                try tcp.finish()
                listen.tcp = TCPAddress(host: host, port: port)
            }
        }
        try reader.finish()
    }

    private mutating func parseAuth(_ value: JSONValue) throws {
        var reader = try ConfigurationReader(value, path: "auth")
        let inline = try reader.string("token", nil, isNullable: true, expectation: "a token string")
        let file = try reader.string("token_file", nil, isNullable: true, expectation: "a file path")
        try reader.finish()
        if inline != nil, file != nil {
            throw ConfigurationError(path: "auth.token_file", message: "give either auth.token or auth.token_file, not both")
        }
        if let file {
            guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
                throw ConfigurationError(path: "auth.token_file", message: "cannot read \(file)")
            }
            token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        } else {
            token = inline
        }
        if let token, token.count < 16 || token.contains(where: { $0.isWhitespace }) {
            throw ConfigurationError(path: file == nil ? "auth.token" : "auth.token_file", message: "must be at least 16 characters without spaces")
        }
    }

    private mutating func parseTesting(_ value: JSONValue) throws {
        var reader = try ConfigurationReader(value, path: "testing")
        let tenYears: Int64 = 10 * 366 * 86_400
        if case .some(let number) = try reader.integer("wall_clock_offset_s", in: -tenYears...tenYears, expectation: "a number of seconds within ten years", statesRange: true) {
            testing.wallClockOffsetSeconds = number ?? 0
        }
        try reader.finish()
    }

    private mutating func parseLog(_ value: JSONValue) throws {
        var reader = try ConfigurationReader(value, path: "log")
        if let raw = reader.value("access") {
            guard let flag = raw.boolValue else {
                throw ConfigurationError(path: "log.access", message: "must be true or false, got \(ConfigurationReader.describe(raw))")
            }
            logsAccess = flag
        }
        try reader.finish()
    }

    private mutating func parseLimits(_ value: JSONValue) throws {
        var reader = try ConfigurationReader(value, path: "limits")
        limits.maximumBodyBytes = try reader.positive("max_body_bytes", limits.maximumBodyBytes, maximum: 64 << 20)
        limits.maximumSessions = try reader.positive("max_sessions", limits.maximumSessions, maximum: 1_000_000)
        limits.idleSessionTimeoutSeconds = try reader.positive("idle_session_timeout_s", limits.idleSessionTimeoutSeconds, maximum: 30 * 86_400)
        limits.requestTimeoutSeconds = try reader.positive("request_timeout_s", limits.requestTimeoutSeconds, maximum: 3600)
        limits.drainTimeoutSeconds = try reader.positive("drain_timeout_s", limits.drainTimeoutSeconds, maximum: 3600)
        limits.closeTimeoutSeconds = try reader.positive("close_timeout_s", limits.closeTimeoutSeconds, maximum: 3600)
        limits.streamBufferEvents = try reader.positive("stream_buffer_events", limits.streamBufferEvents, maximum: 1 << 20)
        try reader.finish()
    }

    private static func parseApps(_ value: JSONValue, catalog: AppCatalog) throws -> [AppSettings] {
        let reader = try ConfigurationReader(value, path: "apps")
        var enabled: [String: AppSettings] = [:]
        for name in reader.keys {
            let path = reader.path(of: name)
            guard let app = try? catalog.app(named: name) else {
                throw ConfigurationError(path: path, message: "unknown app; apps: \(catalog.apps.map(\.name).joined(separator: ", "))")
            }
            var entry = reader
            var settings = try ConfigurationReader(entry.value(name)!, path: path)
            var isEnabled = true
            if let raw = settings.value("enabled") {
                guard let flag = raw.boolValue else {
                    throw ConfigurationError(path: "\(path).enabled", message: "must be true or false, got \(ConfigurationReader.describe(raw))")
                }
                isEnabled = flag
            }
            var parameters: [String: String] = [:]
            if let raw = settings.value("parameters") {
                let values = try ConfigurationReader(raw, path: "\(path).parameters")
                var reading = values
                for key in values.keys {
                    let item = reading.value(key)!
                    guard let text = Self.parameterText(item) else {
                        throw ConfigurationError(path: values.path(of: key), message: "must be a string, number or boolean, got \(ConfigurationReader.describe(item))")
                    }
                    parameters[key] = text
                }
            }
            try settings.finish()
            do {
                _ = try app.resolveParameters(parameters)
            } catch let error as AppParameterError {
                throw ConfigurationError(path: "\(path).parameters", message: "\(error)")
            }
            if isEnabled { enabled[name] = AppSettings(name: name, parameters: parameters) }
        }
        return catalog.apps.compactMap { enabled[$0.name] }
    }

    private static func parseLabels(_ value: JSONValue) throws -> [String: String] {
        var reader = try ConfigurationReader(value, path: "labels")
        var labels: [String: String] = [:]
        for key in reader.keys {
            guard let text = reader.value(key)!.stringValue else {
                throw ConfigurationError(path: reader.path(of: key), message: "must be a string")
            }
            labels[key] = text
        }
        return labels
    }

    /// The text form of a JSON parameter value, as `AppDefinition.resolveParameters` takes it.
    static func parameterText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .bool(let flag): String(flag)
        case .int(let number): String(number)
        case .double(let number): String(number)
        default: nil
        }
    }
}
