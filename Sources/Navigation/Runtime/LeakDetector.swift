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
    var finished: [String: UInt64] = [:]  // coordinator → finish seq
    var deallocated: Set<String> = []
    var coordinators: Set<String> = []
    var presenters: Set<String> = []  // only presenters record their deallocation
    var liveScreens: [String: Set<String>] = [:]  // owner → shown screens
    var screenOwner: [String: String] = [:]
    var lastScreenGone: [String: (screen: String, seq: UInt64)] = [:]  // owner → last screen left
    var boundToScreen: [String: String] = [:]  // presenter → screen
    var removedScreens: [String: UInt64] = [:]
    var reportedChanges: Set<String> = []
    var lastSeq: UInt64 = 0

    public init(session: String) {
        self.session = session
    }

    /// Reads the session's next event.
    public mutating func consume(_ event: Event) {
        lastSeq = event.sessionSeq
        switch event.kind {
        case .action, .deepLink, .sessionEnd:
            flushLingering()
        case .coordinatorStart:
            coordinators.insert(event.subject)
        case .coordinatorFinish:
            finished[event.subject] = event.sessionSeq
            lastScreenGone[event.subject] = nil
        case .presenterInit:
            presenters.insert(event.subject)
        case .coordinatorDeinit, .presenterDeinit:
            deallocated.insert(event.subject)
        case .screenPush, .screenPresent, .windowRoot:
            for removed in event.payload["removed"]?.arrayValue?.compactMap(\.stringValue) ?? [] {
                screenLeft(removed, at: event.sessionSeq)
            }
            guard let screen = event.screen else { break }
            removedScreens[screen] = nil
            // A root or modal that is a container brings in screens pushed (and owned) before;
            // only a screen shown on its own belongs to the subject of this event.
            let content = event.payload["root"]?.stringValue ?? event.payload["content"]?.stringValue ?? screen
            if content == screen, event.subject != screen {
                screenOwner[screen] = event.subject
                liveScreens[event.subject, default: []].insert(screen)
                lastScreenGone[event.subject] = nil
            }
            for bound in event.payload["bound"]?.arrayValue ?? [] {
                if let id = bound.stringValue { boundToScreen[id] = screen }
            }
        case .screenPop:
            if let screen = event.screen { screenLeft(screen, at: event.sessionSeq) }
        case .screenDismiss:
            let removed = event.payload["removed"]?.arrayValue?.compactMap(\.stringValue)
            for screen in removed ?? (event.screen.map { [$0] } ?? []) {
                screenLeft(screen, at: event.sessionSeq)
            }
        case .viewModelChange:
            if let screen = event.screen, removedScreens[screen] != nil, !reportedChanges.contains(event.subject) {
                reportedChanges.insert(event.subject)
                leaks.append(.init(kind: .changeAfterDismiss, session: session, subject: event.subject, screen: screen, sessionSeq: event.sessionSeq))
            }
        default:
            break
        }
    }

    mutating func screenLeft(_ screen: String, at seq: UInt64) {
        removedScreens[screen] = seq
        guard let owner = screenOwner[screen] else { return }
        liveScreens[owner]?.remove(screen)
        if liveScreens[owner]?.isEmpty == true, coordinators.contains(owner), finished[owner] == nil {
            lastScreenGone[owner] = (screen, seq)
        }
    }

    mutating func flushLingering() {
        guard !lastScreenGone.isEmpty else { return }
        for (owner, gone) in lastScreenGone.sorted(by: { $0.value.seq < $1.value.seq }) where finished[owner] == nil {
            leaks.append(.init(kind: .outlivedScreens, session: session, subject: owner, screen: gone.screen, sessionSeq: gone.seq))
        }
        lastScreenGone.removeAll()
    }

    /// Returns the session's leaks, judging what is still alive now.
    public mutating func finish() -> [LeakDetector.Leak] {
        flushLingering()
        for (coordinator, seq) in finished.sorted(by: { $0.value < $1.value }) where !deallocated.contains(coordinator) {
            leaks.append(.init(kind: .finishedButAlive, session: session, subject: coordinator, screen: nil, sessionSeq: seq))
        }
        for (presenter, screen) in boundToScreen.sorted(by: { $0.key < $1.key }) where presenters.contains(presenter) {
            if let removed = removedScreens[screen], !deallocated.contains(presenter) {
                leaks.append(.init(kind: .presenterOutlivedScreen, session: session, subject: presenter, screen: screen, sessionSeq: removed))
            }
        }
        return leaks.sorted { ($0.sessionSeq, $0.subject) < ($1.sessionSeq, $1.subject) }
    }
}
