import NavlogEvents

/// The runtime of one session: it names instances, stamps and records events, tracks what
/// caused what, and owns the session's window.
///
/// A context and everything built on it (coordinators, screens, presenters, containers) are
/// confined to one serial executor, the session's. None of them is `Sendable`; the host keeps
/// them inside one actor or one thread.
///
/// ```swift
/// let context = NavigationContext(session: "s-1", sink: journal)
/// try context.launch(AppCoordinator(context: context))
/// try context.performAction(element: "showDetail")
/// context.end()
/// ```
public final class NavigationContext {
    /// The session id events are recorded under, such as `s-1`.
    public let session: String
    /// The session's instance name, the subject of `session.start` and `session.end`.
    public let sessionSubject: String
    /// The headless window the session's app shows its screens in.
    public private(set) lazy var window = Window(context: self)
    /// The scheduler that asynchronous work (interactors, timers) runs on.
    public let scheduler: WorkScheduler

    private let sink: any EventSink
    private let clock: any EventClock
    private var nextSessionSeq: UInt64 = 1
    private var namer = InstanceNamer()
    private var causes: [UInt64] = []
    private var operationDepth = 0
    private var rootCoordinators: [Coordinator] = []
    private var isEnded = false

    /// Creates a session's runtime and records `session.start` with `attributes` as payload;
    /// `privateAttributePaths` name the attributes to protect, such as `parameters.user_name`.
    public init(
        session: String,
        sink: any EventSink,
        clock: any EventClock = SystemEventClock(),
        scheduler: WorkScheduler = WorkScheduler(),
        attributes: [String: JSONValue] = [:],
        privateAttributePaths: [String] = []
    ) {
        self.session = session
        self.sink = sink
        self.clock = clock
        self.scheduler = scheduler
        self.sessionSubject = namer.makeName(for: "Session")
        let start = record(.sessionStart, subject: sessionSubject, payload: .object(attributes), privatePaths: privateAttributePaths)
        causes.append(start)
    }

    // MARK: - Naming

    /// Returns the next deterministic instance name for `typeName`, such as `Detail#1`.
    public func makeInstanceName(for typeName: String) -> String {
        namer.makeName(for: typeName)
    }

    // MARK: - Recording

    /// The event that causes whatever is recorded now, if any.
    public var currentCause: UInt64? { causes.last }

    /// The `sessionSeq` the next recorded event will get.
    public var nextEventNumber: UInt64 { nextSessionSeq }

    /// Records an event now and returns its `sessionSeq`.
    ///
    /// The cause is the innermost cause in effect (see ``withCause(_:_:)``) unless given.
    @discardableResult
    public func record(
        _ kind: EventKind,
        subject: String,
        screen: String? = nil,
        parent: String? = nil,
        cause: UInt64? = nil,
        payload: JSONValue = .object([:]),
        privatePaths: [String] = []
    ) -> UInt64 {
        let number = nextSessionSeq
        nextSessionSeq += 1
        let time = clock.now()
        sink.record(
            Event(
                wallNanoseconds: time.wall,
                monotonicNanoseconds: time.monotonic,
                session: session,
                sessionSeq: number,
                kind: kind,
                subject: subject,
                screen: screen,
                cause: cause ?? causes.last,
                parent: parent,
                payload: payload,
                privatePaths: privatePaths
            )
        )
        return number
    }

    /// Runs `body` with `cause` as the cause of every event it records.
    ///
    /// The outermost such block is one operation (a user's action, a deep link, a back
    /// gesture, a piece of asynchronous work): the user sees only the screen on top when it
    /// ends, so that is when screens are displayed and `screen.ready` is recorded
    /// (``Screen/reportReady(_:)``).
    public func withCause<T>(_ cause: UInt64, _ body: () throws -> T) rethrows -> T {
        causes.append(cause)
        operationDepth += 1
        defer {
            // Settled under the operation's cause: its screen.ready is caused by it.
            operationDepth -= 1
            if operationDepth == 0, !isEnded { window.settleDisplay() }
            causes.removeLast()
        }
        return try body()
    }

    /// Whether an operation is under way (see ``withCause(_:_:)``): the screen on top may still
    /// change before the user sees anything.
    var isInOperation: Bool { operationDepth > 0 }

    /// Records an `error` event for `error` about `subject` and returns the error, to throw.
    ///
    /// Every failing operation of the runtime goes through here before it throws, so bad use
    /// is always in the record. State must not have changed yet.
    public func fail(_ error: NavigationError, subject: String, screen: String? = nil) -> NavigationError {
        record(.error, subject: subject, screen: screen, payload: ["code": .string(error.code), "message": .string(error.description)])
        return error
    }

    // MARK: - Lifecycle

    /// Starts `coordinator` as a root of the session (the app coordinator) and keeps it alive
    /// until the session ends.
    public func launch(_ coordinator: Coordinator) throws {
        guard !isEnded else { throw fail(.sessionEnded(session), subject: coordinator.id) }
        rootCoordinators.append(coordinator)
        try coordinator.start()
    }

    /// The coordinators started with ``launch(_:)``.
    public var launchedCoordinators: [Coordinator] { rootCoordinators }

    /// Whether ``end()`` has run.
    public var hasEnded: Bool { isEnded }

    /// Ends the session: finishes the root coordinators (children first), takes every screen
    /// off the window, lets go of everything the session held and records `session.end`.
    ///
    /// Deallocations that follow from this are recorded before `session.end`; whatever is
    /// finished but still alive afterwards is a leak (see ``LeakDetector``).
    public func end(attributes: [String: JSONValue] = [:]) {
        guard !isEnded else { return }
        isEnded = true
        scheduler.cancelAll()
        for coordinator in rootCoordinators.reversed() where !coordinator.isFinished {
            coordinator.finish()
        }
        rootCoordinators.removeAll()
        window.tearDown()
        causes.removeAll()
        record(.sessionEnd, subject: sessionSubject, payload: .object(attributes))
    }
}
