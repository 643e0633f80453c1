import NavlogEvents

/// How a modal covers what is under it.
public enum PresentationStyle: String, Codable, Sendable {
    /// A card the user can swipe down (`.pageSheet`, SwiftUI `.sheet`).
    case sheet
    /// Covers everything; only code can dismiss it (`.fullScreen`, `.fullScreenCover`).
    case fullScreen = "full_screen"
}

/// A modal presented in the window.
public struct Modal {
    public let content: any Presentable
    public let style: PresentationStyle
    /// The screen that was visible when the modal was presented.
    public let presentedOver: Screen?
}

/// The session's headless window: a replaceable root and a chain of modals over it.
public final class Window {
    public unowned let context: NavigationContext
    public let id: String
    public private(set) var root: (any Presentable)?
    /// The modals, bottom first; each covers the ones before it.
    public private(set) var modals: [Modal] = []
    private weak var lastVisible: Screen?

    init(context: NavigationContext) {
        self.context = context
        self.id = context.makeInstanceName(for: "Window")
    }

    /// The screen the user sees: the top modal's, or the root's.
    public var visibleScreen: Screen? {
        if let modal = modals.last { return modal.content.visibleScreen }
        return root?.visibleScreen
    }

    /// The container the user is in: the top modal's content, or the root.
    public var topContainer: (any Presentable)? { modals.last?.content ?? root }

    /// Whether `container` is on the window now, as root, inside a tab or in a modal.
    public func contains(_ container: any Presentable) -> Bool {
        let candidates: [any Presentable] = (root.map { [$0] } ?? []) + modals.map(\.content)
        return candidates.contains { candidate in
            if candidate === container { return true }
            if let tabs = candidate as? TabContainer { return tabs.tabs.contains { $0.stack === container } }
            return false
        }
    }

    // MARK: - Root

    /// Replaces the root. Modals are dismissed first and the old root's screens leave; each
    /// one's owner is told.
    public func setRoot(_ newRoot: any Presentable, owner: (any ScreenOwner)? = nil) throws {
        if let screen = newRoot as? Screen, screen.isShown {
            throw context.fail(.screenAlreadyShown(screen: screen.id), subject: owner?.id ?? id, screen: screen.id)
        }
        while !modals.isEmpty { try removeTopModal(reason: .dismissed) }
        let old = root
        root = newRoot
        newRoot.markShown()
        let event = context.record(
            .windowRoot, subject: owner?.id ?? id, screen: newRoot.visibleScreen?.id,
            payload: .object(((newRoot as? Screen)?.introduction ?? [:]).merging(
                [
                    "window": .string(id), "root": .string(newRoot.id), "from": old.map { .string($0.id) } ?? .null,
                    "removed": .array((old?.screens ?? []).filter { $0 !== newRoot }.reversed().map { .string($0.id) }),
                ]
            ) { $1 })
        )
        if let old, old !== newRoot {
            context.withCause(event) { old.notifyRemoval(reason: .replaced) }
        }
        visibilityMayHaveChanged()
    }

    // MARK: - Modals

    /// Presents `content` over whatever is visible now, including another modal.
    public func present(_ content: any Presentable, style: PresentationStyle = .sheet, owner: (any ScreenOwner)? = nil) throws {
        if content.screens.contains(where: \.isShown) || contains(content) {
            throw context.fail(.screenAlreadyShown(screen: content.id), subject: owner?.id ?? id, screen: content.visibleScreen?.id)
        }
        let over = visibleScreen
        modals.append(Modal(content: content, style: style, presentedOver: over))
        content.markShown()
        context.record(
            .screenPresent, subject: owner?.id ?? content.visibleScreen?.eventSubject ?? id,
            screen: content.visibleScreen?.id,
            payload: .object(((content as? Screen)?.introduction ?? [:]).merging([
                "style": .string(style.rawValue), "content": .string(content.id),
                "over": over.map { .string($0.id) } ?? .null, "level": .int(Int64(modals.count)),
            ]) { $1 })
        )
        visibilityMayHaveChanged()
    }

