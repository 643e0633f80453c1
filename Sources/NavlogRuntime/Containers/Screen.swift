import NavlogEvents

/// Whoever shows a screen and must hear when it goes away: a coordinator or a VIPER router.
public protocol ScreenOwner: AnyObject {
    /// The owner's instance name; the subject of the events about its screens.
    var id: String { get }
    /// Called when one of the owner's screens leaves the window, however that happened.
    func screenDidLeave(_ screen: Screen, reason: RemovalReason)
}

/// Why a screen left the window.
public enum RemovalReason: String, Codable, Sendable {
    /// Popped by code (`pop`, `popToRoot`, `pop(to:)`, `setScreens`).
    case popped = "pop"
    /// Popped by the system's back button or edge swipe, without asking the coordinator.
    case userBack = "user_back"
    /// Dismissed by code.
    case dismissed = "dismiss"
    /// Swiped down by the user, without asking the coordinator.
    case userSwipe = "user_swipe"
    /// Replaced as the window's root, or the session ended.
    case replaced = "replace"
}

/// A headless screen: the runtime's view controller. It hosts one ``ScreenView`` and knows
/// who owns it.
///
/// The screen keeps its view alive, and the view usually keeps its presenter alive, so popping
/// the screen deallocates the whole module unless something else holds on to it.
public final class Screen: Presentable {
    public let context: NavigationContext
    /// The instance name, such as `Detail#1`.
    public let id: String
    /// The screen's type name, such as `Detail`.
    public let name: String
    /// The view the screen hosts.
    public let view: any ScreenView
    /// The coordinator or router that shows this screen; told when it leaves.
    public private(set) weak var owner: (any ScreenOwner)?
    /// The presenters and models bound to the screen's view, by instance name.
    public let boundIDs: [String]
    /// Whether the screen is currently in the window.
    public internal(set) var isShown = false
    /// Its first display: whether it appeared, and its `screen.ready` (Screen+Readiness.swift).
    var readiness = ScreenReadinessState()

    /// Creates a screen named after `name` (`Detail` gives `Detail#1`) hosting `view`.
    public init(name: String, view: any ScreenView, owner: (any ScreenOwner)?, context: NavigationContext) {
        self.context = context
        self.name = name
        self.id = context.makeInstanceName(for: name)
        self.view = view
        self.owner = owner
        let bound = view.boundObjects
        self.boundIDs = bound.map(\.id)
        for object in bound { object.bind(to: self) }
        view.didAttach(to: self)
    }

    /// The subject of events about this screen: its owner, or the screen itself.
    var eventSubject: String { owner?.id ?? id }

    /// Payload fields that introduce the screen: the presenters and models bound to it.
    var introduction: [String: JSONValue] {
        boundIDs.isEmpty ? [:] : ["bound": .array(boundIDs.map { .string($0) })]
    }

    /// Renders the screen's current elements.
    public func render() -> Element { view.render() }

    // MARK: - Presentable

    public var visibleScreen: Screen? { self }
    public var activeStack: NavigationStack? { nil }
    public var screens: [Screen] { [self] }

    public func state() -> ContainerState {
        ContainerState(kind: .screen, id: id, screens: [id])
    }

    // MARK: - Removal

    /// Marks the screen as gone and tells its owner.
    func didLeave(reason: RemovalReason) {
        isShown = false
        owner?.screenDidLeave(self, reason: reason)
    }
}
