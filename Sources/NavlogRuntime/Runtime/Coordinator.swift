import NavlogEvents

/// A coordinator: it holds the navigation logic of one flow and nothing else.
///
/// Subclasses show their first screen in ``didStart()``. The runtime records every step:
/// `coordinator.coordinate` on the parent, `coordinator.start`, `coordinator.finish` and
/// `coordinator.deinit` when the object goes away, so leaks show in the event stream.
///
/// ```swift
/// final class DetailCoordinator: Coordinator {
///     let stack: NavigationStack
///     init(context: NavigationContext, stack: NavigationStack) { … }
///     override func didStart() throws {
///         let screen = DetailFactory.make(with: self)
///         finishes(with: screen)      // finish when the user goes back
///         try stack.push(screen)
///     }
/// }
/// ```
open class Coordinator: ScreenOwner {
    public let context: NavigationContext
    /// The instance name, such as `DetailCoordinator#2`.
    public let id: String
    /// The coordinator that coordinated to this one. Weak: a child never keeps its parent alive.
    public private(set) weak var parent: Coordinator?
    /// The children this coordinator started, in order.
    public private(set) var children: [Coordinator] = []
    public private(set) var isStarted = false
    public private(set) var isFinished = false
    private weak var lifetimeScreen: Screen?

    public init(context: NavigationContext) {
        self.context = context
        self.id = context.makeInstanceName(for: InstanceID.typeName(of: type(of: self)))
    }

    deinit {
        context.record(.coordinatorDeinit, subject: id, cause: nil)
    }

    // MARK: - Lifecycle

    /// Starts the coordinator: records `coordinator.start`, then calls ``didStart()``.
    public final func start() throws {
        guard !isFinished else { throw context.fail(.coordinatorFinished(coordinator: id), subject: id) }
        guard !isStarted else { throw context.fail(.alreadyStarted(coordinator: id), subject: id) }
        isStarted = true
        let event = context.record(.coordinatorStart, subject: id, parent: parent?.id)
        try context.withCause(event) { try didStart() }
    }

    /// Shows the coordinator's first screen; override it. Events recorded here are caused by
    /// the `coordinator.start` event.
    open func didStart() throws {}

    /// Sets `child`'s parent to this coordinator, adds it to ``children`` and starts it.
    public final func coordinate(to child: Coordinator) throws {
        guard !isFinished else { throw context.fail(.coordinatorFinished(coordinator: id), subject: id) }
        if let existing = child.parent {
            throw context.fail(.alreadyHasParent(child: child.id, parent: existing.id), subject: id)
        }
        guard !child.isStarted, !child.isFinished else {
            throw context.fail(.alreadyStarted(coordinator: child.id), subject: id)
        }
        let event = context.record(.coordinatorCoordinate, subject: id, payload: ["child": .string(child.id)])
        child.parent = self
        children.append(child)
        do {
            try context.withCause(event) { try child.start() }
        } catch {
            // A child that could not start is not kept: the parent stays as it was.
            children.removeAll { $0 === child }
            child.parent = nil
            throw error
        }
    }

    /// Finishes the coordinator: its children first (last started first), then itself, and
    /// removes it from its parent. Finishing twice does nothing.
    public final func finish() {
        guard !isFinished else { return }
        isFinished = true
        for child in children.reversed() {
            child.finish()
        }
        let event = context.record(.coordinatorFinish, subject: id, parent: parent?.id)
        context.withCause(event) { didFinish() }
        parent?.removeChild(self)
    }

    /// Cleans up after the coordinator finished; override it.
    open func didFinish() {}

    private func removeChild(_ child: Coordinator) {
        children.removeAll { $0 === child }
    }

    // MARK: - Screens

    /// Ties the coordinator's life to `screen`: when the screen leaves the window for any
    /// reason (the coordinator's own pop, the user's back button or swipe, a parent's pop to
    /// root), the coordinator finishes.
    public final func finishes(with screen: Screen) {
        lifetimeScreen = screen
    }

    /// Called when a screen this coordinator owns leaves the window, however that happened.
    /// The default finishes the coordinator when the screen is the one it ``finishes(with:)``;
    /// overrides should call `super`.
    open func screenDidLeave(_ screen: Screen, reason: RemovalReason) {
        if screen === lifetimeScreen, !isFinished {
            finish()
        }
    }
}
