import NavlogEvents

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
    /// The names of the events, shared with the builder.
    private let names: ReportNames

    /// The visible screen's visits, shared with the exports (Navigation's definition).
    private var screens = ScreenVisitTrackerOf<NameID>()
    private var churn: ChurnTracker
    private var lifecycle = LifecycleTracker()
    /// By screen type id (``ReportNames/type(of:)``): the last screen of that type shown.
    private var lastShown: [NameID: (screen: NameID, time: UInt64)] = [:]
    private var doublePushes: [DoublePush] = []
    private var leakScan: SessionScanOf<NameID>
    private var eventCount = 0
    private var isComplete = false
    private var firstWall: Int64?
    private var lastWall: Int64 = 0

    init(session: String, run: String, labels: [String: String], options: ReportOptions, names: ReportNames,
         snapshots: SnapshotForm = .values) {
        self.session = session
        self.run = run
        self.labels = labels
        self.options = options
        self.names = names
        self.leakScan = SessionScanOf(session: session)
        self.churn = ChurnTracker(form: snapshots)
    }

    /// Whether `session.end` has been seen.
    var hasEnded: Bool { isComplete }

    // MARK: - Consuming

    /// Updates the session with its next event.
    mutating func consume(_ event: InternedEvent) {
        eventCount += 1
        if firstWall == nil { firstWall = event.wallNanoseconds }
        lastWall = max(lastWall, event.wallNanoseconds)
        leakScan.consume(event)
        lifecycle.consume(event)
        if let change = screens.consume(event) {
            churn.visibleScreenChanged(from: change.from, to: change.to)
        }
        switch event.kind {
        case .sessionStart:
            app = event.payloadName(.app).map { names[$0] } ?? app
        case .sessionEnd:
            isComplete = true
        case .viewModelChange:
            churn.consume(event, visibleScreen: screens.visibleScreen, names: names)
        case _ where event.kind.isNavigation:
            noteDoublePush(event)
        default:
            break
        }
    }

    /// Returns what the session contributes, closing the visible screen's visit at the last
    /// event when the session has not ended.
    mutating func finish() -> SessionRecord {
        let names = self.names
        let visited = screens.finish()
        let visits = visited.map { $0.mapNames { names[$0] } }
        return SessionRecord(
            session: session, run: run, app: app, labels: labels, eventCount: eventCount, isComplete: isComplete,
            firstWall: firstWall ?? 0, lastWall: lastWall, visits: visits, recordsReadiness: screens.recordsReadiness,
            churn: churn.counts(names: names), doublePushes: doublePushes, lifecycle: lifecycle.tree(session: session, names: names),
            leaks: leakScan.finish { names[$0] }, path: visited.map { names.typeName(of: $0.screen) }
        )
    }

    // MARK: - Smells

    /// Notes a second screen of the same type shown within the smell interval. One screen
    /// shown twice (pushed into a modal's stack, then the stack presented) is not a smell.
    private mutating func noteDoublePush(_ event: InternedEvent) {
        guard event.kind == .screenPush || event.kind == .screenPresent, let screen = event.screenName else { return }
        let type = names.type(of: screen)
        let time = event.monotonicNanoseconds
        if let previous = lastShown[type], previous.screen != screen, time >= previous.time,
            time - previous.time <= options.doublePushInterval
        {
            doublePushes.append(DoublePush(screenType: names.typeName(of: screen), session: session, sessionSeq: event.sessionSeq,
                                           interval: time - previous.time))
        }
        lastShown[type] = (screen, time)
    }
}
