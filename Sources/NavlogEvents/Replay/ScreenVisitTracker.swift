/// One stretch of time during which one screen was the one the user saw; ``ScreenVisit``
/// names the screen with a string.
public struct ScreenVisitOf<Name: Hashable & Sendable>: Sendable, Equatable {
    /// The screen instance, such as `Detail#1`.
    public var screen: Name
    /// Wall-clock nanoseconds when it became visible.
    public var startWallNanoseconds: Int64
    /// Monotonic nanoseconds when it became visible.
    public var start: UInt64
    /// Monotonic nanoseconds when it stopped being visible; nil while it still is.
    public var end: UInt64?
    /// The user intent whose navigation opened the visit, when later steps may coalesce.
    public var intent: UInt64?
    /// Whether this is the first visit of its screen instance: the one a load is timed on.
    public var isFirstShowing = false
    /// Monotonic nanoseconds of the screen's `screen.ready`, when it came during this visit.
    public var readyTime: UInt64?
    /// The `outcome` of that `screen.ready` (`loaded`, `empty` or `failed`), when it names one;
    /// nil stands for `loaded`.
    public var readyOutcome: Name?
    /// Whether the visit was still open when the session ended (or its events ran out): it
    /// was cut off, not ended by the user, so its duration is not a dwell time.
    public var isCensored = false

    @inlinable
    public init(screen: Name, startWallNanoseconds: Int64, start: UInt64, end: UInt64? = nil, intent: UInt64? = nil) {
        self.screen = screen
        self.startWallNanoseconds = startWallNanoseconds
        self.start = start
        self.end = end
        self.intent = intent
    }

    /// The same visit with its names replaced by `name(_:)`.
    @inlinable
    public func mapNames<Other>(_ name: (Name) -> Other) -> ScreenVisitOf<Other> {
        var visit = ScreenVisitOf<Other>(screen: name(screen), startWallNanoseconds: startWallNanoseconds, start: start, end: end, intent: intent)
        visit.isFirstShowing = isFirstShowing
        visit.readyTime = readyTime
        visit.readyOutcome = readyOutcome.map(name)
        visit.isCensored = isCensored
        return visit
    }
}

/// A visit of a screen named by a string.
public typealias ScreenVisit = ScreenVisitOf<String>

extension ScreenVisitOf where Name == String {
    /// The screen type, such as `Detail`.
    public var screenType: String { InstanceID.typeName(of: screen) }

    /// How the screen's first display went, for a first visit (nil for the others).
    public var load: ScreenLoad? {
        guard isFirstShowing else { return nil }
        if let readyTime { return .ready(nanoseconds: readyTime >= start ? readyTime - start : 0, outcome: readyOutcome ?? "loaded") }
        return isCensored ? .censored : .abandoned
    }
}

/// How a screen's first display went, from the start of its first visit (docs/REPORT.md).
public enum ScreenLoad: Sendable, Equatable {
    /// `screen.ready` came during the visit, `nanoseconds` after it started.
    case ready(nanoseconds: UInt64, outcome: String)
    /// The visit ended before the screen was ready: the user left while it loaded.
    case abandoned
    /// The session ended (or its events ran out) while it loaded: left out of load figures.
    case censored
}

/// Follows one session's events and lists the visits of the screen the user sees, with the
/// definitions of docs/REPORT.md, shared by `navlog report` and the exports:
///
/// - The navigation events behind one user intent (an `action` or a `deeplink`, followed
///   through the chain of causes) are one transition: a deep link that selects a tab and pushes
///   a screen shows the user one change, not two. Events caused by `session.start` belong to
///   no intent and never coalesce.
/// - The last visit lasts until `session.end`, or the last event when there is none; it is
///   censored (``ScreenVisit/isCensored``): cut off, not ended by the user.
/// - A screen instance's first visit times its load: from the visit's start to the screen's
///   `screen.ready`, abandoned when the visit ends first (``ScreenVisit/load``).
///
/// Generic over how events name things, like ``WindowReplayOf``: ``ScreenVisitTracker``
/// follows ``Event``s.
public struct ScreenVisitTrackerOf<Name: Hashable & Sendable>: Sendable {
    /// A change of the visible screen, as ``consume(_:)`` reports it.
    public struct Change: Equatable, Sendable {
        public var from: Name?
        public var to: Name?

