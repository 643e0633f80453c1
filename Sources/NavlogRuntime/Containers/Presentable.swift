import NavlogEvents

/// Anything that can be a window's root or a modal's content: a screen, a navigation stack or
/// a tab container.
public protocol Presentable: AnyObject {
    /// The instance name, such as `NavigationStack#1`.
    var id: String { get }
    /// The screen the user sees in this container, ignoring modals over it.
    var visibleScreen: Screen? { get }
    /// The stack the system back button acts on, if any.
    var activeStack: NavigationStack? { get }
    /// Every screen the container holds, in order.
    var screens: [Screen] { get }
    /// A serializable description of the container.
    func state() -> ContainerState
}

/// A serializable description of a container and what it holds.
public struct ContainerState: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case screen, stack, tabs
    }

    public var kind: Kind
    public var id: String
    /// For a stack, its screens bottom to top; for a screen, itself.
    public var screens: [String]
    /// For a tab container, each tab's title and stack.
    public var tabs: [TabState]?
    /// For a tab container, the selected tab's title.
    public var selectedTab: String?

    public init(kind: Kind, id: String, screens: [String] = [], tabs: [TabState]? = nil, selectedTab: String? = nil) {
        self.kind = kind
        self.id = id
        self.screens = screens
        self.tabs = tabs
        self.selectedTab = selectedTab
    }
}

/// One tab of a tab container.
public struct TabState: Equatable, Sendable {
    public var title: String
    public var stack: ContainerState
}

extension Presentable {
    /// Marks every screen of the container as shown.
    func markShown() {
        for screen in screens { screen.isShown = true }
    }

    /// Marks every screen of the container as gone, top first, and tells their owners.
    func notifyRemoval(reason: RemovalReason) {
        for screen in screens.reversed() { screen.didLeave(reason: reason) }
    }
}
