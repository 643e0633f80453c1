/// Finds leaks in a session's event stream alone, without the live objects: what the journal
/// holds is enough.
///
/// - A coordinator that finished but was never deallocated (a retain cycle, or someone still
///   holding it).
/// - A coordinator whose last screen left while it went on living: by the next user intent
///   (`action`, `deeplink`) or the end of the session it had not finished. This is the
///   "coordinator was never told about the back button" bug.
/// - A presenter or model whose screen left but which was never deallocated.
/// - A view-model change recorded for a screen that had already left.
public enum LeakDetector {
    public struct Leak: Equatable, Sendable, Codable, CustomStringConvertible {
        public enum Kind: String, Codable, Sendable {
            case finishedButAlive = "finished_not_deallocated"
            case outlivedScreens = "screen_gone_coordinator_alive"
            case presenterOutlivedScreen = "presenter_outlived_screen"
            case changeAfterDismiss = "viewmodel_change_after_dismiss"
        }

        public var kind: Kind
        public var session: String
        /// The leaking instance.
        public var subject: String
        /// The screen concerned, if any.
        public var screen: String?
        /// The `sessionSeq` of the event that shows the leak.
        public var sessionSeq: UInt64

        public var description: String {
            switch kind {
            case .finishedButAlive: "\(subject) finished but was never deallocated"
            case .outlivedScreens: "\(subject) lives on after its last screen \(screen ?? "?") left"
            case .presenterOutlivedScreen: "\(subject) outlived its screen \(screen ?? "?")"
            case .changeAfterDismiss: "\(subject) changed its view model after \(screen ?? "?") left"
            }
        }
    }

    /// Returns the leaks in `events`, which may hold many sessions; each session's events must
    /// be in order. A session without `session.end` is judged on what it has so far.
    public static func leaks(in events: [Event]) -> [Leak] {
        var sessions: [String: SessionScan] = [:]
        var order: [String] = []
        for event in events {
            if sessions[event.session] == nil {
                sessions[event.session] = SessionScan(session: event.session)
                order.append(event.session)
            }
            sessions[event.session]!.consume(event)
        }
        return order.flatMap { sessions[$0]!.finish() }
    }
}

/// Follows one session's stream as it comes and finds its leaks at the end, with the state
/// of the session's instances only: a consumer of a long stream feeds events here instead of
/// keeping them for ``LeakDetector/leaks(in:)``.
public struct SessionScan: Sendable {
    let session: String
    var leaks: [LeakDetector.Leak] = []
    /// What the session showed of each instance it names: one entry, so an event costs one
    /// lookup of its subject.
    private var instances: [String: Instance] = [:]
    /// What happened to each screen.
    private var screens: [String: ScreenState] = [:]
    /// Owner → the last of its screens to leave, while the owner has not finished; judged at
    /// the next user intent.
    private var lastScreenGone: [String: (screen: String, seq: UInt64)] = [:]
    var lastSeq: UInt64 = 0

    private struct Instance {
        /// Started as a coordinator.
        var isCoordinator = false
        /// Initialized as a presenter (only presenters record their deallocation).
        var isPresenter = false
        var finishedSeq: UInt64?
        var isDeallocated = false
        /// The screens it showed on their own that have not left.
        var liveScreens: Set<String> = []
        /// The screen it is bound to, for a presenter or model.
        var boundScreen: String?
        /// Whether a view-model change after its screen left was reported.
        var reportedChange = false
    }

    private struct ScreenState {
        var owner: String?
        /// When it left, while it has not come back.
        var removedSeq: UInt64?
    }

    public init(session: String) {
        self.session = session
        // Room for a typical session's instances and screens up front: growing from empty
        // rehashed every entry five or six times per session.
        instances.reserveCapacity(32)
        screens.reserveCapacity(16)
    }