        @inlinable
        public init(from: Name?, to: Name?) {
            self.from = from
            self.to = to
        }
    }

    public typealias Visit = ScreenVisitOf<Name>

    /// What the public properties read, stored where inlinable code can change it.
    @usableFromInline
    struct Stored: Sendable {
        @usableFromInline var visits: [Visit] = []
        @usableFromInline var isComplete = false
        @usableFromInline var recordsReadiness = false
        @usableFromInline var droppedVisitCount = 0

        @inlinable
        init() {}
    }

    @usableFromInline var stored = Stored()
    @usableFromInline var window = WindowReplayOf<Name>()
    public var visits: [Visit] { stored.visits }
    @usableFromInline var groupIntent: UInt64?
    @usableFromInline var rootCause: UInt64?
    @usableFromInline var intents = SequenceMap()
    @usableFromInline var lastMonotonic: UInt64 = 0
    public var isComplete: Bool { stored.isComplete }
    /// Whether the session recorded any `screen.ready`: journals of runtimes that did not
    /// know the kind have none, and then no load can be told abandoned.
    public var recordsReadiness: Bool { stored.recordsReadiness }
    /// The screen instances shown so far, to tell first visits.
    @usableFromInline var shownScreens: Set<Name> = []

    @inlinable
    public init() {}

    /// The screen the user sees now.
    @inlinable
    public var visibleScreen: Name? { visits.last.flatMap { $0.end == nil ? $0.screen : nil } }

    /// Updates the visits with the session's next event; returns the change of the visible
    /// screen it made, if any.
    @inlinable
    @discardableResult
    public mutating func consume<E: TrackedEvent>(_ event: E) -> Change? where E.Name == Name {
        lastMonotonic = max(lastMonotonic, event.monotonicNanoseconds)
        let intent = noteIntent(event)
        switch event.kind {
        case .sessionStart:
            rootCause = event.sessionSeq
        case .sessionEnd:
            closeVisit(at: event.monotonicNanoseconds, isCensored: true)
            stored.isComplete = true
        case .screenReady:
            noteReady(event)
        case _ where event.kind.isNavigation:
            return navigate(event, intent: intent)
        default:
            break
        }
        return nil
    }

    /// How many visits ``dropSettledVisits()`` has taken off the front of ``visits``: the
    /// visit at `visits[i]` is the session's visit number `droppedVisitCount + i` (from 0).
    public var droppedVisitCount: Int { stored.droppedVisitCount }

    /// Takes off and returns every visit but the last two, which are all that a later event
    /// can still change (a later step of the same intent takes the last back and may reopen
    /// the one before). For a reader that keeps what it needs of each visit as it settles, so
    /// that a long session's visits do not pile up.
    @inlinable
    public mutating func dropSettledVisits() -> ArraySlice<Visit> {
        guard visits.count > 2 else { return [] }
        let settled = visits[..<(visits.count - 2)]
        stored.droppedVisitCount += settled.count
        stored.visits.removeFirst(settled.count)
        return settled
    }

    /// Closes the open visit at the last event seen and returns every visit.
    @inlinable
    public mutating func finish() -> [Visit] {
        closeVisit(at: lastMonotonic, isCensored: true)
        return visits
    }

    /// Notes the time of a `screen.ready` for the visible screen's first visit.
    @inlinable
    mutating func noteReady<E: TrackedEvent>(_ event: E) where E.Name == Name {
        stored.recordsReadiness = true
        guard let screen = event.screenName, let last = visits.last, last.end == nil, last.screen == screen,
            last.isFirstShowing, last.readyTime == nil
        else { return }
        stored.visits[visits.count - 1].readyTime = event.monotonicNanoseconds
        stored.visits[visits.count - 1].readyOutcome = event.payloadName(.outcome)
    }

