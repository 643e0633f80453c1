import NavlogEvents
import NavlogRuntime

/// A seeded random walk over the actions available on screen, to find what scripts miss:
/// actions that throw, screens with no way out, and leaked coordinators.
///
/// Every step lets some think time pass (so dwell times are realistic), then picks one of the
/// available moves: an actionable element, back, swipe-dismiss, another tab, or waiting for
/// pending work. Where it can go back, it does so with probability ``Configuration/backBias``
/// first, as people do; otherwise it picks uniformly among all the moves (back included). The
/// same seed and bias give the same event sequence.
public struct Explorer: Sendable {
    public struct Configuration: Sendable {
        public var seed: UInt64
        public var steps: Int
        /// Think time between steps, in nanoseconds, drawn uniformly from this range.
        public var thinkTime: ClosedRange<UInt64>
        /// Texts typed into text fields.
        public var sampleTexts: [String]
        /// The chance, from 0 to 1, that a step goes back (the back button, else swipe-dismiss)
        /// where it can, before the uniform pick. At 0 every move is equally likely, and a walk
        /// over an app whose screens lead on to more screens drifts ever deeper: 20,000 uniform
        /// steps over `articles` end 2,823 screens deep, each of them live.
        public var backBias: Double

        /// The default ``backBias`` (that of `navlog explore`): a third of the steps that could
        /// go back do, before the uniform pick (which goes back too, sometimes). Walks then
        /// come back up as people's do.
        public static let defaultBackBias = 0.33

        public init(
            seed: UInt64, steps: Int, thinkTime: ClosedRange<UInt64> = 300_000_000...3_000_000_000,
            sampleTexts: [String] = ["swift", "coordinator", "", "ü nicode ✓", String(repeating: "x", count: 120)],
            backBias: Double = Configuration.defaultBackBias
        ) {
            self.seed = seed
            self.steps = steps
            self.thinkTime = thinkTime
            self.sampleTexts = sampleTexts
            self.backBias = min(max(backBias, 0), 1)
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
        /// How far the session's clock ran ahead of real time: waits and think times are
        /// skipped, not slept, so the events of a walk are stamped up to this far in the future.
        public var skippedNanoseconds: UInt64 = 0
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
        let clock = HostClock()
        let session = try SessionCore(
            id: sessionID, app: app, parameters: parameters, sink: FanOutEventSink([sink, tap]), timeMode: .virtual, clock: clock,
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
            let move = pick(from: moves, generator: &generator)
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
        report.skippedNanoseconds = clock.skippedNanoseconds
        return report
    }

    /// The move a step makes: going back with probability ``Configuration/backBias`` where it
    /// can, else any move uniformly. A bias of 0 draws nothing more than the uniform pick, so
    /// walks with it are those of explorers before the bias existed.
    public func pick(from moves: [Move], generator: inout SeededGenerator) -> Move {
        if configuration.backBias > 0,
           let back = moves.first(where: { $0 == .command(.back) }) ?? moves.first(where: { $0 == .command(.dismiss) }),
           generator.nextUnit() < configuration.backBias {
            return back
        }
        return moves[generator.below(moves.count)]
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
