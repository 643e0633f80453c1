import Foundation
import NavlogEvents
import Synchronization

/// Writes one logfmt line per message to stderr: `time=… level=info msg="…" key=value`.
///
/// Lines are written whole under a lock, so lines of concurrent threads never interleave.
public final class Logger: Sendable {
    /// How much a line matters.
    public enum Level: String, Sendable, Comparable {
        case debug, info, warn, error

        private var rank: Int { [.debug: 0, .info: 1, .warn: 2, .error: 3][self]! }
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
    }

    private let minimumLevel: Level
    private let lock = Mutex(())
    private let write: @Sendable (String) -> Void

    /// Creates a logger writing lines of `minimumLevel` and above through `write` (stderr by default).
    public init(minimumLevel: Level = .info, write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.minimumLevel = minimumLevel
        self.write = write
    }

    /// Logs `message` with `fields`, in the order given.
    public func log(_ level: Level, _ message: String, _ fields: KeyValuePairs<String, String> = [:]) {
        guard level >= minimumLevel else { return }
        var line = "time=\(Self.timestamp()) level=\(level.rawValue) msg=\(Self.quote(message))"
        for (key, value) in fields { line += " \(key)=\(Self.quote(value))" }
        line += "\n"
        lock.withLock { _ in write(line) }
    }

    public func info(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) { log(.info, message, fields) }
    public func warn(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) { log(.warn, message, fields) }
    public func error(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) { log(.error, message, fields) }
    public func debug(_ message: String, _ fields: KeyValuePairs<String, String> = [:]) { log(.debug, message, fields) }

    // MARK: - Formatting

    /// Returns `value` bare when it is a plain token, otherwise quoted with `"` and `\` escaped.
    static func quote(_ value: String) -> String {
        let isPlain = !value.isEmpty && value.unicodeScalars.allSatisfy {
            $0.value > 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "=" && $0 != "\\"
        }
        if isPlain { return value }
        var quoted = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        return String(Event.formatTime(nanoseconds).prefix(23)) + "Z"
    }
}
