import NavlogEvents

/// The coordinators of one session as a tree, with what happened to each.
public struct LifecycleTree: Sendable, Equatable {
    /// One coordinator instance.
    public struct Node: Sendable, Equatable {
        /// The instance, such as `DetailCoordinator#2`.
        public var coordinator: String
        /// The instance that coordinated to it, if any.
        public var parent: String?
        public var isStarted: Bool
        public var isFinished: Bool
        public var isDeallocated: Bool
        /// The instances it coordinated to, in order.
        public var children: [String]

        /// The type name, such as `DetailCoordinator`.
        public var type: String { InstanceID.typeName(of: coordinator) }

        /// Whether start and finish do not pair up: started and never finished, or finished
        /// without a recorded start.
        public var isUnbalanced: Bool { isStarted != isFinished }
    }

    public var session: String
    /// Every coordinator, in order of first appearance.
    public var nodes: [Node]

    /// The coordinators without a parent in the session: the tree's roots.
    public var roots: [Node] {
        let ids = Set(nodes.map(\.coordinator))
        return nodes.filter { node in node.parent.map { !ids.contains($0) } ?? true }
    }

    /// The node for `coordinator`.
    public func node(_ coordinator: String) -> Node? {
        nodes.first { $0.coordinator == coordinator }
    }
}

/// Follows the coordinator events of one session and builds its ``LifecycleTree``.
struct LifecycleTracker {
    private var order: [String] = []
    private var nodes: [String: LifecycleTree.Node] = [:]
    /// Each parent's children as a set, beside their order in the node: a long session's app
    /// coordinator has a child per screen shown, and a linear `contains` made it quadratic.
    private var childSets: [String: Set<String>] = [:]

    /// Updates the tree with a coordinator event; other kinds are ignored.
    mutating func consume(_ event: Event) {
        // Closures below capture fields, not `event`: capturing it copies the whole event.
        let subject = event.subject
        switch event.kind {
        case .coordinatorStart:
            let parent = event.parent
            update(subject) { node in
                node.isStarted = true
                if let parent { node.parent = parent }
            }
            if let parent { adopt(subject, by: parent) }
        case .coordinatorCoordinate:
            guard let child = event.payload["child"]?.stringValue else { return }
            update(subject) { _ in }
            update(child) { node in node.parent = subject }
            adopt(child, by: subject)
        case .coordinatorFinish:
            update(subject) { $0.isFinished = true }
        case .coordinatorDeinit:
            update(subject) { $0.isDeallocated = true }
        default:
            return
        }
    }

    /// Returns the tree of everything seen.
    func tree(session: String) -> LifecycleTree {
        LifecycleTree(session: session, nodes: order.compactMap { nodes[$0] })
    }

    private mutating func update(_ coordinator: String, _ change: (inout LifecycleTree.Node) -> Void) {
        // One lookup: the default is made, and the coordinator put in order, only when new.
        var isNew = false
        change(&nodes[coordinator, default: {
            isNew = true
            return LifecycleTree.Node(coordinator: coordinator, parent: nil, isStarted: false, isFinished: false, isDeallocated: false, children: [])
        }()])
        if isNew { order.append(coordinator) }
    }

    private mutating func adopt(_ child: String, by parent: String) {
        let isNewChild = childSets[parent, default: []].insert(child).inserted
        update(parent) { node in
            if isNewChild { node.children.append(child) }
        }
    }
}
