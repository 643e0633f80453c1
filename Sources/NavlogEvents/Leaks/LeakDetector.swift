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

        @inlinable
        public init(kind: Kind, session: String, subject: String, screen: String?, sessionSeq: UInt64) {
            self.kind = kind
            self.session = session
            self.subject = subject
            self.screen = screen
            self.sessionSeq = sessionSeq
        }

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
///
/// Generic over how events name things, like ``WindowReplayOf``: ``SessionScan`` follows
/// ``Event``s.
public struct SessionScanOf<Name: Hashable & Sendable>: Sendable {
    @usableFromInline let session: String
    /// The leaks found so far, in the order found.
    @usableFromInline var leaks: [Found] = []
    /// What the session showed of each instance it names: one entry, so an event costs one
    /// lookup of its subject.
    @usableFromInline var instances: [Name: Instance] = [:]
    /// What happened to each screen.
    @usableFromInline var screens: [Name: ScreenState] = [:]
    /// Owner → the last of its screens to leave, while the owner has not finished; judged at
    /// the next user intent.
    @usableFromInline var lastScreenGone: [Name: (screen: Name, seq: UInt64)] = [:]
    @usableFromInline var lastSeq: UInt64 = 0

    /// A leak, with its names as the events gave them.
    @usableFromInline
    struct Found: Sendable {
        @usableFromInline var kind: LeakDetector.Leak.Kind
        @usableFromInline var subject: Name
        @usableFromInline var screen: Name?
        @usableFromInline var sessionSeq: UInt64

        @inlinable
        init(kind: LeakDetector.Leak.Kind, subject: Name, screen: Name?, sessionSeq: UInt64) {
            self.kind = kind
            self.subject = subject
            self.screen = screen
            self.sessionSeq = sessionSeq
        }
    }

    @usableFromInline
    struct Instance: Sendable {
        /// Started as a coordinator.
        @usableFromInline var isCoordinator = false
        /// Initialized as a presenter (only presenters record their deallocation).
        @usableFromInline var isPresenter = false
        @usableFromInline var finishedSeq: UInt64?
        @usableFromInline var isDeallocated = false
        /// The screens it showed on their own that have not left.
        @usableFromInline var liveScreens: Set<Name> = []
        /// The screen it is bound to, for a presenter or model.
        @usableFromInline var boundScreen: Name?
        /// Whether a view-model change after its screen left was reported.
        @usableFromInline var reportedChange = false

        @inlinable
        init() {}
    }

    @usableFromInline
    struct ScreenState: Sendable {
        @usableFromInline var owner: Name?
        /// When it left, while it has not come back.
        @usableFromInline var removedSeq: UInt64?

        @inlinable
        init() {}
    }

    @inlinable
    public init(session: String) {
        self.session = session
        // Room for a typical session's instances and screens up front: growing from empty
        // rehashed every entry five or six times per session.
        instances.reserveCapacity(32)
        screens.reserveCapacity(16)
    }

