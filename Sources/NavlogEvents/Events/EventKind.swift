/// The kind of a recorded event, by its stable, dot-separated external name.
///
/// The names are part of navlog's public interface: JSON output, filters and docs use them.
/// Kinds may be added; none is ever renamed. A reader meets unknown kinds written by a newer
/// navlog as plain names, so `EventKind` is a string wrapper rather than a closed enum.
public struct EventKind: RawRepresentable, Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String
    /// The kind's position in ``allKnown`` (a function of `rawValue`), or `unknownCode`:
    /// readers switch over kinds for every event, and comparing two known kinds compares
    /// these bytes instead of their names.
    @usableFromInline let code: UInt8

    /// A known name gives the constant below, whose name is a literal (copies cost no
    /// reference counting); any other name is kept as it is.
    public init(rawValue: String) {
        if let known = Self.knownByName[rawValue] {
            self = known
        } else {
            self.rawValue = rawValue
            self.code = Self.unknownCode
        }
    }

    /// A known kind from a literal name and its position in ``allKnown``: the constants
    /// below are computed, not stored, so reading one costs no lazy-initialization check.
    @inlinable
    init(known rawValue: String, code: UInt8) {
        self.rawValue = rawValue
        self.code = code
    }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    @inlinable
    public static func == (lhs: EventKind, rhs: EventKind) -> Bool {
        if lhs.code != unknownCode || rhs.code != unknownCode { return lhs.code == rhs.code }
        return lhs.rawValue == rhs.rawValue
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }

    @inlinable
    static var unknownCode: UInt8 { .max }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    public static func < (lhs: EventKind, rhs: EventKind) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether this kind is one of the kinds this version of navlog defines.
    @inlinable
    public var isKnown: Bool { code != Self.unknownCode }

    // MARK: - Session

    @inlinable public static var sessionStart: EventKind { EventKind(known: "session.start", code: 0) }
    @inlinable public static var sessionEnd: EventKind { EventKind(known: "session.end", code: 1) }

    // MARK: - Coordinators

    @inlinable public static var coordinatorStart: EventKind { EventKind(known: "coordinator.start", code: 2) }
    @inlinable public static var coordinatorCoordinate: EventKind { EventKind(known: "coordinator.coordinate", code: 3) }
    @inlinable public static var coordinatorFinish: EventKind { EventKind(known: "coordinator.finish", code: 4) }
    @inlinable public static var coordinatorDeinit: EventKind { EventKind(known: "coordinator.deinit", code: 5) }

    // MARK: - Containers

    @inlinable public static var screenPush: EventKind { EventKind(known: "screen.push", code: 6) }
    @inlinable public static var screenPop: EventKind { EventKind(known: "screen.pop", code: 7) }
    @inlinable public static var screenPresent: EventKind { EventKind(known: "screen.present", code: 8) }
    @inlinable public static var screenDismiss: EventKind { EventKind(known: "screen.dismiss", code: 9) }
    @inlinable public static var windowRoot: EventKind { EventKind(known: "window.root", code: 10) }
    @inlinable public static var tabSelect: EventKind { EventKind(known: "tab.select", code: 11) }

    // MARK: - Presenters and view models

    @inlinable public static var presenterInit: EventKind { EventKind(known: "presenter.init", code: 12) }
    @inlinable public static var presenterDeinit: EventKind { EventKind(known: "presenter.deinit", code: 13) }
    @inlinable public static var viewModelChange: EventKind { EventKind(known: "viewmodel.change", code: 14) }

    // MARK: - Intents and failures

    @inlinable public static var action: EventKind { EventKind(known: "action", code: 15) }
    @inlinable public static var deepLink: EventKind { EventKind(known: "deeplink", code: 16) }
    @inlinable public static var error: EventKind { EventKind(known: "error", code: 17) }

    // MARK: - Journal bookkeeping

    /// Written by a journal writer when it had to drop events; the payload says how many and why.
    @inlinable public static var journalDropped: EventKind { EventKind(known: "journal.dropped", code: 18) }

    // MARK: - Screen content

    /// A screen's content is fully displayed for the first time (loaded, empty or failed), as
    /// Sentry's time to full display marks it: `payload.outcome`. Screens with no
    /// asynchronous work are ready when they first appear.
    @inlinable public static var screenReady: EventKind { EventKind(known: "screen.ready", code: 19) }

    /// Every kind this version defines, in a stable order.
    public static let allKnown: [EventKind] = [
        .sessionStart, .sessionEnd,
        .coordinatorStart, .coordinatorCoordinate, .coordinatorFinish, .coordinatorDeinit,
        .screenPush, .screenPop, .screenPresent, .screenDismiss, .windowRoot, .tabSelect,
        .presenterInit, .presenterDeinit, .viewModelChange,
        .action, .deepLink, .error,
        .journalDropped,
        .screenReady,
    ]

    private static let knownByName: [String: EventKind] = Dictionary(uniqueKeysWithValues: allKnown.map { ($0.rawValue, $0) })

    /// Whether this kind can change which screen the user sees (one of ``navigationKinds``).
    @inlinable
    public var isNavigation: Bool {
        (EventKind.screenPush.code...EventKind.tabSelect.code).contains(code)
    }

    /// The kinds that can change which screen the user sees.
    public static let navigationKinds: Set<EventKind> = [
        .screenPush, .screenPop, .screenPresent, .screenDismiss, .windowRoot, .tabSelect,
    ]
}
