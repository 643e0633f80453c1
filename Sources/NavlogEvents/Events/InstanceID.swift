/// Deterministic instance names within a session: `DetailCoordinator#2` is the second
/// `DetailCoordinator` the session created.
public enum InstanceID {
    /// The type part of an instance name: `DetailCoordinator` for `DetailCoordinator#2`.
    public static func typeName(of instance: String) -> String {
        // '#' is ASCII, so its UTF-8 position is a character boundary; scanning bytes skips
        // grapheme breaking, which this runs for nearly every event of a report.
        guard let hash = instance.utf8.lastIndex(of: UInt8(ascii: "#")) else { return instance }
        return String(instance[..<hash])
    }

    /// Returns the readable name of a Swift type, without module or generic parameters.
    public static func typeName(of type: Any.Type) -> String {
        let full = String(describing: type)
        return String(full.prefix { $0 != "<" })
    }
}

/// Hands out instance names, counting per type name; one allocator per session.
public struct InstanceNamer: Sendable {
    private var counters: [String: Int] = [:]

    public init() {}

    /// Returns the next name for `typeName`, such as `Detail#1`, then `Detail#2`.
    public mutating func makeName(for typeName: String) -> String {
        let next = counters[typeName, default: 0] + 1
        counters[typeName] = next
        return "\(typeName)#\(next)"
    }
}
