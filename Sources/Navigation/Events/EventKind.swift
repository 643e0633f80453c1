/// The kind of a recorded event, by its stable, dot-separated external name.
///
/// The names are part of navlog's public interface: JSON output, filters and docs use them.
/// Kinds may be added; none is ever renamed. A reader meets unknown kinds written by a newer
/// navlog as plain names, so `EventKind` is a string wrapper rather than a closed enum.
public struct EventKind: RawRepresentable, Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String
    /// The kind's position in ``knownNames`` (a function of `rawValue`), or `unknownCode`:
    /// readers switch over kinds for every event, and comparing two known kinds compares
    /// these bytes instead of their names.
    private let code: UInt8

    public init(rawValue: String) {
        self.rawValue = rawValue
        self.code = Self.codes[rawValue] ?? Self.unknownCode
    }

    private init(known rawValue: String) {
        self.rawValue = rawValue
        self.code = UInt8(Self.knownNames.firstIndex(of: rawValue)!)
    }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public static func == (lhs: EventKind, rhs: EventKind) -> Bool {
        if lhs.code != unknownCode || rhs.code != unknownCode { return lhs.code == rhs.code }
        return lhs.rawValue == rhs.rawValue
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }

    private static let unknownCode = UInt8.max
    /// The names of ``allKnown``, in the same order.
    private static let knownNames = [
        "session.start", "session.end",
        "coordinator.start", "coordinator.coordinate", "coordinator.finish", "coordinator.deinit",
        "screen.push", "screen.pop", "screen.present", "screen.dismiss", "window.root", "tab.select",
        "presenter.init", "presenter.deinit", "viewmodel.change",
        "action", "deeplink", "error",
        "journal.dropped",
    ]
    private static let codes: [String: UInt8] = Dictionary(
        uniqueKeysWithValues: knownNames.enumerated().map { ($0.element, UInt8($0.offset)) })

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    public static func < (lhs: EventKind, rhs: EventKind) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether this kind is one of the kinds this version of navlog defines.
    public var isKnown: Bool { code != Self.unknownCode }

    // MARK: - Session

    public static let sessionStart = EventKind(known: "session.start")
    public static let sessionEnd = EventKind(known: "session.end")

    // MARK: - Coordinators

    public static let coordinatorStart = EventKind(known: "coordinator.start")
    public static let coordinatorCoordinate = EventKind(known: "coordinator.coordinate")
    public static let coordinatorFinish = EventKind(known: "coordinator.finish")
    public static let coordinatorDeinit = EventKind(known: "coordinator.deinit")

    // MARK: - Containers

    public static let screenPush = EventKind(known: "screen.push")
    public static let screenPop = EventKind(known: "screen.pop")
    public static let screenPresent = EventKind(known: "screen.present")
    public static let screenDismiss = EventKind(known: "screen.dismiss")
    public static let windowRoot = EventKind(known: "window.root")
    public static let tabSelect = EventKind(known: "tab.select")

    // MARK: - Presenters and view models

    public static let presenterInit = EventKind(known: "presenter.init")
    public static let presenterDeinit = EventKind(known: "presenter.deinit")
    public static let viewModelChange = EventKind(known: "viewmodel.change")

    // MARK: - Intents and failures

    public static let action = EventKind(known: "action")
    public static let deepLink = EventKind(known: "deeplink")
    public static let error = EventKind(known: "error")

    // MARK: - Journal bookkeeping

    /// Written by a journal writer when it had to drop events; the payload says how many and why.
    public static let journalDropped = EventKind(known: "journal.dropped")

    /// Every kind this version defines, in a stable order.
    public static let allKnown: [EventKind] = [
        .sessionStart, .sessionEnd,
        .coordinatorStart, .coordinatorCoordinate, .coordinatorFinish, .coordinatorDeinit,
        .screenPush, .screenPop, .screenPresent, .screenDismiss, .windowRoot, .tabSelect,
        .presenterInit, .presenterDeinit, .viewModelChange,
        .action, .deepLink, .error,
        .journalDropped,
    ]

    /// The kind named `name`: for a known kind, the shared constant above, whose name is a
    /// literal (copies cost no reference counting and compare by identity first).
    public static func named(_ name: String) -> EventKind {
        knownByName[name] ?? EventKind(rawValue: name)
    }

    private static let knownByName: [String: EventKind] = Dictionary(uniqueKeysWithValues: allKnown.map { ($0.rawValue, $0) })

    /// Whether this kind can change which screen the user sees (one of ``navigationKinds``).
    public var isNavigation: Bool {
        self == .screenPush || self == .screenPop || self == .screenPresent || self == .screenDismiss
            || self == .windowRoot || self == .tabSelect
    }

    /// The kinds that can change which screen the user sees.
    public static let navigationKinds: Set<EventKind> = [
        .screenPush, .screenPop, .screenPresent, .screenDismiss, .windowRoot, .tabSelect,
    ]
}
