import Foundation
import NavlogEvents

/// The thresholds and gates of `navlog diff`, from `--config FILE` and flags.
///
/// `Config/diff.json` is a documented example; `docs/DIFF.md` describes each key.
public struct DiffSettings: Sendable, Equatable {
    /// The family-wise significance level, after Holm correction. 0.01 rather than the
    /// textbook 0.05: a gate that CI runs on every change must fail a comparison of runs that
    /// did not change far less often than one build in twenty (`docs/DIFF.md`, "Calibration").
    public var alpha: Double = 0.01
    /// A significant change counts only when its relative size exceeds this (0.05 is 5%).
    public var noiseThreshold: Double = 0.05
    /// A change of a duration's median of at most this many milliseconds is within noise,
    /// however significant: timer and scheduling jitter of a millisecond is not a regression.
    public var noiseFloorMilliseconds: Double = 1
    /// Below this many samples on either side a metric is reported as too few samples.
    public var minimumSamples: Int = 5
    /// The most values of each metric a side keeps (a seeded reservoir beyond that).
    public var sampleLimit: Int = 2000
    /// Lines of context around each change of an exact diff.
    public var contextLines: Int = 3
    /// Payload field paths left out of the exact comparison, such as `parameters.latency_ms`.
    public var ignoredFields: [String] = []
    /// Screen types where a session may end without being a dead end.
    public var expectedEndings: [String] = []
    public var funnels: [Funnel] = []
    /// The kinds of finding that fail the comparison (exit 1).
    public var gates: Set<MetricFamily> = MetricFamily.defaultGates

    public init() {}

    /// The ignored fields as paths.
    var ignoredPaths: [[String]] {
        ignoredFields.map { $0.split(separator: ".").map(String.init) }
    }
}

/// A kind of comparison, as named in configuration and output.
public enum MetricFamily: String, Sendable, Codable, CaseIterable, Comparable {
    case exact
    case structural
    case dwell
    case load
    case timeToConvert = "time_to_convert"
    case eventsPerSession = "events_per_session"
    case funnelConversion = "funnel_conversion"
    case transitionShare = "transition_share"

    /// Every family but transition shares: a share moving is not worse by itself.
    public static let defaultGates: Set<MetricFamily> = Set(allCases).subtracting([.transitionShare])

    public static func < (lhs: MetricFamily, rhs: MetricFamily) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

// MARK: - Configuration file

/// A configuration value that does not fit, named by its key path.
public struct DiffSettingsError: Error, CustomStringConvertible, Equatable {
    /// The key path, such as `gate.dwell`.
    public var keyPath: String
    public var message: String
    public var description: String { keyPath.isEmpty ? message : "key '\(keyPath)': \(message)" }
}

extension DiffSettings {
    /// Reads the keys of a configuration object over these settings; unknown keys and bad
    /// values throw ``DiffSettingsError`` with their key path.
    public mutating func apply(json: JSONValue) throws {
        guard case .object(let members) = json else { throw DiffSettingsError(keyPath: "", message: "the configuration must be a JSON object") }
        for key in members.keys.sorted() {
            let value = members[key]!
            switch key {
            case "description": _ = try Self.string(value, key)
            case "alpha": alpha = try Self.number(value, key, in: 0.000_001...0.5)
            case "noise_threshold": noiseThreshold = try Self.number(value, key, in: 0...10)
            case "noise_floor_ms": noiseFloorMilliseconds = try Self.number(value, key, in: 0...3_600_000)
            case "min_samples": minimumSamples = try Self.integer(value, key, in: 2...1_000_000)
            case "sample_limit": sampleLimit = try Self.integer(value, key, in: 16...10_000_000)
            case "context_lines": contextLines = try Self.integer(value, key, in: 0...100)
            case "ignore_fields": ignoredFields = try Self.strings(value, key)
            case "expected_endings": expectedEndings = try Self.strings(value, key)
            case "funnels": funnels = try Self.funnels(value, key)
            case "gate":
                guard case .object(let entries) = value else { throw DiffSettingsError(keyPath: key, message: "must be an object of metric: true|false") }
                for (name, flag) in entries.sorted(by: { $0.key < $1.key }) {
                    guard let family = MetricFamily(rawValue: name) else {
                        throw DiffSettingsError(keyPath: "gate.\(name)", message: "unknown metric (metrics: \(MetricFamily.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                    guard let isGating = flag.boolValue else { throw DiffSettingsError(keyPath: "gate.\(name)", message: "must be true or false") }
                    if isGating { gates.insert(family) } else { gates.remove(family) }
                }
            default:
                throw DiffSettingsError(keyPath: key, message: "unknown key")
            }
        }
    }

    private static func number(_ value: JSONValue, _ key: String, in range: ClosedRange<Double>) throws -> Double {
        guard let number = value.doubleValue, range.contains(number) else {
            throw DiffSettingsError(keyPath: key, message: "must be a number from \(range.lowerBound) to \(range.upperBound), not \(value.serialized())")
        }
        return number
    }

    private static func integer(_ value: JSONValue, _ key: String, in range: ClosedRange<Int>) throws -> Int {
        guard let number = value.intValue, range.contains(Int(number)) else {
            throw DiffSettingsError(keyPath: key, message: "must be an integer from \(range.lowerBound) to \(range.upperBound), not \(value.serialized())")
        }
        return Int(number)
    }

    private static func string(_ value: JSONValue, _ key: String) throws -> String {
        guard let text = value.stringValue else { throw DiffSettingsError(keyPath: key, message: "must be a string") }
        return text
    }

    private static func strings(_ value: JSONValue, _ key: String) throws -> [String] {
        guard let items = value.arrayValue else { throw DiffSettingsError(keyPath: key, message: "must be an array of strings") }
        return try items.enumerated().map { index, item in
            guard let text = item.stringValue, !text.isEmpty else { throw DiffSettingsError(keyPath: "\(key)[\(index)]", message: "must be a non-empty string") }
            return text
        }
    }

    private static func funnels(_ value: JSONValue, _ key: String) throws -> [Funnel] {
        guard let items = value.arrayValue else { throw DiffSettingsError(keyPath: key, message: "must be an array of {\"name\", \"steps\"}") }
        return try items.enumerated().map { index, item in
            let path = "\(key)[\(index)]"
            guard case .object(let members) = item else { throw DiffSettingsError(keyPath: path, message: "must be an object with name and steps") }
            for name in members.keys where name != "name" && name != "steps" {
                throw DiffSettingsError(keyPath: "\(path).\(name)", message: "unknown key")
            }
            let name = try string(members["name"] ?? .null, "\(path).name")
            let steps = try strings(members["steps"] ?? .null, "\(path).steps")
            guard steps.count >= 2 else { throw DiffSettingsError(keyPath: "\(path).steps", message: "needs at least two screens") }
            return Funnel(name: name, steps: steps)
        }
    }
}
