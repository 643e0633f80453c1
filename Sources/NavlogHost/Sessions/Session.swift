import NavlogEvents
import NavlogRuntime
import Synchronization

/// A hosted session that any thread may drive: a lock confines the app's runtime, so many
/// sessions run in parallel and each one's commands run one at a time.
///
/// Commands that need no waiting run at once on the caller's thread (``performNow(_:)``): the
/// daemon answers them on its HTTP thread, with no hop to another thread. Only a real-time
/// `wait` suspends (``perform(_:)``), and it holds no lock while it does, so the session's
/// other commands and other sessions go on meanwhile.
///
/// `Sendable`: the core, which is not, lives only inside `guarded`.
public final class Session: Sendable {
    public let id: String
    public let appName: String
    public let timeMode: TimeMode

    private struct Guarded {
        let core: SessionCore
        var wakeUp: Task<Void, Never>?
        /// The monotonic time of the last command, for idle timeouts.
        var lastActivity: ContinuousClock.Instant = .now
        /// The last command, described (without its value) only when a summary asks.
        var lastCommand: SessionCommand?
    }

    /// When the session started, in nanoseconds since 1970 (its clock's wall time).
    public let startedWallNanoseconds: Int64

    private let guarded: Mutex<Guarded>

    /// Starts a session of `app` recording into `sink`.
    public init(
        id: String, app: AppDefinition, parameters: AppParameters, sink: any EventSink,
        timeMode: TimeMode = .realTime, attributes: [String: JSONValue] = [:]
    ) throws {
        self.id = id
        self.appName = app.name
        self.timeMode = timeMode
        let core = try SessionCore(id: id, app: app, parameters: parameters, sink: sink, timeMode: timeMode, attributes: attributes)
        startedWallNanoseconds = SystemEventClock().now().wall
        guarded = Mutex(Guarded(core: core))
    }

    // MARK: - Commands

    /// Performs `command` and returns the state after it. In real time, `wait` suspends for
    /// the duration without blocking other sessions or this one's other commands.
    @discardableResult
    public func perform(_ command: SessionCommand) async throws -> NavigationState {
        if case .wait(let nanoseconds) = command, timeMode == .realTime, nanoseconds > 0 {
            guarded.withLock { $0.lastActivity = .now }
            try await Task.sleep(nanoseconds: nanoseconds)
        }
        return try performNow(command)
    }

    /// Performs `command` on the calling thread and returns the state after it. A real-time
    /// `wait` does not sleep here: it runs the work due now (``perform(_:)`` lets the time pass).
    @discardableResult
    public func performNow(_ command: SessionCommand) throws -> NavigationState {
        try guarded.withLock { guarded in
            guarded.lastActivity = .now
            guarded.lastCommand = command
            try guarded.core.perform(command)
            scheduleWakeUp(&guarded)
            return guarded.core.state()
        }
    }

    /// Whether `command` has to let time pass, so only ``perform(_:)`` can run it.
    public func waits(_ command: SessionCommand) -> Bool {
        if case .wait(let nanoseconds) = command { return timeMode == .realTime && nanoseconds > 0 }
        return false
    }

    /// The session's state now.
    public func state() -> NavigationState {
        guarded.withLock { $0.core.state() }
    }

    /// The monotonic time of the last command, for idle timeouts.
    public var lastActivity: ContinuousClock.Instant { guarded.withLock { $0.lastActivity } }

    /// What an operator sees of a live session (`navlog sessions`).
    public struct Summary: Sendable {
        /// The visible screen, such as `Detail#1`.
        public var screen: String?
        /// Events recorded so far.
        public var eventCount: UInt64
        /// The last command, such as `action open-detail` or `back`; values are left out.
        public var lastCommand: String?
    }

    /// The session's visible screen, events recorded and last command, now.
    public func summary() -> Summary {
        guarded.withLock { guarded in
            Summary(
                screen: guarded.core.context.window.visibleScreen?.id,
                eventCount: guarded.core.context.nextEventNumber - 1,
                lastCommand: guarded.lastCommand.map(Self.describeWithoutValue)
            )
        }
    }

    /// `command` as a summary shows it: an action's element without the value it entered.
    static func describeWithoutValue(_ command: SessionCommand) -> String {
        if case .action(let element, _) = command { return "action \(element)" }
        return command.description
    }

    /// Whether the session has ended.
    public var hasEnded: Bool { guarded.withLock { $0.core.hasEnded } }

    /// Ends the session; ending twice does nothing.
    public func end(reason: String = "ended") {
        guarded.withLock { guarded in
            guarded.wakeUp?.cancel()
            guarded.wakeUp = nil
            guarded.core.end(reason: reason)
        }
    }

    // MARK: - Due work

    /// In real time, makes sure pending asynchronous work runs when it falls due even if no
    /// client asks anything.
    private func scheduleWakeUp(_ guarded: inout Guarded) {
        guard timeMode == .realTime, !guarded.core.hasEnded, let delay = guarded.core.nextWorkDelay else { return }
        guarded.wakeUp?.cancel()
        guarded.wakeUp = Task { [weak self] in
            try? await Task.sleep(nanoseconds: delay)
            guard !Task.isCancelled else { return }
            self?.runDueWork()
        }
    }

    private func runDueWork() {
        guarded.withLock { guarded in
            guard !guarded.core.hasEnded else { return }
            guarded.core.catchUp()
            scheduleWakeUp(&guarded)
        }
    }
}
