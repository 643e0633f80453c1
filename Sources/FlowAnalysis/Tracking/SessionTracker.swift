import Navigation

/// Follows one session's events and turns them into a ``SessionRecord`` when it ends.
///
/// Its state is as big as the session: the visits, the open screens, the coordinator tree
/// and the events the leak detector needs (with their payloads cut to what it reads). The
/// builder drops the tracker when the session ends.
struct SessionTracker {
    let session: String
    let run: String
    let labels: [String: String]
    private(set) var app: String?
    private let options: ReportOptions

    private var window = WindowModel()
    private var churn = ChurnTracker()
    private var lifecycle = LifecycleTracker()
    private var visits: [Visit] = []
    /// The user intent (`action` or `deeplink`) behind the last navigation event; navigation
    /// events behind one intent coalesce into one transition.
    private var groupCause: UInt64?
    /// The intent behind each event that has one, by `sessionSeq`: causes chain (an action
    /// causes a coordinate, which causes a start, which causes a push), and the push belongs
    /// to the action. Dropped with the tracker when the session ends.
    private var intents: [UInt64: UInt64] = [:]
    /// The `sessionSeq` of `session.start`: the cause of every top-level operation, which
    /// therefore never coalesces.
    private var rootCause: UInt64?
    private var lastShown: [String: (screen: String, time: UInt64)] = [:]
    private var doublePushes: [DoublePush] = []
    private var leakEvents: [Event] = []
    private var eventCount = 0
    private var isComplete = false
    private var firstWall: Int64?
    private var lastWall: Int64 = 0
    private var lastMonotonic: UInt64 = 0

    init(session: String, run: String, labels: [String: String], options: ReportOptions) {
        self.session = session
        self.run = run
        self.labels = labels
        self.options = options
    }

    /// Whether `session.end` has been seen.
    var hasEnded: Bool { isComplete }

    // MARK: - Consuming

    /// Updates the session with its next event.
    mutating func consume(_ event: Event) {
        eventCount += 1
        if firstWall == nil { firstWall = event.wallNanoseconds }
        lastWall = max(lastWall, event.wallNanoseconds)
        lastMonotonic = max(lastMonotonic, event.monotonicNanoseconds)
        keepForLeakDetection(event)
        lifecycle.consume(event)
        let intent = noteIntent(event)
        switch event.kind {
        case .sessionStart:
            rootCause = event.sessionSeq
            app = event.payload["app"]?.stringValue ?? app
        case .sessionEnd:
            closeVisit(at: event.monotonicNanoseconds)
            isComplete = true
        case .viewModelChange:
            churn.consume(event, visibleScreen: visits.last.flatMap { $0.end == nil ? $0.screen : nil }, options: options)
        case _ where EventKind.navigationKinds.contains(event.kind):
            noteDoublePush(event)
            navigate(event, intent: intent)
        default:
            break
        }
    }

    /// Returns what the session contributes, closing the visible screen's visit at the last
    /// event when the session has not ended.
    mutating func finish() -> SessionRecord {
        closeVisit(at: lastMonotonic)
        return SessionRecord(
            session: session, run: run, app: app, labels: labels, eventCount: eventCount, isComplete: isComplete,
            firstWall: firstWall ?? 0, lastWall: lastWall, visits: visits, churn: churn.counts,
            doublePushes: doublePushes, lifecycle: lifecycle.tree(session: session),
            leaks: LeakDetector.leaks(in: leakEvents)
        )
    }

    // MARK: - Visible screen

    /// Returns the user intent behind `event`: itself for an `action` or `deeplink`, else the
    /// intent behind its cause. Events caused by the session's start belong to none.
    private mutating func noteIntent(_ event: Event) -> UInt64? {
        let intent: UInt64?
        if event.kind == .action || event.kind == .deepLink {
            intent = event.sessionSeq
        } else if let cause = event.cause, cause != rootCause {
            intent = intents[cause] ?? cause
        } else {
            intent = nil
        }
        if let intent { intents[event.sessionSeq] = intent }
        return intent
    }

    /// Applies a navigation event and records a change of the visible screen, coalescing the
    /// events behind one user intent into one change.
    private mutating func navigate(_ event: Event, intent: UInt64?) {
        let cause = intent
        let isSameGroup = cause != nil && cause == groupCause
        groupCause = cause
        window.apply(event)
        let visible = window.visibleScreen
        let open = visits.last.flatMap { $0.end == nil ? $0.screen : nil }
        guard visible != open else { return }
        churn.visibleScreenChanged(from: open, to: visible)
        let time = event.monotonicNanoseconds
        if isSameGroup, let last = visits.last, last.end == nil, last.groupCause == cause {
            // A later step of the same operation: the screen shown in between never counted.
            visits.removeLast()
            if let previous = visits.last, previous.screen == visible, previous.end == last.start {
                visits[visits.count - 1].end = nil
            } else if let visible {
                visits.append(Visit(screen: visible, start: last.start, groupCause: cause))
            }
            return
        }
        closeVisit(at: time)
        if let visible {
            visits.append(Visit(screen: visible, start: time, groupCause: cause))
        }
    }

    private mutating func closeVisit(at time: UInt64) {
        guard let last = visits.last, last.end == nil else { return }
        visits[visits.count - 1].end = max(time, last.start)
    }

    // MARK: - Smells and leaks

    /// Notes a second screen of the same type shown within the smell interval. One screen
    /// shown twice (pushed into a modal's stack, then the stack presented) is not a smell.
    private mutating func noteDoublePush(_ event: Event) {
        guard event.kind == .screenPush || event.kind == .screenPresent, let screen = event.screen else { return }
        let type = InstanceID.typeName(of: screen)
        let time = event.monotonicNanoseconds
        if let previous = lastShown[type], previous.screen != screen, time >= previous.time,
            time - previous.time <= options.doublePushInterval
        {
            doublePushes.append(DoublePush(screenType: type, session: session, sessionSeq: event.sessionSeq, interval: time - previous.time))
        }
        lastShown[type] = (screen, time)
    }

    /// Keeps what ``LeakDetector`` reads of `event`, and nothing else.
    private mutating func keepForLeakDetection(_ event: Event) {
        if let kept = LeakDetector.relevantPart(of: event) { leakEvents.append(kept) }
    }
}
