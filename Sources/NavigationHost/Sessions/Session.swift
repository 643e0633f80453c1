import Navigation

/// A hosted session on its own serial executor: the actor confines the app's runtime, so many
/// sessions run in parallel and each one's commands run one at a time, in order.
public actor Session {
    public nonisolated let id: String
    public nonisolated let appName: String
    private let core: SessionCore
    private var wakeUp: Task<Void, Never>?
    /// The monotonic time of the last command, for idle timeouts.
    public private(set) var lastActivity: ContinuousClock.Instant = .now

    /// Starts a session of `app` recording into `sink`.
    public init(
        id: String, app: AppDefinition, parameters: AppParameters, sink: any EventSink,
        timeMode: TimeMode = .realTime, attributes: [String: JSONValue] = [:]
    ) throws {
        self.id = id
        self.appName = app.name
        self.core = try SessionCore(id: id, app: app, parameters: parameters, sink: sink, timeMode: timeMode, attributes: attributes)
    }

    /// Performs `command` and returns the state after it. In real time, `wait` suspends for
    /// the duration without blocking other sessions.
    @discardableResult
    public func perform(_ command: SessionCommand) async throws -> NavigationState {
        lastActivity = .now
        if case .wait(let nanoseconds) = command, core.timeMode == .realTime {
            try await Task.sleep(nanoseconds: nanoseconds)
        }
        try core.perform(command)
        scheduleWakeUp()
        return core.state()
    }

    /// The session's state now.
    public func state() -> NavigationState {
        core.state()
    }

    /// Whether the session has ended.
    public var hasEnded: Bool { core.hasEnded }

    /// Ends the session; ending twice does nothing.
    public func end(reason: String = "ended") {
        wakeUp?.cancel()
        wakeUp = nil
        core.end(reason: reason)
    }

    /// In real time, makes sure pending asynchronous work runs when it falls due even if no
    /// client asks anything.
    private func scheduleWakeUp() {
        guard core.timeMode == .realTime, !core.hasEnded, let delay = core.nextWorkDelay else { return }
        wakeUp?.cancel()
        wakeUp = Task { [weak self] in
            try? await Task.sleep(nanoseconds: delay)
            guard !Task.isCancelled else { return }
            await self?.runDueWork()
        }
    }

    private func runDueWork() {
        guard !core.hasEnded else { return }
        core.catchUp()
        scheduleWakeUp()
    }
}
