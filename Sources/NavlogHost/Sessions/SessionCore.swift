import NavlogEvents
import NavlogRuntime

/// How time passes in a hosted session.
public enum TimeMode: String, Sendable {
    /// Time moves only when the client waits; waiting skips ahead instead of sleeping.
    /// Scripts and the explorer use it: fast and reproducible.
    case virtual
    /// Time is the system's; asynchronous work runs when it falls due. The daemon uses it.
    case realTime = "real_time"
}

/// The synchronous heart of a hosted session: one app's runtime, the commands a client may
/// send it, and a picture of its state.
///
/// A core is confined to one thread at a time: ``Session`` guards it with a lock for the
/// daemon, and ``ScenarioRunner`` and test stores drive it directly.
public final class SessionCore {
    public let id: String
    public let app: AppDefinition
    public let parameters: AppParameters
    public let timeMode: TimeMode
    public let context: NavigationContext
    private let clock: HostClock
    /// Weak: the context owns the root coordinator, and the session must not keep it alive.
    private weak var deepLinkHandler: (any DeepLinkHandling & ScreenOwner)?
    private let startMonotonic: UInt64

    /// Starts a session of `app`: records `session.start` (with the app, its parameters and
    /// `attributes`) and launches the app's root coordinator.
    public init(
        id: String,
        app: AppDefinition,
        parameters: AppParameters,
        sink: any EventSink,
        timeMode: TimeMode = .virtual,
        clock: HostClock = HostClock(),
        attributes: [String: JSONValue] = [:]
    ) throws {
        self.id = id
        self.app = app
        self.parameters = parameters
        self.timeMode = timeMode
        self.clock = clock
        self.startMonotonic = clock.now().monotonic
        var startPayload = attributes
        startPayload["app"] = .string(app.name)
        startPayload["parameters"] = parameters.json
        context = NavigationContext(
            session: id, sink: sink, clock: clock, attributes: startPayload,
            privateAttributePaths: parameters.privateNames.sorted().map { "parameters.\($0)" }
        )
        let root = try app.makeRoot(context, parameters)
        deepLinkHandler = root as? any DeepLinkHandling & ScreenOwner
        do {
            try context.launch(root)
        } catch {
            context.end(attributes: ["reason": "launch failed"])
            throw error
        }
    }

    // MARK: - Commands

    /// Performs `command`. A refused command throws the runtime's error, which is also
    /// recorded as an `error` event; the session stays usable.
    public func perform(_ command: SessionCommand) throws {
        guard !context.hasEnded else { throw HostError.sessionEnded(id) }
        catchUp()
        switch command {
        case .action(let element, let value):
            try context.performAction(element: element, value: value)
        case .back:
            try context.window.userBack()
        case .dismiss:
            try context.window.userSwipeDismiss()
        case .selectTab(let title):
            guard let tabs = context.window.topContainer as? TabContainer ?? context.window.root as? TabContainer else {
                throw context.fail(
                    .unknownTab(container: context.window.id, requested: title, available: []),
                    subject: context.window.id, screen: context.window.visibleScreen?.id
                )
            }
            try tabs.userSelect(title)
        case .deepLink(let url):
            guard let handler = deepLinkHandler else {
                let event = context.record(.deepLink, subject: context.sessionSubject, payload: ["url": .string(url), "steps": []])
                throw context.withCause(event) {
                    context.fail(.unreachableDeepLink(url: url, reason: "app '\(app.name)' does not handle deep links"), subject: context.sessionSubject)
                }
            }
            try context.openDeepLink(url, with: handler)
        case .wait(let nanoseconds):
            if timeMode == .virtual { skipAhead(by: nanoseconds) }
        }
    }

    /// Moves virtual time ahead by `nanoseconds`, stopping at each piece of work that falls
    /// due so that what it records is stamped when it ran (a load that takes 300 ms finishes
    /// 300 ms after it started, however long the wait).
    private func skipAhead(by nanoseconds: UInt64) {
        let scheduler = context.scheduler
        let target = scheduler.now &+ nanoseconds
        while let due = scheduler.nextDueTime, due <= target {
            let step = due > scheduler.now ? due - scheduler.now : 0
            clock.skip(step)
            scheduler.advance(by: step)
        }
        clock.skip(target - scheduler.now)
        scheduler.advance(by: target - scheduler.now)
    }

    /// Runs every piece of pending asynchronous work, skipping ahead to each one (virtual time
    /// only). Returns how far time moved, in nanoseconds.
    @discardableResult
    public func waitUntilIdle(limit: Int = 10_000) -> UInt64 {
        guard timeMode == .virtual else { return 0 }
        let before = context.scheduler.now
        var ran = 0
        while ran < limit, let due = context.scheduler.nextDueTime {
            let step = due > context.scheduler.now ? due - context.scheduler.now : 0
            clock.skip(step)
            ran += context.scheduler.advance(by: step)
        }
        return context.scheduler.now - before
    }

    /// In real time, runs the work that has fallen due since the last call.
    public func catchUp() {
        guard timeMode == .realTime else { return }
        let elapsed = clock.now().monotonic &- startMonotonic
        if elapsed > context.scheduler.now {
            context.scheduler.advance(by: elapsed - context.scheduler.now)
        }
    }

    /// Nanoseconds until the next piece of asynchronous work falls due, if any.
    public var nextWorkDelay: UInt64? {
        guard let due = context.scheduler.nextDueTime else { return nil }
        return due > context.scheduler.now ? due - context.scheduler.now : 0
    }

    // MARK: - State

    /// A picture of the session now.
    public func state() -> NavigationState {
        catchUp()
        return context.state()
    }

    /// Whether the session has ended.
    public var hasEnded: Bool { context.hasEnded }

    /// Ends the session: everything finishes and `session.end` is recorded.
    public func end(reason: String = "ended") {
        context.end(attributes: ["reason": .string(reason)])
    }
}
