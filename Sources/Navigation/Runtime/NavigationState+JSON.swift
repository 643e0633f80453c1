// MARK: - JSON without JSONEncoder
//
// The daemon answers every action with the session's state. These build the same JSON that
// the types' `Codable` conformances give (a test pins the equality), several times faster
// than going through `JSONEncoder`.

extension NavigationState {
    /// Returns the state as JSON, equal to what `JSONEncoder` makes of it.
    public func jsonValue() -> JSONValue {
        var members: [String: JSONValue] = [
            "session": .string(session),
            "window": window.jsonValue(),
            "coordinators": .array(coordinators.map { $0.jsonValue() }),
        ]
        if let visible { members["visible"] = visible.jsonValue() }
        return .object(members)
    }
}

extension WindowState {
    public func jsonValue() -> JSONValue {
        var members: [String: JSONValue] = ["id": .string(id), "modals": .array(modals.map { $0.jsonValue() })]
        if let root { members["root"] = root.jsonValue() }
        if let visibleScreen { members["visible_screen"] = .string(visibleScreen) }
        return .object(members)
    }
}

extension ModalState {
    public func jsonValue() -> JSONValue {
        var members: [String: JSONValue] = ["style": .string(style.rawValue), "content": content.jsonValue()]
        if let over { members["over"] = .string(over) }
        return .object(members)
    }
}

extension ContainerState {
    public func jsonValue() -> JSONValue {
        var members: [String: JSONValue] = [
            "kind": .string(kind.rawValue), "id": .string(id), "screens": .array(screens.map { .string($0) }),
        ]
        if let tabs {
            members["tabs"] = .array(tabs.map { .object(["title": .string($0.title), "stack": $0.stack.jsonValue()]) })
        }
        if let selectedTab { members["selected_tab"] = .string(selectedTab) }
        return .object(members)
    }
}

extension ScreenState {
    public func jsonValue() -> JSONValue {
        var members: [String: JSONValue] = ["id": .string(id), "elements": elements.jsonValue()]
        if let owner { members["owner"] = .string(owner) }
        return .object(members)
    }
}

extension CoordinatorState {
    public func jsonValue() -> JSONValue {
        .object(["id": .string(id), "children": .array(children.map { $0.jsonValue() })])
    }
}

extension Element {
    /// Returns the element as JSON, equal to what `JSONEncoder` makes of it.
    public func jsonValue() -> JSONValue {
        var members: [String: JSONValue] = ["role": .string(role.rawValue)]
        if let id { members["id"] = .string(id) }
        if let text { members["text"] = .string(text) }
        if let detail { members["detail"] = .string(detail) }
        if let value { members["value"] = .string(value) }
        if let isOn { members["is_on"] = .bool(isOn) }
        if let isPrivate { members["is_private"] = .bool(isPrivate) }
        if let children { members["children"] = .array(children.map { $0.jsonValue() }) }
        return .object(members)
    }
}
