import NavlogEvents

// MARK: - JSON straight to bytes
//
// The one way a state is serialized: compact JSON with snake_case keys in sorted order, as
// `JSONValue.serialized()` would print it, written without building a `JSONValue` tree (no
// dictionaries, no sorting) into a raw buffer: the daemon answers every action with the
// state, a few hundred small appends, and each append to an `Array` checks uniqueness and
// capacity. Optional members that are nil are left out.

extension NavigationState {
    /// Appends the state as compact JSON, keys sorted (docs/openapi.yaml's `State`).
    public func write(to output: inout [UInt8]) {
        var buffer = JSONByteBuffer(capacity: 2048)
        write(to: &buffer)
        buffer.copy(to: &output)
    }

    func write(to output: inout JSONByteBuffer) {
        output.append("{\"coordinators\":")
        output.appendArray(coordinators) { $0.write(to: &$1) }
        output.append(",\"session\":")
        output.appendString(session)
        if let visible {
            output.append(",\"visible\":")
            visible.write(to: &output)
        }
        output.append(",\"window\":")
        window.write(to: &output)
        output.append("}")
    }
}

extension WindowState {
    func write(to output: inout JSONByteBuffer) {
        output.append("{\"id\":")
        output.appendString(id)
        output.append(",\"modals\":")
        output.appendArray(modals) { $0.write(to: &$1) }
        if let root {
            output.append(",\"root\":")
            root.write(to: &output)
        }
        if let visibleScreen {
            output.append(",\"visible_screen\":")
            output.appendString(visibleScreen)
        }
        output.append("}")
    }
}

extension ModalState {
    func write(to output: inout JSONByteBuffer) {
        output.append("{\"content\":")
        content.write(to: &output)
        if let over {
            output.append(",\"over\":")
            output.appendString(over)
        }
        output.append(",\"style\":")
        output.appendString(style.rawValue)
        output.append("}")
    }
}

extension ContainerState {
    func write(to output: inout JSONByteBuffer) {
        output.append("{\"id\":")
        output.appendString(id)
        output.append(",\"kind\":")
        output.appendString(kind.rawValue)
        output.append(",\"screens\":")
        output.appendArray(screens) { $1.appendString($0) }
        if let selectedTab {
            output.append(",\"selected_tab\":")
            output.appendString(selectedTab)
        }
        if let tabs {
            output.append(",\"tabs\":")
            output.appendArray(tabs) { tab, output in
                output.append("{\"stack\":")
                tab.stack.write(to: &output)
                output.append(",\"title\":")
                output.appendString(tab.title)
                output.append("}")
            }
        }
        output.append("}")
    }
}

extension ScreenState {
    func write(to output: inout JSONByteBuffer) {
        output.append("{\"elements\":")
        elements.write(to: &output)
        output.append(",\"id\":")
        output.appendString(id)
        if let owner {
            output.append(",\"owner\":")
            output.appendString(owner)
        }
        output.append("}")
    }
}

extension CoordinatorState {
    func write(to output: inout JSONByteBuffer) {
        output.append("{\"children\":")
        output.appendArray(children) { $0.write(to: &$1) }
        output.append(",\"id\":")
        output.appendString(id)
        output.append("}")
    }
}

extension Element {
    /// Appends the element as compact JSON, keys sorted.
    public func write(to output: inout [UInt8]) {
        var buffer = JSONByteBuffer(capacity: 1024)
        write(to: &buffer)
        buffer.copy(to: &output)
    }

    func write(to output: inout JSONByteBuffer) {
        // Every member but `role` is optional, so each one but the first starts with a comma.
        var separator: StaticString = "{"
        func key(_ name: StaticString, _ output: inout JSONByteBuffer) {
            output.append(separator)
            output.append(name)
            separator = ","
        }
        if let children {
            key("\"children\":", &output)
            output.appendArray(children) { $0.write(to: &$1) }
        }
        if let detail {
            key("\"detail\":", &output)
            output.appendString(detail)
        }
        if let id {
            key("\"id\":", &output)
            output.appendString(id)
        }
        if let isOn {
            key("\"is_on\":", &output)
            output.append(isOn ? "true" : "false")
        }
        if let isPrivate {
            key("\"is_private\":", &output)
            output.append(isPrivate ? "true" : "false")
        }
        key("\"role\":", &output)
        output.appendString(role.rawValue)
        if let text {
            key("\"text\":", &output)
            output.appendString(text)
        }
        if let value {
            key("\"value\":", &output)
            output.appendString(value)
        }
        output.append("}")
    }
}

/// A growable byte buffer for writing JSON: raw stores after one capacity check per append.
struct JSONByteBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Appends what was written to `output`.
    func copy(to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    }

    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity * 2, count + extra))
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = max(capacity * 2, count + extra)
    }

    /// Appends `bytes` as they are.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        copy(bytes, to: base + count)
        count += bytes.count
    }

    /// Copies `bytes` to `target`: most are a few bytes (punctuation, member names, ids),
    /// which a loop copies faster than a call to `memmove`.
    private func copy(_ bytes: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if bytes.count <= 32 {
            for index in 0..<bytes.count { target[index] = source[index] }
        } else {
            target.update(from: source, count: bytes.count)
        }
    }

    /// Appends a literal as it is (JSON punctuation and member names, needing no escapes).
    mutating func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends `string` as a quoted JSON string, escaped as `JSONValue.writeString` does.
    mutating func appendString(_ string: String) {
        var string = string
        string.withUTF8 { bytes in
            var isPlain = true
            for byte in bytes where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                isPlain = false
                break
            }
            guard isPlain else {
                var escaped: [UInt8] = []
                JSONValue.writeString(String(decoding: bytes, as: UTF8.self), to: &escaped)
                escaped.withUnsafeBufferPointer { append($0) }
                return
            }
            reserve(bytes.count + 2)
            base[count] = UInt8(ascii: "\"")
            copy(bytes, to: base + count + 1)
            base[count + 1 + bytes.count] = UInt8(ascii: "\"")
            count += bytes.count + 2
        }
    }

    /// Appends `items` as a JSON array, each one written by `write`.
    mutating func appendArray<Item>(_ items: [Item], _ write: (Item, inout JSONByteBuffer) -> Void) {
        append("[")
        for index in items.indices {
            if index > 0 { append(",") }
            write(items[index], &self)  // borrowed in place, not copied out by an iterator
        }
        append("]")
    }
}