    /// A new visit of `screen` starting at `start`.
    @inlinable
    mutating func makeVisit(_ screen: Name, wall: Int64, start: UInt64, intent: UInt64?) -> Visit {
        var visit = Visit(screen: screen, startWallNanoseconds: wall, start: start, intent: intent)
        visit.isFirstShowing = shownScreens.insert(screen).inserted
        return visit
    }

    /// Returns the user intent behind `event`: itself for an `action` or `deeplink`, else the
    /// intent behind its cause.
    @inlinable
    mutating func noteIntent<E: TrackedEvent>(_ event: E) -> UInt64? {
        let intent: UInt64?
        let kind = event.kind
        if kind == .action || kind == .deepLink {
            intent = event.sessionSeq
        } else if let cause = event.cause, cause != rootCause {
            intent = intents.value(at: cause) ?? cause
        } else {
            intent = nil
        }
        if let intent { intents.set(intent, at: event.sessionSeq) }
        return intent
    }

    @inlinable
    mutating func navigate<E: TrackedEvent>(_ event: E, intent: UInt64?) -> Change? where E.Name == Name {
        let isSameGroup = intent != nil && intent == groupIntent
        groupIntent = intent
        window.apply(event)
        let visible = window.visibleScreen
        let open = visibleScreen
        guard visible != open else { return nil }
        if isSameGroup, let last = visits.last, last.end == nil, last.intent == intent {
            // A later step of the same intent: the screen shown in between never counted, and
            // its first display is still to come.
            stored.visits.removeLast()
            if last.isFirstShowing { shownScreens.remove(last.screen) }
            if let previous = visits.last, previous.screen == visible, previous.end == last.start {
                stored.visits[visits.count - 1].end = nil
            } else if let visible {
                stored.visits.append(makeVisit(visible, wall: last.startWallNanoseconds, start: last.start, intent: intent))
            }
            return Change(from: open, to: visible)
        }
        closeVisit(at: event.monotonicNanoseconds)
        if let visible {
            stored.visits.append(makeVisit(visible, wall: event.wallNanoseconds, start: event.monotonicNanoseconds, intent: intent))
        }
        return Change(from: open, to: visible)
    }

    @inlinable
    mutating func closeVisit(at time: UInt64, isCensored: Bool = false) {
        guard let last = visits.last, last.end == nil else { return }
        stored.visits[visits.count - 1].end = max(time, last.start)
        stored.visits[visits.count - 1].isCensored = isCensored
    }
}

/// The visits of ``Event``s, which name screens with strings.
public typealias ScreenVisitTracker = ScreenVisitTrackerOf<String>

/// Values by session seq: an array while the seqs come densely (as a session's do when it is
/// read whole), a dictionary for the rest. Noting an intent for nearly every event made this
/// a hashed insert per event before.
@usableFromInline
struct SequenceMap: Sendable {
    @usableFromInline var base: UInt64?
    @usableFromInline var dense: [UInt64?] = []
    @usableFromInline var sparse: [UInt64: UInt64] = [:]

    @inlinable
    init() {}

    @inlinable
    func value(at seq: UInt64) -> UInt64? {
        if let base, seq >= base, seq - base < UInt64(dense.count) { return dense[Int(seq - base)] }
        return sparse[seq]
    }

    @inlinable
    mutating func set(_ value: UInt64, at seq: UInt64) {
        let base = self.base ?? seq
        self.base = base
        if seq >= base, seq - base < UInt64(dense.count) {
            dense[Int(seq - base)] = value
        } else if seq >= base, seq - base < UInt64(dense.count) + 1024 {
            // Usually the next seq: nothing to fill in between.
            if seq - base > UInt64(dense.count) { dense += [UInt64?](repeating: nil, count: Int(seq - base) - dense.count) }
            dense.append(value)
        } else {
            sparse[seq] = value
        }
    }
}