    /// Reads the session's next event.
    @inlinable
    public mutating func consume<E: TrackedEvent>(_ event: E) where E.Name == Name {
        lastSeq = event.sessionSeq
        switch event.kind {
        case .action, .deepLink, .sessionEnd:
            flushLingering()
        case .coordinatorStart:
            instances[event.subjectName, default: Instance()].isCoordinator = true
        case .coordinatorFinish:
            let subject = event.subjectName
            instances[subject, default: Instance()].finishedSeq = event.sessionSeq
            if !lastScreenGone.isEmpty { lastScreenGone[subject] = nil }
        case .presenterInit:
            instances[event.subjectName, default: Instance()].isPresenter = true
        case .coordinatorDeinit, .presenterDeinit:
            instances[event.subjectName, default: Instance()].isDeallocated = true
        case .screenPush, .screenPresent, .windowRoot:
            if let removed = event.payloadNames(.removed) {
                for screen in removed { screenLeft(screen, at: event.sessionSeq) }
            }
            guard let screen = event.screenName else { break }
            // A root or modal that is a container brings in screens pushed (and owned) before;
            // only a screen shown on its own belongs to the subject of this event.
            let subject = event.subjectName
            let content = event.payloadName(.root) ?? event.payloadName(.content)
            let owner = (content ?? screen) == screen && subject != screen ? subject : nil
            modifyScreen(screen) { state in
                state.removedSeq = nil
                if let owner { state.owner = owner }
            }
            if let owner {
                instances[owner, default: Instance()].liveScreens.insert(screen)
                if !lastScreenGone.isEmpty { lastScreenGone[owner] = nil }
            }
            if let bound = event.payloadNames(.bound) {
                for id in bound { instances[id, default: Instance()].boundScreen = screen }
            }
        case .screenPop:
            if let screen = event.screenName { screenLeft(screen, at: event.sessionSeq) }
        case .screenDismiss:
            if let removed = event.payloadNames(.removed) {
                for screen in removed { screenLeft(screen, at: event.sessionSeq) }
            } else if let screen = event.screenName {
                screenLeft(screen, at: event.sessionSeq)
            }
        case .viewModelChange:
            if let screen = event.screenName, screens[screen]?.removedSeq != nil {
                let subject = event.subjectName
                var isNew = false
                modifyInstance(subject) { instance in
                    isNew = !instance.reportedChange
                    instance.reportedChange = true
                }
                if isNew {
                    leaks.append(Found(kind: .changeAfterDismiss, subject: subject, screen: screen, sessionSeq: event.sessionSeq))
                }
            }
        default:
            break
        }
    }

    @inlinable
    mutating func modifyInstance(_ subject: Name, _ body: (inout Instance) -> Void) {
        body(&instances[subject, default: Instance()])
    }

    @inlinable
    mutating func modifyScreen(_ screen: Name, _ body: (inout ScreenState) -> Void) {
        body(&screens[screen, default: ScreenState()])
    }

    @inlinable
    mutating func screenLeft(_ screen: Name, at seq: UInt64) {
        var owner: Name?
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

    @inlinable
    mutating func flushLingering() {
        guard !lastScreenGone.isEmpty else { return }
        for (owner, gone) in lastScreenGone.sorted(by: { $0.value.seq < $1.value.seq }) where instances[owner]?.finishedSeq == nil {
            leaks.append(Found(kind: .outlivedScreens, subject: owner, screen: gone.screen, sessionSeq: gone.seq))
        }
        lastScreenGone.removeAll()
    }

    /// Returns the session's leaks, judging what is still alive now, with the strings
    /// `name(_:)` gives for the events' names.
    @inlinable
    public mutating func finish(naming name: (Name) -> String) -> [LeakDetector.Leak] {
        flushLingering()
        var finishedAlive: [(coordinator: Name, seq: UInt64)] = []
        var outlived: [(presenter: String, screen: String, removed: UInt64)] = []
        for (subject, instance) in instances where !instance.isDeallocated {
            if let seq = instance.finishedSeq { finishedAlive.append((subject, seq)) }
            if instance.isPresenter, let screen = instance.boundScreen, let removed = screens[screen]?.removedSeq {
                outlived.append((name(subject), name(screen), removed))
            }
        }
        var leaks = self.leaks.map { found in
            LeakDetector.Leak(kind: found.kind, session: session, subject: name(found.subject), screen: found.screen.map(name),
                              sessionSeq: found.sessionSeq)
        }
        for (coordinator, seq) in finishedAlive.sorted(by: { $0.seq < $1.seq }) {
            leaks.append(.init(kind: .finishedButAlive, session: session, subject: name(coordinator), screen: nil, sessionSeq: seq))
        }
        for (presenter, screen, removed) in outlived.sorted(by: { $0.presenter < $1.presenter }) {
            leaks.append(.init(kind: .presenterOutlivedScreen, session: session, subject: presenter, screen: screen, sessionSeq: removed))
        }
        return leaks.sorted { ($0.sessionSeq, $0.subject) < ($1.sessionSeq, $1.subject) }
    }
}

/// The leak scan of ``Event``s, which name things with strings.
public typealias SessionScan = SessionScanOf<String>

extension SessionScanOf where Name == String {
    /// Returns the session's leaks, judging what is still alive now.
    @inlinable
    public mutating func finish() -> [LeakDetector.Leak] {
        finish { $0 }
    }
}
