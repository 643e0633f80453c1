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

// MARK: - JSON straight to bytes
//
// The same text as `jsonValue().serialized()` (a test pins the equality for every sample
// app), written without building the `JSONValue` tree: no dictionaries, no sorting. Members
// are written in the order `serialized()` sorts them into.

extension NavigationState {
    /// Appends the state as compact JSON, byte for byte what `jsonValue().serialized()` gives.
    public func write(to output: inout [UInt8]) {
        var object = JSONObjectWriter(&output)
        object.key("coordinators", &output)
        writeArray(coordinators, to: &output) { $0.write(to: &$1) }
        object.key("session", &output)
        JSONValue.writeString(session, to: &output)
        if let visible {
            object.key("visible", &output)
            visible.write(to: &output)
        }
        object.key("window", &output)
        window.write(to: &output)
        object.end(&output)
    }
}

extension WindowState {
    func write(to output: inout [UInt8]) {
        var object = JSONObjectWriter(&output)
        object.key("id", &output)
        JSONValue.writeString(id, to: &output)
        object.key("modals", &output)
        writeArray(modals, to: &output) { $0.write(to: &$1) }
        if let root {
            object.key("root", &output)
            root.write(to: &output)
        }
        if let visibleScreen {
            object.key("visible_screen", &output)
            JSONValue.writeString(visibleScreen, to: &output)
        }
        object.end(&output)
    }
}

extension ModalState {
    func write(to output: inout [UInt8]) {
        var object = JSONObjectWriter(&output)
        object.key("content", &output)
        content.write(to: &output)
        if let over {
            object.key("over", &output)
            JSONValue.writeString(over, to: &output)
        }
        object.key("style", &output)
        JSONValue.writeString(style.rawValue, to: &output)
        object.end(&output)
    }
}

extension ContainerState {
    func write(to output: inout [UInt8]) {
        var object = JSONObjectWriter(&output)
        object.key("id", &output)
        JSONValue.writeString(id, to: &output)
        object.key("kind", &output)
        JSONValue.writeString(kind.rawValue, to: &output)
        object.key("screens", &output)
        writeArray(screens, to: &output) { JSONValue.writeString($0, to: &$1) }
        if let selectedTab {
            object.key("selected_tab", &output)
            JSONValue.writeString(selectedTab, to: &output)
        }
        if let tabs {
            object.key("tabs", &output)
            writeArray(tabs, to: &output) { tab, output in
                var member = JSONObjectWriter(&output)
                member.key("stack", &output)
                tab.stack.write(to: &output)
                member.key("title", &output)
                JSONValue.writeString(tab.title, to: &output)
                member.end(&output)
            }
        }
        object.end(&output)
    }
}

extension ScreenState {
    func write(to output: inout [UInt8]) {
        var object = JSONObjectWriter(&output)
        object.key("elements", &output)
        elements.write(to: &output)
        object.key("id", &output)
        JSONValue.writeString(id, to: &output)
        if let owner {
            object.key("owner", &output)
            JSONValue.writeString(owner, to: &output)
        }
        object.end(&output)
    }
}

extension CoordinatorState {
    func write(to output: inout [UInt8]) {
        var object = JSONObjectWriter(&output)
        object.key("children", &output)
        writeArray(children, to: &output) { $0.write(to: &$1) }
        object.key("id", &output)
        JSONValue.writeString(id, to: &output)
        object.end(&output)
    }
}

extension Element {
    /// Appends the element as compact JSON, byte for byte what `jsonValue().serialized()` gives.
    public func write(to output: inout [UInt8]) {
        var object = JSONObjectWriter(&output)
        if let children {
            object.key("children", &output)
            writeArray(children, to: &output) { $0.write(to: &$1) }
        }
        if let detail {
            object.key("detail", &output)
            JSONValue.writeString(detail, to: &output)
        }
        if let id {
            object.key("id", &output)
            JSONValue.writeString(id, to: &output)
        }
        if let isOn {
            object.key("is_on", &output)
            output += (isOn ? "true" : "false").utf8
        }
        if let isPrivate {
            object.key("is_private", &output)
            output += (isPrivate ? "true" : "false").utf8
        }
        object.key("role", &output)
        JSONValue.writeString(role.rawValue, to: &output)
        if let text {
            object.key("text", &output)
            JSONValue.writeString(text, to: &output)
        }
        if let value {
            object.key("value", &output)
            JSONValue.writeString(value, to: &output)
        }
        object.end(&output)
    }
}

/// Writes one JSON object's members, separated by commas; the caller gives the keys in the
/// sorted order `JSONValue.serialized()` uses.
private struct JSONObjectWriter {
    private var isFirst = true

    init(_ output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
    }

    /// Starts the member `name` (plain ASCII, needing no escapes).
    mutating func key(_ name: StaticString, _ output: inout [UInt8]) {
        if !isFirst { output.append(UInt8(ascii: ",")) }
        isFirst = false
        output.append(UInt8(ascii: "\""))
        output.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        output.append(UInt8(ascii: "\""))
        output.append(UInt8(ascii: ":"))
    }

    func end(_ output: inout [UInt8]) {
        output.append(UInt8(ascii: "}"))
    }
}

/// Appends `items` as a JSON array, each one written by `write`.
private func writeArray<Item>(_ items: [Item], to output: inout [UInt8], _ write: (Item, inout [UInt8]) -> Void) {
    output.append(UInt8(ascii: "["))
    for (index, item) in items.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        write(item, &output)
    }
    output.append(UInt8(ascii: "]"))
}
