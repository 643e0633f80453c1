/// A model of one session's window, rebuilt from its navigation events alone, just detailed
/// enough to know the screen the user sees after each event.
///
/// - Stacks are known by id from `screen.push` / `screen.pop` (their `stack` payload), whether
///   or not they are in the window yet: apps fill a stack before making it the root.
/// - The window is a list of layers: the root, then each modal. A layer shows either a stack
///   (its top screen), a tab container (the stack of its selected tab) or a single screen.
/// - A tab container's selected stack is learnt from the screen `tab.select` and
///   `window.root` report as visible, since events name tabs by title, not by stack.
public struct WindowReplay: Sendable {
    /// One layer of the window: the root or a modal.
    struct Layer: Sendable {
        /// The container id: a stack, a tab container or a screen.
        var container: String
        /// The stack whose top the layer shows, if any.
        var activeStack: String?
        /// The screen the layer shows when it has no stack (a screen root or modal).
        var screen: String?
    }

    public init() {}

    private(set) var stacks: [String: [String]] = [:]
    private var stackOfScreen: [String: String] = [:]
    private(set) var layers: [Layer] = []

    /// The screen the user sees: the top layer's.
    public var visibleScreen: String? {
        guard let top = layers.last else { return nil }
        if let stack = top.activeStack { return stacks[stack]?.last }
        return top.screen
    }

    // MARK: - Applying events

    /// Updates the model with a navigation event; other kinds are ignored.
    public mutating func apply(_ event: Event) {
        let payload = event.payload
        switch event.kind {
        case .screenPush:
            guard let screen = event.screen, let stack = payload["stack"]?.stringValue else { return }
            stacks[stack, default: []].append(screen)
            stackOfScreen[screen] = stack
        case .screenPop:
            guard let screen = event.screen, let stack = payload["stack"]?.stringValue ?? stackOfScreen[screen] else { return }
            if let index = stacks[stack]?.lastIndex(of: screen) {
                stacks[stack]?.remove(at: index)
            }
            stackOfScreen[screen] = nil
        case .windowRoot:
            let root = payload["root"]?.stringValue ?? event.screen ?? ""
            for layer in layers where layer.container != root { forget(layer) }
            layers = [makeLayer(container: root, visible: event.screen)]
        case .screenPresent:
            let content = payload["content"]?.stringValue ?? event.screen ?? ""
            layers.append(makeLayer(container: content, visible: event.screen))
        case .screenDismiss:
            // `level` is the number of modals left; layer 0 is the root.
            let remaining = payload["level"]?.intValue.map { Int($0) + 1 } ?? layers.count - 1
            while layers.count > max(remaining, layers.isEmpty ? 0 : 1) {
                forget(layers.removeLast())
            }
            if visibleScreen == nil, let target = payload["to"]?.stringValue, !layers.isEmpty {
                layers[layers.count - 1].screen = target
            }
        case .tabSelect:
            guard let tabs = payload["tabs"]?.stringValue,
                let index = layers.lastIndex(where: { $0.container == tabs })
            else { return }
            layers[index].activeStack = event.screen.flatMap { stackOfScreen[$0] }
            layers[index].screen = layers[index].activeStack == nil ? event.screen : nil
        default:
            return
        }
    }

    // MARK: - Layers

    /// A layer for `container`, which the event says shows `visible`.
    private func makeLayer(container: String, visible: String?) -> Layer {
        if stacks[container] != nil { return Layer(container: container, activeStack: container) }
        if let visible, visible != container, let stack = stackOfScreen[visible] {
            return Layer(container: container, activeStack: stack)
        }
        return Layer(container: container, screen: visible)
    }

    /// Drops what a layer that left the window held, so the model stays as small as the window.
    private mutating func forget(_ layer: Layer) {
        guard let stack = layer.activeStack, stack == layer.container, let screens = stacks[stack] else { return }
        for screen in screens { stackOfScreen[screen] = nil }
        stacks[stack] = nil
    }
}
