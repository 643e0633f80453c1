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
    /// What the tree holds of one coordinator, by name id until the tree is built.
    private struct Node {
        var parent: NameID?
        var isStarted = false
        var isFinished = false
        var isDeallocated = false
        var children: [NameID] = []
    }

    private var order: [NameID] = []
    private var nodes: [NameID: Node] = [:]
    /// Each parent's children as a set, beside their order in the node: a long session's app
    /// coordinator has a child per screen shown, and a linear `contains` made it quadratic.
    private var childSets: [NameID: Set<NameID>] = [:]

    /// Updates the tree with a coordinator event; other kinds are ignored.
    mutating func consume(_ event: InternedEvent) {
        let subject = event.subjectName
        switch event.kind {
        case .coordinatorStart:
            let parent = event.parentName
            update(subject) { node in
                node.isStarted = true
                if let parent { node.parent = parent }
            }
            if let parent { adopt(subject, by: parent) }
        case .coordinatorCoordinate:
            guard let child = event.payloadName(.child) else { return }
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
    func tree(session: String, names: ReportNames) -> LifecycleTree {
        LifecycleTree(session: session, nodes: order.compactMap { id in
            nodes[id].map { node in
                LifecycleTree.Node(coordinator: names[id], parent: node.parent.map { names[$0] }, isStarted: node.isStarted,
                                   isFinished: node.isFinished, isDeallocated: node.isDeallocated, children: node.children.map { names[$0] })
            }
        })
    }

    private mutating func update(_ coordinator: NameID, _ change: (inout Node) -> Void) {
        // One lookup: the default is made, and the coordinator put in order, only when new.
        var isNew = false
        change(&nodes[coordinator, default: {
            isNew = true
            return Node()
        }()])
        if isNew { order.append(coordinator) }
    }

    private mutating func adopt(_ child: NameID, by parent: NameID) {
        let isNewChild = childSets[parent, default: []].insert(child).inserted
        update(parent) { node in
            if isNewChild { node.children.append(child) }
        }
    }
}
