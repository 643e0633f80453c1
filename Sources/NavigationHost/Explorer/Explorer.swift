import Navigation

/// A seeded random walk over the actions available on screen, to find what scripts miss:
/// actions that throw, screens with no way out, and leaked coordinators.
///
/// Every step lets some think time pass (so dwell times are realistic), then picks one of the
/// available moves uniformly: an actionable element, back, swipe-dismiss, another tab, or
/// waiting for pending work. The same seed gives the same event sequence.
public struct Explorer: Sendable {
    public struct Configuration: Sendable {
        public var seed: UInt64
        public var steps: Int
        /// Think time between steps, in nanoseconds, drawn uniformly from this range.
        public var thinkTime: ClosedRange<UInt64>
        /// Texts typed into text fields.
        public var sampleTexts: [String]

        public init(
            seed: UInt64, steps: Int, thinkTime: ClosedRange<UInt64> = 300_000_000...3_000_000_000,
            sampleTexts: [String] = ["swift", "coordinator", "", "ü nicode ✓", String(repeating: "x", count: 120)]
        ) {
            self.seed = seed
            self.steps = steps
            self.thinkTime = thinkTime
            self.sampleTexts = sampleTexts
        }
    }

    /// One move the explorer can make.
    public enum Move: Sendable, Equatable, CustomStringConvertible {
        case command(SessionCommand)
        case waitForWork

        public var description: String {
            switch self {
            case .command(let command): command.description
            case .waitForWork: "wait for pending work"
            }
        }
    }

    /// What one walk found.
    public struct Report: Sendable {
        public var session: String
        public var stepsTaken: Int
        /// Moves that were offered on screen but threw.
        public var thrownActions: [ThrownAction]
        /// Where the walk got stuck: a screen with no move left.
        public var deadEnd: String?
        public var leaks: [LeakDetector.Leak]
        /// The screens seen, by type name, with visit counts.
        public var screensVisited: [String: Int]
    }

    public struct ThrownAction: Sendable, Equatable {
        public var step: Int
        public var screen: String
        public var move: String
        public var error: String
    }

    public let configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Walks one session of `app` recording into `sink`, and reports.
    public func explore(app: AppDefinition, parameters: AppParameters, sessionID: String, sink: any EventSink, attributes: [String: JSONValue] = [:]) throws -> Report {
        // Leaks are found as the events pass: a tap that kept them grew by about a kilobyte an
        // event (1.8 GB for a walk of 20,000 steps).
        let tap = LeakScanSink()
        let session = try SessionCore(
            id: sessionID, app: app, parameters: parameters, sink: FanOutEventSink([sink, tap]), timeMode: .virtual,
            attributes: attributes.merging(["explore_seed": .int(Int64(bitPattern: configuration.seed))]) { $1 }
        )
        var generator = SeededGenerator(seed: configuration.seed)
        var report = Report(session: sessionID, stepsTaken: 0, thrownActions: [], deadEnd: nil, leaks: [], screensVisited: [:])
        for step in 1...max(configuration.steps, 1) where configuration.steps > 0 {
            let think = configuration.thinkTime.lowerBound
                + generator.next(upperBound: configuration.thinkTime.upperBound - configuration.thinkTime.lowerBound + 1)
            try? session.perform(.wait(nanoseconds: think))
            let screen = session.context.window.visibleScreen
            if let screen { report.screensVisited[screen.name, default: 0] += 1 }
            let moves = availableMoves(in: session, generator: &generator)
            guard !moves.isEmpty else {
                report.deadEnd = screen?.id ?? "no screen"
                break
            }
            let move = moves[generator.below(moves.count)]
            report.stepsTaken = step
            switch move {
            case .waitForWork:
                session.waitUntilIdle()
            case .command(let command):
                do {
                    try session.perform(command)
                } catch {
                    report.thrownActions.append(ThrownAction(step: step, screen: screen?.id ?? "none", move: move.description, error: "\(error)"))
                }
            }
        }
        session.end(reason: "explore finished")
        report.leaks = tap.leaks
        return report
    }

    /// The moves available on screen now, in a stable order.
    public func availableMoves(in session: SessionCore, generator: inout SeededGenerator) -> [Move] {
        let window = session.context.window
        var moves: [Move] = []
        if let screen = window.visibleScreen {
            for element in screen.render().allElements where element.role.isActionable {
                guard let id = element.id else { continue }
                switch element.role {
                case .textField:
                    let text = configuration.sampleTexts.isEmpty ? "text" : configuration.sampleTexts[generator.below(configuration.sampleTexts.count)]
                    moves.append(.command(.action(element: id, value: text)))
                default:
                    moves.append(.command(.action(element: id, value: nil)))
                }
            }
        }
        if let container = window.topContainer, let stack = container.activeStack, stack.screens.count > 1 {
            moves.append(.command(.back))
        }
        if window.modals.last?.style == .sheet {
            moves.append(.command(.dismiss))
        }
        if window.modals.isEmpty, let tabs = window.root as? TabContainer {
            for (index, tab) in tabs.tabs.enumerated() where index != tabs.selectedIndex {
                moves.append(.command(.selectTab(tab.title)))
            }
        }
        if session.context.scheduler.pendingCount > 0 {
            moves.append(.waitForWork)
        }
        return moves
    }
}
