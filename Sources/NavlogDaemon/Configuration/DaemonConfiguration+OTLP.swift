import Foundation
import NavlogEvents

// MARK: - OTLP push settings

extension DaemonConfiguration {
    /// Where an OTLP/HTTP collector listens: `http` or `https` (TLS through libcurl).
    public struct OTLPEndpoint: Sendable, Equatable, CustomStringConvertible {
        /// The URL scheme; `https` verifies the collector's certificate.
        public enum Scheme: String, Sendable {
            case http, https

            /// 80 or 443.
            public var defaultPort: Int { self == .http ? 80 : 443 }
        }

        public var scheme: Scheme
        /// A host name, an IPv4 address or an IPv6 address (without brackets), resolved by
        /// libcurl before each new connection.
        public var host: String
        public var port: Int
        /// The request path, `/v1/traces` when the URL gives none.
        public var path: String

        public init(scheme: Scheme = .http, host: String, port: Int, path: String) {
            self.scheme = scheme
            self.host = host
            self.port = port
            self.path = path
        }

        /// Parses `http[s]://host[:port][/path]`, the host possibly a bracketed IPv6 address
        /// (`[::1]`); the port defaults to 80 for http and 443 for https, the path to `/v1/traces`.
        public init?(url: String) {
            let lowered = url.lowercased()
            guard let scheme = [Scheme.http, .https].first(where: { lowered.hasPrefix($0.rawValue + "://") }) else { return nil }
            let rest = url.dropFirst(scheme.rawValue.count + 3)
            let authority = rest.prefix { $0 != "/" }
            let path = String(rest.dropFirst(authority.count))
            let name: Substring
            let portText: Substring?
            if authority.hasPrefix("[") {
                guard let close = authority.firstIndex(of: "]") else { return nil }
                name = authority[authority.index(after: authority.startIndex)..<close]
                let after = authority[authority.index(after: close)...]
                guard after.isEmpty || after.hasPrefix(":") else { return nil }
                portText = after.isEmpty ? nil : after.dropFirst()
                guard !name.isEmpty, name.contains(":"), name.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
            } else {
                let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
                guard (1...2).contains(parts.count) else { return nil }
                name = parts[0]
                portText = parts.count == 2 ? parts[1] : nil
                guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) else { return nil }
            }
            var port = scheme.defaultPort
            if let portText {
                guard let number = Int(portText), (1...65_535).contains(number) else { return nil }
                port = number
            }
            guard path.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "#" }) else { return nil }
            self.init(scheme: scheme, host: String(name), port: port, path: path.isEmpty || path == "/" ? "/v1/traces" : path)
        }

        /// The URL requests go to, an IPv6 host in brackets.
        public var description: String {
            "\(scheme.rawValue)://\(host.contains(":") ? "[\(host)]" : host):\(port)\(path)"
        }
    }

    /// The push of spans to an OpenTelemetry collector over OTLP/HTTP (JSON, optionally gzip),
    /// read from the journal: `otlp` in the configuration.
    public struct OTLPSettings: Sendable, Equatable {
        /// Whether `navlogd` pushes at all; off by default.
        public var isEnabled = false
        public var endpoint = OTLPEndpoint(host: "127.0.0.1", port: 4318, path: "/v1/traces")
        /// Extra request headers, such as `Authorization`.
        public var headers: [String: String] = [:]
        /// Spans per request at most.
        public var batchSize = 512
        /// How often the journal is read for new events and a partial batch is sent.
        public var intervalMilliseconds = 1000
        /// How long one request may take, connecting and the TLS handshake included.
        public var timeoutMilliseconds = 10_000
        /// The first wait after a failed request; it doubles up to `retryMaximumMilliseconds`.
        public var retryInitialMilliseconds = 500
        public var retryMaximumMilliseconds = 30_000
        /// Whether bodies are sent with `Content-Encoding: gzip`.
        public var isGzipEnabled = true
        /// How long SIGTERM lets the push send what the closed journal holds.
        public var drainTimeoutMilliseconds = 5000
        /// A PEM file of the certificate authorities an https collector's certificate may be
        /// signed by, instead of the system's; checked readable when the configuration loads.
        public var certificateAuthorityFile: String?

        public init() {}
    }

    /// Headers navlogd sets itself, refused in `otlp.headers`.
    static let reservedOTLPHeaders: Set<String> = ["content-type", "content-encoding", "content-length", "host", "connection", "transfer-encoding"]

    /// Parses the `otlp` section; `null` leaves the push off.
    static func parseOTLP(_ value: JSONValue) throws -> OTLPSettings {
        var settings = OTLPSettings()
        if case .null = value { return settings }
        var reader = try ConfigurationReader(value, path: "otlp")
        if let raw = reader.value("enabled") {
            guard let flag = raw.boolValue else {
                throw ConfigurationError(path: "otlp.enabled", message: "must be true or false, got \(ConfigurationReader.describe(raw))")
            }
            settings.isEnabled = flag
        }
        if let raw = reader.value("endpoint") {
            guard let text = raw.stringValue else {
                throw ConfigurationError(path: "otlp.endpoint", message: "must be a URL such as http://127.0.0.1:4318/v1/traces or https://collector:4318, got \(ConfigurationReader.describe(raw))")
            }
            guard let endpoint = OTLPEndpoint(url: text) else {
                throw ConfigurationError(path: "otlp.endpoint", message: "must be a URL such as http://127.0.0.1:4318/v1/traces or https://collector:4318, got \"\(text)\"")
            }
            settings.endpoint = endpoint
        }
        if let raw = reader.value("headers") { settings.headers = try parseHeaders(raw) }
        settings.batchSize = try reader.positive("batch_size", settings.batchSize, maximum: 65_536)
        settings.intervalMilliseconds = try reader.positive("interval_ms", settings.intervalMilliseconds, maximum: 3_600_000)
        settings.timeoutMilliseconds = try reader.positive("timeout_ms", settings.timeoutMilliseconds, maximum: 600_000)
        settings.retryInitialMilliseconds = try reader.positive("retry_initial_ms", settings.retryInitialMilliseconds, maximum: 3_600_000)
        settings.retryMaximumMilliseconds = try reader.positive("retry_max_ms", settings.retryMaximumMilliseconds, maximum: 3_600_000)
        settings.drainTimeoutMilliseconds = try reader.positive("drain_timeout_ms", settings.drainTimeoutMilliseconds, maximum: 3_600_000)
        if let raw = reader.value("gzip") {
            guard let flag = raw.boolValue else {
                throw ConfigurationError(path: "otlp.gzip", message: "must be true or false, got \(ConfigurationReader.describe(raw))")
            }
            settings.isGzipEnabled = flag
        }
        settings.certificateAuthorityFile = try reader.string("ca_file", nil, isNullable: true, expectation: "the path of a PEM file")
        try reader.finish()
        if let file = settings.certificateAuthorityFile { try checkCertificateAuthorityFile(file, endpoint: settings.endpoint) }
        if settings.retryMaximumMilliseconds < settings.retryInitialMilliseconds {
            throw ConfigurationError(path: "otlp.retry_max_ms", message: "must be at least otlp.retry_initial_ms (\(settings.retryInitialMilliseconds)), got \(settings.retryMaximumMilliseconds)")
        }
        return settings
    }

    /// Refuses an `otlp.ca_file` that cannot be read now, or that an http endpoint would ignore.
    private static func checkCertificateAuthorityFile(_ path: String, endpoint: OTLPEndpoint) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigurationError(path: "otlp.ca_file", message: "\(path) does not exist; give the PEM file of the collector's certificate authority")
        }
        guard !isDirectory.boolValue, FileManager.default.isReadableFile(atPath: path) else {
            throw ConfigurationError(path: "otlp.ca_file", message: "\(path) is \(isDirectory.boolValue ? "a directory" : "not readable by navlogd"); give a readable PEM file")
        }
        guard endpoint.scheme == .https else {
            throw ConfigurationError(path: "otlp.ca_file", message: "is only used with https, but otlp.endpoint is \(endpoint); use an https:// endpoint or remove ca_file")
        }
    }

    /// Parses `otlp.headers`: names are HTTP tokens, values single-line strings.
    private static func parseHeaders(_ value: JSONValue) throws -> [String: String] {
        var reader = try ConfigurationReader(value, path: "otlp.headers")
        var headers: [String: String] = [:]
        for name in reader.keys {
            let path = reader.path(of: name)
            let isToken = !name.isEmpty && name.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "!#$%&'*+-.^_`|~".unicodeScalars.contains($0))
            }
            guard isToken else { throw ConfigurationError(path: path, message: "is not a valid HTTP header name") }
            guard !reservedOTLPHeaders.contains(name.lowercased()) else {
                throw ConfigurationError(path: path, message: "is set by navlogd and cannot be configured")
            }
            let raw = reader.value(name)!
            guard let text = raw.stringValue, !text.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                throw ConfigurationError(path: path, message: "must be a single-line string, got \(ConfigurationReader.describe(raw))")
            }
            headers[name] = text
        }
        return headers
    }
}
