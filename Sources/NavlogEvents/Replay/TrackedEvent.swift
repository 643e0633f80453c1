/// What the session trackers (``WindowReplay``, ``ScreenVisitTracker``, ``SessionScan``) read
/// of an event, whatever form it comes in.
///
/// ``Event`` names instances, screens, stacks and containers with strings. ``InternedEvent``
/// names them with ids of a ``NameTable``: copying one costs no reference counting, and the
/// trackers hash integers instead of strings. That is the form `navlog report` reads journals
/// into, since millions of events go through the trackers there.
public protocol TrackedEvent {
    /// How the event names things: `String`, or ``NameID``.
    associatedtype Name: Hashable & Sendable
    /// How it hands out a list of names: an array slice, or a buffer the event points into.
    associatedtype Names: RandomAccessCollection<Name>

    var kind: EventKind { get }
    var sessionSeq: UInt64 { get }
    var cause: UInt64? { get }
    var wallNanoseconds: Int64 { get }
    var monotonicNanoseconds: UInt64 { get }
    /// The instance the event is about.
    var subjectName: Name { get }
    /// The screen the event concerns, when there is one.
    var screenName: Name? { get }
    /// The subject that caused this one.
    var parentName: Name? { get }
    /// The payload member `member` when it is a string; nil when it is absent or anything else.
    func payloadName(_ member: PayloadMember) -> Name?
    /// The strings of payload member `member` when it is an array (its other elements left
    /// out); nil when it is absent or not an array.
    func payloadNames(_ member: PayloadMember) -> Names?
    /// The payload's `level` when it is an integer (``JSONValue/intValue``).
    var payloadLevel: Int64? { get }
}

/// The payload members the trackers read: every one of them names something.
public enum PayloadMember: Sendable, CaseIterable {
    /// `screen.push`, `screen.pop`: the stack.
    case stack
    /// `window.root`, and the shown screens' container: the root container.
    case root
    /// `screen.present`: the presented container.
    case content
    /// `screen.dismiss`: the screen shown after it.
    case to
    /// `tab.select`: the tab container.
    case tabs
    /// `coordinator.coordinate`: the child coordinator.
    case child
    /// `screen.ready`: `loaded`, `empty` or `failed`.
    case outcome
    /// `session.start`: the app.
    case app
    /// `viewmodel.change`: the view model's type.
    case viewModel
    /// Screens a navigation event took off (a list).
    case removed
    /// Presenters and models bound to the screen shown (a list).
    case bound
    /// `viewmodel.change`: the fields it changed (a list).
    case changed

    /// The member's name in the payload.
    public var key: String {
        switch self {
        case .stack: "stack"
        case .root: "root"
        case .content: "content"
        case .to: "to"
        case .tabs: "tabs"
        case .child: "child"
        case .outcome: "outcome"
        case .app: "app"
        case .viewModel: "viewmodel"
        case .removed: "removed"
        case .bound: "bound"
        case .changed: "changed"
        }
    }
}

extension Event: TrackedEvent {
    public typealias Name = String

    @inlinable public var subjectName: String { subject }
    @inlinable public var screenName: String? { screen }
    @inlinable public var parentName: String? { parent }

    @inlinable
    public func payloadName(_ member: PayloadMember) -> String? {
        payload[member.key]?.stringValue
    }

    @inlinable
    public func payloadNames(_ member: PayloadMember) -> ArraySlice<String>? {
        payload[member.key]?.arrayValue.map { $0.compactMap(\.stringValue)[...] }
    }

    @inlinable public var payloadLevel: Int64? { payload["level"]?.intValue }
}
