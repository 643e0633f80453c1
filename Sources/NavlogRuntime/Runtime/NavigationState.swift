
/// A picture of a session: the window's containers, stacks and modals, and the visible
/// screen's rendered elements. ``write(to:)`` writes it as the JSON navlogd answers with
/// (docs/openapi.yaml's `State`).
public struct NavigationState: Equatable, Sendable {
    public var session: String
    public var window: WindowState
    /// The visible screen's rendered elements.
    public var visible: ScreenState?
    /// The coordinator tree, roots first.
    public var coordinators: [CoordinatorState]

    public init(session: String, window: WindowState, visible: ScreenState?, coordinators: [CoordinatorState]) {
        self.session = session
        self.window = window
        self.visible = visible
        self.coordinators = coordinators
    }
}

/// One screen's rendered elements.
public struct ScreenState: Equatable, Sendable {
    public var id: String
    public var owner: String?
    public var elements: Element
}

/// One coordinator and its children.
public struct CoordinatorState: Equatable, Sendable {
    public var id: String
    public var children: [CoordinatorState]
}

extension NavigationContext {
    /// Returns a picture of the session now.
    public func state() -> NavigationState {
        func describe(_ coordinator: Coordinator) -> CoordinatorState {
            CoordinatorState(id: coordinator.id, children: coordinator.children.map(describe))
        }
        return NavigationState(
            session: session,
            window: window.state(),
            visible: window.visibleScreen.map { ScreenState(id: $0.id, owner: $0.owner?.id, elements: $0.render()) },
            coordinators: launchedCoordinators.map(describe)
        )
    }
}
