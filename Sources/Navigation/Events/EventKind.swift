/// The kind of a recorded event, by its stable, dot-separated external name.
///
/// The names are part of navlog's public interface: JSON output, filters and docs use them.
/// Kinds may be added; none is ever renamed. A reader meets unknown kinds written by a newer
/// navlog as plain names, so `EventKind` is a string wrapper rather than a closed enum.
public struct EventKind: RawRepresentable, Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    public static func < (lhs: EventKind, rhs: EventKind) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether this kind is one of the kinds this version of navlog defines.
    public var isKnown: Bool { EventKind.allKnown.contains(self) }

    // MARK: - Session

    public static let sessionStart = EventKind(rawValue: "session.start")
    public static let sessionEnd = EventKind(rawValue: "session.end")

    // MARK: - Coordinators

    public static let coordinatorStart = EventKind(rawValue: "coordinator.start")
    public static let coordinatorCoordinate = EventKind(rawValue: "coordinator.coordinate")
    public static let coordinatorFinish = EventKind(rawValue: "coordinator.finish")
    public static let coordinatorDeinit = EventKind(rawValue: "coordinator.deinit")

    // MARK: - Containers

    public static let screenPush = EventKind(rawValue: "screen.push")
    public static let screenPop = EventKind(rawValue: "screen.pop")
    public static let screenPresent = EventKind(rawValue: "screen.present")
    public static let screenDismiss = EventKind(rawValue: "screen.dismiss")
    public static let windowRoot = EventKind(rawValue: "window.root")
    public static let tabSelect = EventKind(rawValue: "tab.select")

    // MARK: - Presenters and view models

    public static let presenterInit = EventKind(rawValue: "presenter.init")
    public static let presenterDeinit = EventKind(rawValue: "presenter.deinit")
    public static let viewModelChange = EventKind(rawValue: "viewmodel.change")

    // MARK: - Intents and failures

    public static let action = EventKind(rawValue: "action")
    public static let deepLink = EventKind(rawValue: "deeplink")
    public static let error = EventKind(rawValue: "error")

    // MARK: - Journal bookkeeping

    /// Written by a journal writer when it had to drop events; the payload says how many and why.
    public static let journalDropped = EventKind(rawValue: "journal.dropped")

    /// Every kind this version defines, in a stable order.
    public static let allKnown: [EventKind] = [
        .sessionStart, .sessionEnd,
        .coordinatorStart, .coordinatorCoordinate, .coordinatorFinish, .coordinatorDeinit,
        .screenPush, .screenPop, .screenPresent, .screenDismiss, .windowRoot, .tabSelect,
        .presenterInit, .presenterDeinit, .viewModelChange,
        .action, .deepLink, .error,
        .journalDropped,
    ]

    /// The kinds that can change which screen the user sees.
    public static let navigationKinds: Set<EventKind> = [
        .screenPush, .screenPop, .screenPresent, .screenDismiss, .windowRoot, .tabSelect,
    ]
}
