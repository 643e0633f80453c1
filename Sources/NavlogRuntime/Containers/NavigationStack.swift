
/// A headless navigation stack (`UINavigationController`, SwiftUI `NavigationStack`).
///
/// Every change records one event per screen that appears or leaves, and every screen that
/// leaves tells its owner, whoever asked for the change.
public final class NavigationStack: Presentable {
    public let context: NavigationContext
    public let id: String
    /// The screens, bottom (root) to top.
    public private(set) var stackScreens: [Screen] = []

    /// Creates an empty stack; a name such as `DashboardStack` makes ids like `DashboardStack#1`.
    public init(context: NavigationContext, name: String = "NavigationStack") {
        self.context = context
        self.id = context.makeInstanceName(for: name)
    }

    /// Whether the stack is inside the window now (as root, in a tab or in a modal).
    var isAttached: Bool { context.window.contains(self) }

    public var topScreen: Screen? { stackScreens.last }

    // MARK: - Presentable

    public var visibleScreen: Screen? { stackScreens.last }
    public var activeStack: NavigationStack? { self }
    public var screens: [Screen] { stackScreens }

    public func state() -> ContainerState {
        ContainerState(kind: .stack, id: id, screens: stackScreens.map(\.id))
    }

    // MARK: - Operations

    /// Pushes `screen` on top.
    public func push(_ screen: Screen) throws {
        guard !screen.isShown, !stackScreens.contains(where: { $0 === screen }) else {
            throw context.fail(.screenAlreadyShown(screen: screen.id), subject: screen.eventSubject, screen: screen.id)
        }
        stackScreens.append(screen)
        if isAttached { screen.isShown = true }
        context.record(
            .screenPush, subject: screen.eventSubject, screen: screen.id,
            payload: .object(screen.introduction.merging(["stack": .string(id), "depth": .int(Int64(stackScreens.count))]) { $1 })
        )
        context.window.visibilityMayHaveChanged()
    }

    /// Pops the top screen; the root screen is never popped.
    @discardableResult
    public func pop() throws -> Screen {
        guard stackScreens.count > 1 else {
            throw context.fail(.stackTooShallow(stack: id, count: stackScreens.count), subject: id, screen: topScreen?.id)
        }
        return try removeScreens(downTo: stackScreens.count - 1, reason: .popped)[0]
    }

    /// Pops every screen above the root.
    @discardableResult
    public func popToRoot() throws -> [Screen] {
        guard stackScreens.count > 1 else {
            throw context.fail(.stackTooShallow(stack: id, count: stackScreens.count), subject: id, screen: topScreen?.id)
        }
        return try removeScreens(downTo: 1, reason: .popped)
    }

    /// Pops every screen above `screen`, which stays on top.
    @discardableResult
    public func pop(to screen: Screen) throws -> [Screen] {
        guard let index = stackScreens.firstIndex(where: { $0 === screen }) else {
            throw context.fail(.screenNotInStack(screen: screen.id, stack: id), subject: id, screen: screen.id)
        }
        guard index < stackScreens.count - 1 else { return [] }
        return try removeScreens(downTo: index + 1, reason: .popped)
    }

    /// Replaces the whole stack with `screens`: screens that stay keep their place, the others
    /// are popped (top first) and the new ones pushed (bottom first).
    public func setScreens(_ newScreens: [Screen]) throws {
        guard !newScreens.isEmpty else {
            throw context.fail(.emptyStackNotAllowed(stack: id), subject: id, screen: topScreen?.id)
        }
        for screen in newScreens where screen.isShown && !stackScreens.contains(where: { $0 === screen }) {
            throw context.fail(.screenAlreadyShown(screen: screen.id), subject: id, screen: screen.id)
        }
        var kept = 0
        while kept < min(stackScreens.count, newScreens.count), stackScreens[kept] === newScreens[kept] { kept += 1 }
        if kept < stackScreens.count {
            try removeScreens(downTo: kept, reason: .popped)
        }
        for screen in newScreens[kept...] { try push(screen) }
    }

    /// Performs the system back button or edge swipe: records the user's intent as an
    /// `action` (element `system.back`), then pops the top screen without asking the
    /// coordinator, which hears about it through ``ScreenOwner/screenDidLeave(_:reason:)``.
    public func userBack() throws {
        guard stackScreens.count > 1, let topID = topScreen?.id else {
            throw context.fail(.stackTooShallow(stack: id, count: stackScreens.count), subject: id, screen: topScreen?.id)
        }
        let intent = context.recordSystemAction("system.back", onScreen: topID)
        try context.withCause(intent) {
            _ = try removeScreens(downTo: stackScreens.count - 1, reason: .userBack)
        }
    }

    // MARK: - Removal

    /// Removes the screens from the top down to index `bottom`, recording a pop for each and
    /// telling each owner, top first. Returns the removed screens, top first.
    @discardableResult
    func removeScreens(downTo bottom: Int, reason: RemovalReason) throws -> [Screen] {
        var removed: [Screen] = []
        while stackScreens.count > bottom {
            let screen = stackScreens.removeLast()
            removed.append(screen)
            let event = context.record(
                .screenPop, subject: screen.eventSubject, screen: screen.id,
                payload: [
                    "stack": .string(id), "by": .string(reason.rawValue),
                    "depth": .int(Int64(stackScreens.count)),
                    "to": stackScreens.last.map { .string($0.id) } ?? .null,
                ]
            )
            if screen.isShown {
                context.withCause(event) { screen.didLeave(reason: reason) }
            }
        }
        context.window.visibilityMayHaveChanged()
        return removed
    }
}