    /// Dismisses the top modal.
    public func dismiss() throws {
        guard !modals.isEmpty else { throw context.fail(.nothingPresented, subject: id, screen: visibleScreen?.id) }
        try removeTopModal(reason: .dismissed)
    }

    /// Dismisses every modal, top first, back to the root.
    public func dismissAll() throws {
        guard !modals.isEmpty else { throw context.fail(.nothingPresented, subject: id, screen: visibleScreen?.id) }
        while !modals.isEmpty { try removeTopModal(reason: .dismissed) }
    }

    /// Performs the user's swipe-down on the top modal, without asking the coordinator, which
    /// hears about it through ``ScreenOwner/screenDidLeave(_:reason:)``. Full-screen modals
    /// cannot be swiped.
    public func userSwipeDismiss() throws {
        guard let style = modals.last?.style, let screenID = modals.last?.content.visibleScreen?.id ?? modals.last?.content.id else {
            throw context.fail(.nothingPresented, subject: id, screen: visibleScreen?.id)
        }
        guard style == .sheet else {
            throw context.fail(.cannotSwipeDismissFullScreen(screen: screenID), subject: id, screen: screenID)
        }
        let intent = context.recordSystemAction("system.dismiss", onScreen: screenID)
        try context.withCause(intent) { try removeTopModal(reason: .userSwipe) }
    }

    /// Performs the system back button on what the user sees: pops the visible stack.
    public func userBack() throws {
        guard let container = topContainer, let screen = container.visibleScreen else {
            throw context.fail(.noVisibleScreen, subject: id)
        }
        guard let stack = container.activeStack else {
            throw context.fail(.noStack(screen: screen.id), subject: screen.eventSubject, screen: screen.id)
        }
        try stack.userBack()
    }

    private func removeTopModal(reason: RemovalReason) throws {
        let modal = modals.removeLast()
        let content = modal.content
        let removed = content.screens.reversed().map { JSONValue.string($0.id) }
        let event = context.record(
            .screenDismiss, subject: content.visibleScreen?.eventSubject ?? id, screen: content.visibleScreen?.id,
            payload: [
                "style": .string(modal.style.rawValue), "content": .string(content.id), "by": .string(reason.rawValue),
                "removed": .array(removed), "to": visibleScreen.map { .string($0.id) } ?? .null,
                "level": .int(Int64(modals.count)),
            ]
        )
        context.withCause(event) { content.notifyRemoval(reason: reason) }
        visibilityMayHaveChanged()
    }

    // MARK: - Appearance

    /// Calls ``ScreenView/didAppear()`` on the visible screen when it changed since the last
    /// call. Every container operation ends here, so a view hears each time it comes on top.
    func visibilityMayHaveChanged() {
        let current = visibleScreen
        guard current !== lastVisible else { return }
        lastVisible = current
        current?.view.didAppear()
        if !context.isInOperation { settleDisplay() }
    }

    /// The screen on top is what the user sees: at the end of an operation, or after a
    /// container step outside one. Records its `screen.ready` when it is due.
    func settleDisplay() {
        visibleScreen?.settleDisplay()
    }

    // MARK: - State

    /// A serializable description of the window.
    public func state() -> WindowState {
        WindowState(
            id: id, root: root?.state(),
            modals: modals.map { ModalState(style: $0.style, over: $0.presentedOver?.id, content: $0.content.state()) },
            visibleScreen: visibleScreen?.id
        )
    }

    /// Removes everything without events; used when the session ends.
    func tearDown() {
        let contents = modals.reversed().map(\.content) + (root.map { [$0] } ?? [])
        modals.removeAll()
        root = nil
        lastVisible = nil
        for content in contents {
            content.notifyRemoval(reason: .replaced)
        }
    }
}

/// A serializable description of the window.
public struct WindowState: Equatable, Sendable {
    public var id: String
    public var root: ContainerState?
    public var modals: [ModalState]
    public var visibleScreen: String?
}

/// A serializable description of one modal.
public struct ModalState: Equatable, Sendable {
    public var style: PresentationStyle
    public var over: String?
    public var content: ContainerState
}
