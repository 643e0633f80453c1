import NavlogEvents

/// The OTLP resource spans and logs are reported under: the service and the journal run.
///
/// - `service.name`: the explicit name if given, else the app of the session, else `navlog`;
/// - `service.namespace`: `navlog`;
/// - `navlog.run`: the run id;
/// - each run label as `navlog.label.<key>`, such as `navlog.label.git_sha`.
public struct OTLPResource: Sendable, Hashable {
    public var serviceName: String
    public var run: String
    public var labels: [String: String]

    /// Creates the resource of a run; `serviceName`, when given, wins over the app's name.
    public init(run: String, app: String? = nil, labels: [String: String] = [:], serviceName: String? = nil) {
        self.serviceName = serviceName ?? app ?? "navlog"
        self.run = run
        self.labels = labels
    }

    /// The resource's attributes, in a stable order.
    public var attributes: [OTLPAttribute] {
        var attributes = [
            OTLPAttribute("service.name", .string(serviceName)),
            OTLPAttribute("service.namespace", .string("navlog")),
            OTLPAttribute("navlog.run", .string(run)),
        ]
        for key in labels.keys.sorted() {
            attributes.append(OTLPAttribute("navlog.label.\(key)", .string(labels[key]!)))
        }
        return attributes
    }

    /// Returns the OTLP/JSON `Resource`.
    public func jsonObject() -> JSONValue {
        ["attributes": .array(attributes.map(\.jsonValue))]
    }

    /// Returns the OTLP/JSON `InstrumentationScope` of navlog's spans and logs.
    static func scope(version: String) -> JSONValue {
        version.isEmpty ? ["name": "navlog"] : ["name": "navlog", "version": .string(version)]
    }
}