    /// Reads the session's next event.
    public mutating func consume(_ event: Event) {
        lastSeq = event.sessionSeq
        switch event.kind {
        case .action, .deepLink, .sessionEnd:
            flushLingering()
        case .coordinatorStart:
            instances[event.subject, default: Instance()].isCoordinator = true
        case .coordinatorFinish:
            instances[event.subject, default: Instance()].finishedSeq = event.sessionSeq
            if !lastScreenGone.isEmpty { lastScreenGone[event.subject] = nil }
        case .presenterInit:
            instances[event.subject, default: Instance()].isPresenter = true
        case .coordinatorDeinit, .presenterDeinit:
            instances[event.subject, default: Instance()].isDeallocated = true
        case .screenPush, .screenPresent, .windowRoot:
            let shown = Shown(event.payload)
            for removed in shown.removed { screenLeft(removed, at: event.sessionSeq) }
            guard let screen = event.screen else { break }
            // A root or modal that is a container brings in screens pushed (and owned) before;
            // only a screen shown on its own belongs to the subject of this event.
            let owner = (shown.content ?? screen) == screen && event.subject != screen ? event.subject : nil
            modifyScreen(screen) { state in
                state.removedSeq = nil
                if let owner { state.owner = owner }
            }
            if let owner {
                instances[owner, default: Instance()].liveScreens.insert(screen)
                if !lastScreenGone.isEmpty { lastScreenGone[owner] = nil }
            }
            for id in shown.bound {
                instances[id, default: Instance()].boundScreen = screen
            }
        case .screenPop:
            if let screen = event.screen { screenLeft(screen, at: event.sessionSeq) }
        case .screenDismiss:
            let removed = Shown(event.payload).removedIfListed
            for screen in removed ?? (event.screen.map { [$0] } ?? []) {
                screenLeft(screen, at: event.sessionSeq)
            }
        case .viewModelChange:
            if let screen = event.screen, screens[screen]?.removedSeq != nil {
                let subject = event.subject
                var isNew = false
                modifyInstance(subject) { instance in
                    isNew = !instance.reportedChange
                    instance.reportedChange = true
                }
                if isNew {
                    leaks.append(.init(kind: .changeAfterDismiss, session: session, subject: subject, screen: screen, sessionSeq: event.sessionSeq))
                }
            }
        default:
            break
        }
    }

    /// The members of a showing or dismissing event's payload the scan reads, in one pass.
    private struct Shown {
        var removedIfListed: [String]?
        var content: String?
        var bound: [String] = []
        var removed: [String] { removedIfListed ?? [] }

        init(_ payload: JSONValue) {
            guard case .object(let members) = payload else { return }
            var root: String?
            var content: String?
            for (key, value) in members {
                switch key {
                case "removed": removedIfListed = value.arrayValue?.compactMap(\.stringValue)
                case "root": root = value.stringValue
                case "content": content = value.stringValue
                case "bound": bound = value.arrayValue?.compactMap(\.stringValue) ?? []
                default: break
                }
            }
            self.content = root ?? content
        }
    }

    private mutating func modifyInstance(_ subject: String, _ body: (inout Instance) -> Void) {
        body(&instances[subject, default: Instance()])
    }

    private mutating func modifyScreen(_ screen: String, _ body: (inout ScreenState) -> Void) {
        body(&screens[screen, default: ScreenState()])
    }

    mutating func screenLeft(_ screen: String, at seq: UInt64) {
        var owner: String?
        modifyScreen(screen) { state in
            state.removedSeq = seq
            owner = state.owner
        }
        guard let owner else { return }
        var isLast = false
        modifyInstance(owner) { instance in
            instance.liveScreens.remove(screen)
            // `owner` showed `screen`, so its record holds the screens it still shows.
            isLast = instance.liveScreens.isEmpty && instance.isCoordinator && instance.finishedSeq == nil
        }
        if isLast { lastScreenGone[owner] = (screen, seq) }
    }

    mutating func flushLingering() {
        guard !lastScreenGone.isEmpty else { return }
        for (owner, gone) in lastScreenGone.sorted(by: { $0.value.seq < $1.value.seq }) where instances[owner]?.finishedSeq == nil {
            leaks.append(.init(kind: .outlivedScreens, session: session, subject: owner, screen: gone.screen, sessionSeq: gone.seq))
        }
        lastScreenGone.removeAll()
    }

    /// Returns the session's leaks, judging what is still alive now.
    public mutating func finish() -> [LeakDetector.Leak] {
        flushLingering()
        var finishedAlive: [(coordinator: String, seq: UInt64)] = []
        var outlived: [(presenter: String, screen: String, removed: UInt64)] = []
        for (subject, instance) in instances where !instance.isDeallocated {
            if let seq = instance.finishedSeq { finishedAlive.append((subject, seq)) }
            if instance.isPresenter, let screen = instance.boundScreen, let removed = screens[screen]?.removedSeq {
                outlived.append((subject, screen, removed))
            }
        }
        for (coordinator, seq) in finishedAlive.sorted(by: { $0.seq < $1.seq }) {
            leaks.append(.init(kind: .finishedButAlive, session: session, subject: coordinator, screen: nil, sessionSeq: seq))
        }
        for (presenter, screen, removed) in outlived.sorted(by: { $0.presenter < $1.presenter }) {
            leaks.append(.init(kind: .presenterOutlivedScreen, session: session, subject: presenter, screen: screen, sessionSeq: removed))
        }
        return leaks.sorted { ($0.sessionSeq, $0.subject) < ($1.sessionSeq, $1.subject) }
    }
}
