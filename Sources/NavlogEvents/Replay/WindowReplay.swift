/// A model of one session's window, rebuilt from its navigation events alone, just detailed
/// enough to know the screen the user sees after each event.
///
/// - Stacks are known by id from `screen.push` / `screen.pop` (their `stack` payload), whether
///   or not they are in the window yet: apps fill a stack before making it the root.
/// - The window is a list of layers: the root, then each modal. A layer shows either a stack
///   (its top screen), a tab container (the stack of its selected tab) or a single screen.
/// - A tab container's selected stack is learnt from the screen `tab.select` and
///   `window.root` report as visible, since events name tabs by title, not by stack.
///
/// Generic over how events name things (``TrackedEvent/Name``): ``WindowReplay`` follows
/// ``Event``s by their strings, `WindowReplayOf<NameID>` ``InternedEvent``s by their ids. Its
/// methods are inlinable, so each module that uses it gets code for its own kind of name.
public struct WindowReplayOf<Name: Hashable & Sendable>: Sendable {
    /// One layer of the window: the root or a modal.
    @usableFromInline
    struct Layer: Sendable {
        /// The container id: a stack, a tab container or a screen.
        @usableFromInline var container: Name?
        /// The stack whose top the layer shows, if any.
        @usableFromInline var activeStack: Name?
        /// The screen the layer shows when it has no stack (a screen root or modal).
        @usableFromInline var screen: Name?

        @inlinable
        init(container: Name?, activeStack: Name? = nil, screen: Name? = nil) {
            self.container = container
            self.activeStack = activeStack
            self.screen = screen
        }
    }

    @inlinable
    public init() {}

    @usableFromInline var stacks: [Name: [Name]] = [:]
    @usableFromInline var stackOfScreen: [Name: Name] = [:]
    @usableFromInline var layers: [Layer] = []

    /// The screen the user sees: the top layer's.
    @inlinable
    public var visibleScreen: Name? {
        guard let top = layers.last else { return nil }
        if let stack = top.activeStack { return stacks[stack]?.last }
        return top.screen
    }

    // MARK: - Applying events

    /// Updates the model with a navigation event; other kinds are ignored.
    ///
    /// A root or presented container the payload does not name is the event's screen; with
    /// no screen either, it is no container (the empty string, for ``Event``s).
    @inlinable
    public mutating func apply<E: TrackedEvent>(_ event: E) where E.Name == Name {
        switch event.kind {
        case .screenPush:
            guard let screen = event.screenName, let stack = event.payloadName(.stack) else { return }
            stacks[stack, default: []].append(screen)
            stackOfScreen[screen] = stack
        case .screenPop:
            guard let screen = event.screenName, let stack = event.payloadName(.stack) ?? stackOfScreen[screen] else { return }
            if let index = stacks[stack]?.lastIndex(of: screen) {
                stacks[stack]?.remove(at: index)
            }
            stackOfScreen[screen] = nil
        case .windowRoot:
            let root = event.payloadName(.root) ?? event.screenName
            for layer in layers where layer.container != root { forget(layer) }
            layers = [makeLayer(container: root, visible: event.screenName)]
        case .screenPresent:
            let content = event.payloadName(.content) ?? event.screenName
            layers.append(makeLayer(container: content, visible: event.screenName))
        case .screenDismiss:
            // `level` is the number of modals left; layer 0 is the root.
            let remaining = event.payloadLevel.map { Int($0) + 1 } ?? layers.count - 1
            while layers.count > max(remaining, layers.isEmpty ? 0 : 1) {
                forget(layers.removeLast())
            }
            if visibleScreen == nil, let target = event.payloadName(.to), !layers.isEmpty {
                layers[layers.count - 1].screen = target
            }
        case .tabSelect:
            guard let tabs = event.payloadName(.tabs),
                let index = layers.lastIndex(where: { $0.container == tabs })
            else { return }
            layers[index].activeStack = event.screenName.flatMap { stackOfScreen[$0] }
            layers[index].screen = layers[index].activeStack == nil ? event.screenName : nil
        default:
            return
        }
    }

    // MARK: - Layers

    /// A layer for `container`, which the event says shows `visible`.
    @inlinable
    func makeLayer(container: Name?, visible: Name?) -> Layer {
        if let container, stacks[container] != nil { return Layer(container: container, activeStack: container) }
        if let visible, visible != container, let stack = stackOfScreen[visible] {
            return Layer(container: container, activeStack: stack)
        }
        return Layer(container: container, screen: visible)
    }

    /// Drops what a layer that left the window held, so the model stays as small as the window.
    @inlinable
    mutating func forget(_ layer: Layer) {
        guard let stack = layer.activeStack, stack == layer.container, let screens = stacks[stack] else { return }
        for screen in screens { stackOfScreen[screen] = nil }
        stacks[stack] = nil
    }
}

/// The window model of ``Event``s, which name things with strings.
public typealias WindowReplay = WindowReplayOf<String>
