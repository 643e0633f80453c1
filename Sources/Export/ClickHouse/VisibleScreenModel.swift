import Navigation

/// One session's window, rebuilt from its navigation events alone, just detailed enough to know
/// the screen the user sees after each event.
///
/// This follows the definition of docs/REPORT.md ("Visible screen") and must stay in step with
/// FlowAnalysis's `WindowModel`, which `Export` cannot import (the daemon links `Export`):
/// - stacks are known by id from `screen.push` / `screen.pop`, in the window or not yet;
/// - the window is a list of layers, the root then each modal, each showing a stack's top,
///   a tab container's selected stack or a single screen;
/// - a tab container's selected stack is learnt from the screen `tab.select` and
///   `window.root` report as visible.
struct VisibleScreenModel {
    private struct Layer {
        var container: String
        var activeStack: String?
        var screen: String?
    }

    private var stacks: [String: [String]] = [:]
    private var stackOfScreen: [String: String] = [:]
    private var layers: [Layer] = []

    /// The screen the user sees: the top layer's.
    var visibleScreen: String? {
        guard let top = layers.last else { return nil }
        if let stack = top.activeStack { return stacks[stack]?.last }
        return top.screen
    }

    /// Updates the model with a navigation event; other kinds are ignored.
    mutating func apply(_ event: Event) {
        let payload = event.payload
        switch event.kind {
        case .screenPush:
            guard let screen = event.screen, let stack = payload["stack"]?.stringValue else { return }
            stacks[stack, default: []].append(screen)
            stackOfScreen[screen] = stack
        case .screenPop:
            guard let screen = event.screen, let stack = payload["stack"]?.stringValue ?? stackOfScreen[screen] else { return }
            if let index = stacks[stack]?.lastIndex(of: screen) { stacks[stack]?.remove(at: index) }
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
            while layers.count > max(remaining, layers.isEmpty ? 0 : 1) { forget(layers.removeLast()) }
            if visibleScreen == nil, let target = payload["to"]?.stringValue, !layers.isEmpty {
                layers[layers.count - 1].screen = target
            }
        case .tabSelect:
            guard let tabs = payload["tabs"]?.stringValue, let index = layers.lastIndex(where: { $0.container == tabs }) else { return }
            layers[index].activeStack = event.screen.flatMap { stackOfScreen[$0] }
            layers[index].screen = layers[index].activeStack == nil ? event.screen : nil
        default:
            return
        }
    }

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
