
/// One node of what a headless view renders: text, a button, a list, a spinner, a toggle,
/// a text field, an image, or a group of elements.
///
/// Elements with an id can be addressed by actions: buttons and list items are tapped,
/// toggles flipped, text fields given text. ``write(to:)`` writes the tree as JSON, which is how
/// it travels over HTTP, and ``textTree()`` prints it for people.
public struct Element: Equatable, Sendable {
    public enum Role: String, Sendable {
        case text, button, list, item, spinner, toggle, image, group
        case textField = "text_field"

        /// Whether an action can address an element of this role.
        public var isActionable: Bool {
            switch self {
            case .button, .item, .toggle, .textField: true
            default: false
            }
        }
    }

    public var role: Role
    public var id: String?
    /// The text, title, placeholder or image name.
    public var text: String?
    /// A secondary line, such as a list item's subtitle.
    public var detail: String?
    /// A text field's content.
    public var value: String?
    /// A toggle's state, or whether a spinner spins.
    public var isOn: Bool?
    /// A list's items or a group's members.
    public var children: [Element]?
    /// Whether what is entered into this text field is private: `action` events then carry
    /// its value marked, and the journal stores a keyed hash or nothing (see ``PrivateFields``).
    public var isPrivate: Bool?

    public init(
        role: Role, id: String? = nil, text: String? = nil, detail: String? = nil,
        value: String? = nil, isOn: Bool? = nil, children: [Element]? = nil, isPrivate: Bool? = nil
    ) {
        self.role = role
        self.id = id
        self.text = text
        self.detail = detail
        self.value = value
        self.isOn = isOn
        self.children = children
        self.isPrivate = isPrivate
    }

    // MARK: - Factories

    public static func text(_ text: String, id: String? = nil) -> Element {
        Element(role: .text, id: id, text: text)
    }

    public static func button(_ id: String, title: String) -> Element {
        Element(role: .button, id: id, text: title)
    }

    public static func list(_ id: String, items: [Element]) -> Element {
        Element(role: .list, id: id, children: items)
    }

    public static func item(_ id: String, title: String, detail: String? = nil) -> Element {
        Element(role: .item, id: id, text: title, detail: detail)
    }

    public static func spinner(isSpinning: Bool, id: String? = nil) -> Element {
        Element(role: .spinner, id: id, isOn: isSpinning)
    }

    public static func toggle(_ id: String, title: String, isOn: Bool) -> Element {
        Element(role: .toggle, id: id, text: title, isOn: isOn)
    }

    /// A text field; `isPrivate` protects what is entered into it in the journal.
    public static func textField(_ id: String, placeholder: String, value: String, isPrivate: Bool = false) -> Element {
        Element(role: .textField, id: id, text: placeholder, value: value, isPrivate: isPrivate ? true : nil)
    }

    public static func image(_ name: String, id: String? = nil) -> Element {
        Element(role: .image, id: id, text: name)
    }

    public static func group(_ children: [Element], id: String? = nil) -> Element {
        Element(role: .group, id: id, children: children)
    }

    // MARK: - Queries

    /// Every element of the tree, depth first, this one included.
    public var allElements: [Element] {
        [self] + (children ?? []).flatMap(\.allElements)
    }

    /// The first element with `id`, depth first.
    public func element(withID id: String) -> Element? {
        if self.id == id { return self }
        guard let children else { return nil }
        for index in children.indices {  // by index: each child is read in place, not copied out
            if let found = children[index].element(withID: id) { return found }
        }
        return nil
    }

    /// The ids of the elements an action can address, in tree order.
    public var actionableIDs: [String] {
        allElements.compactMap { $0.role.isActionable ? $0.id : nil }
    }

    /// Every text the tree shows (texts, titles, items, values), in order.
    public var visibleTexts: [String] {
        allElements.flatMap { element -> [String] in
            switch element.role {
            case .text, .button, .item, .toggle: [element.text, element.detail].compactMap { $0 }
            case .textField: [element.value].compactMap { $0 }
            default: []
            }
        }
    }

    // MARK: - Text form

    /// Renders the tree as indented text, one element a line:
    ///
    /// ```
    /// group
    ///   text "Tuesday, 1 Dec 2026"
    ///   button [showDetail] "Show detail"
    /// ```
    public func textTree(indent: Int = 0) -> String {
        var lines: [String] = []
        appendLines(to: &lines, depth: indent)
        return lines.joined(separator: "\n")
    }

    private func appendLines(to lines: inout [String], depth: Int) {
        var line = String(repeating: "  ", count: depth) + role.rawValue
        if let id { line += " [\(id)]" }
        if let text { line += " \"\(text)\"" }
        if let detail { line += " — \(detail)" }
        if role == .textField { line += " = \"\(value ?? "")\"" }
        if let isOn { line += role == .spinner ? (isOn ? " (spinning)" : " (stopped)") : (isOn ? " on" : " off") }
        lines.append(line)
        for child in children ?? [] { child.appendLines(to: &lines, depth: depth + 1) }
    }
}
