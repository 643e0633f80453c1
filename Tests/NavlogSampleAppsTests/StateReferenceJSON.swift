import NavlogEvents
import NavlogRuntime

// A second computation of the state JSON, for the tests: the state's fields put into a
// `JSONValue` tree member by member (snake_case keys, nil members left out), whose
// `serialized()` sorts the keys. `NavigationState.write(to:)` must write the same text.

extension NavigationState {
    func referenceJSON() -> JSONValue {
        var members: [String: JSONValue] = [
            "session": .string(session),
            "window": window.referenceJSON(),
            "coordinators": .array(coordinators.map { $0.referenceJSON() }),
        ]
        if let visible { members["visible"] = visible.referenceJSON() }
        return .object(members)
    }
}

extension WindowState {
    func referenceJSON() -> JSONValue {
        var members: [String: JSONValue] = ["id": .string(id), "modals": .array(modals.map { $0.referenceJSON() })]
        if let root { members["root"] = root.referenceJSON() }
        if let visibleScreen { members["visible_screen"] = .string(visibleScreen) }
        return .object(members)
    }
}

extension ModalState {
    func referenceJSON() -> JSONValue {
        var members: [String: JSONValue] = ["style": .string(style.rawValue), "content": content.referenceJSON()]
        if let over { members["over"] = .string(over) }
        return .object(members)
    }
}

extension ContainerState {
    func referenceJSON() -> JSONValue {
        var members: [String: JSONValue] = [
            "kind": .string(kind.rawValue), "id": .string(id), "screens": .array(screens.map { .string($0) }),
        ]
        if let tabs {
            members["tabs"] = .array(tabs.map { .object(["title": .string($0.title), "stack": $0.stack.referenceJSON()]) })
        }
        if let selectedTab { members["selected_tab"] = .string(selectedTab) }
        return .object(members)
    }
}

extension ScreenState {
    func referenceJSON() -> JSONValue {
        var members: [String: JSONValue] = ["id": .string(id), "elements": elements.referenceJSON()]
        if let owner { members["owner"] = .string(owner) }
        return .object(members)
    }
}

extension CoordinatorState {
    func referenceJSON() -> JSONValue {
        .object(["id": .string(id), "children": .array(children.map { $0.referenceJSON() })])
    }
}

extension Element {
    func referenceJSON() -> JSONValue {
        var members: [String: JSONValue] = ["role": .string(role.rawValue)]
        if let id { members["id"] = .string(id) }
        if let text { members["text"] = .string(text) }
        if let detail { members["detail"] = .string(detail) }
        if let value { members["value"] = .string(value) }
        if let isOn { members["is_on"] = .bool(isOn) }
        if let isPrivate { members["is_private"] = .bool(isPrivate) }
        if let children { members["children"] = .array(children.map { $0.referenceJSON() }) }
        return .object(members)
    }
}
