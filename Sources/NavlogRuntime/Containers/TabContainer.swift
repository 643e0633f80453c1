import Foundation

/// A headless tab container (`UITabBarController`, SwiftUI `TabView`): each tab has its own
/// navigation stack, which keeps its screens while other tabs are selected.
public final class TabContainer: Presentable {
    /// One tab: a title and the stack it shows.
    public struct Tab {
        public let title: String
        public let stack: NavigationStack

        public init(title: String, stack: NavigationStack) {
            self.title = title
            self.stack = stack
        }
    }

    public let context: NavigationContext
    public let id: String
    public private(set) var tabs: [Tab]
    public private(set) var selectedIndex: Int
    /// The coordinator that owns the tab bar; the subject of `tab.select`.
    public private(set) weak var owner: (any ScreenOwner)?

    /// Creates a tab container with `tabs`, the first selected.
    public init(context: NavigationContext, tabs: [Tab], owner: (any ScreenOwner)? = nil, name: String = "TabContainer") {
        self.context = context
        self.id = context.makeInstanceName(for: name)
        self.tabs = tabs
        self.owner = owner
        self.selectedIndex = 0
    }

    public var selectedTab: Tab? { tabs.indices.contains(selectedIndex) ? tabs[selectedIndex] : nil }

    // MARK: - Presentable

    public var visibleScreen: Screen? { selectedTab?.stack.visibleScreen }
    public var activeStack: NavigationStack? { selectedTab?.stack }
    public var screens: [Screen] { tabs.flatMap(\.stack.screens) }

    public func state() -> ContainerState {
        ContainerState(
            kind: .tabs, id: id,
            screens: visibleScreen.map { [$0.id] } ?? [],
            tabs: tabs.map { TabState(title: $0.title, stack: $0.stack.state()) },
            selectedTab: selectedTab?.title
        )
    }

    // MARK: - Selecting

    /// Selects the tab titled `title` (case-insensitive). Selecting the current tab records
    /// nothing; each stack keeps its screens.
    public func select(_ title: String) throws {
        guard let index = tabs.firstIndex(where: { $0.title.caseInsensitiveCompare(title) == .orderedSame }) else {
            throw context.fail(
                .unknownTab(container: id, requested: title, available: tabs.map(\.title)),
                subject: owner?.id ?? id, screen: visibleScreen?.id
            )
        }
        try select(index: index)
    }

    /// Performs the user's tap on a tab bar item: records the intent as an `action` (element
    /// `system.tab`, the title as value), then selects the tab under it.
    public func userSelect(_ title: String) throws {
        guard let index = tabs.firstIndex(where: { $0.title.caseInsensitiveCompare(title) == .orderedSame }) else {
            try select(title)
            return
        }
        guard let screenID = visibleScreen?.id else {
            try select(index: index)
            return
        }
        let intent = context.recordSystemAction("system.tab", onScreen: screenID, value: tabs[index].title)
        try context.withCause(intent) { try select(index: index) }
    }

    /// Selects the tab at `index`.
    public func select(index: Int) throws {
        guard tabs.indices.contains(index) else {
            throw context.fail(
                .unknownTab(container: id, requested: String(index), available: tabs.map(\.title)),
                subject: owner?.id ?? id, screen: visibleScreen?.id
            )
        }
        guard index != selectedIndex else { return }
        let previous = selectedTab?.title
        selectedIndex = index
        context.record(
            .tabSelect, subject: owner?.id ?? id, screen: visibleScreen?.id,
            payload: [
                "tabs": .string(id), "tab": .string(tabs[index].title), "index": .int(Int64(index)),
                "from": previous.map { .string($0) } ?? .null,
            ]
        )
        context.window.visibilityMayHaveChanged()
    }
}
