import Foundation

/// What the remote side of navlog refuses or cannot do, as a sentence naming the culprit.
public enum RemoteError: Error, Equatable, CustomStringConvertible {
    case invalidURL(String)
    case invalidSource(String)
    /// The daemon refused a batch for good.
    case refused(status: Int, reason: String, seqs: ClosedRange<UInt64>)
    /// The daemon could not be reached (or kept failing) `attempts` times in a row.
    case unreachable(reason: String, attempts: Int)
    /// The upload state file cannot be read or written.
    case state(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidURL(let url): return "'\(url)' is not an http:// or https:// URL of a navlogd"
        case .invalidSource(let source): return "source '\(source)' must be 1 to 64 letters, digits, '.', '_' or '-'"
        case .refused(let status, let reason, let seqs):
            return "the daemon refused the events of seqs \(seqs.lowerBound)-\(seqs.upperBound) (status \(status)): \(reason)"
        case .unreachable(let reason, let attempts): return "the daemon failed \(attempts) times in a row; last: \(reason)"
        case .state(let path, let reason): return "upload state \(path): \(reason)"
        }
    }
}
