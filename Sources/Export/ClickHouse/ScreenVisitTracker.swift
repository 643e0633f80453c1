import Navigation

/// One stretch of time during which one screen was the one the user saw.
public struct ScreenVisit: Sendable, Equatable {
    /// The screen instance, such as `Detail#1`.
    public var screen: String
    /// Wall-clock nanoseconds when it became visible.
    public var startWallNanoseconds: Int64
    /// Monotonic nanoseconds when it became visible.
    public var start: UInt64
    /// Monotonic nanoseconds when it stopped being visible; nil while it still is.
    public var end: UInt64?
    /// The cause shared by the navigation events that opened the visit, when they coalesce.
    var groupCause: UInt64?

    /// The screen type, such as `Detail`.
    public var screenType: String { InstanceID.typeName(of: screen) }
}

/// Follows one session's navigation and lists its visits, with the definitions of
/// docs/REPORT.md: navigation events that share one cause (other than `session.start`) are one
/// transition, the last visit lasts until `session.end`, or the last event when there is none.
///
/// It mirrors FlowAnalysis's session tracking so that the ClickHouse visits table gives the
/// same transitions and dwell times as `navlog report`; the tests compare the two.
struct ScreenVisitTracker {
    private var window = VisibleScreenModel()
    private(set) var visits: [ScreenVisit] = []
    private var groupCause: UInt64?
    private var rootCause: UInt64?
    private var lastMonotonic: UInt64 = 0
    private(set) var isComplete = false

    /// Updates the visits with the session's next event.
    mutating func consume(_ event: Event) {
        lastMonotonic = max(lastMonotonic, event.monotonicNanoseconds)
        switch event.kind {
        case .sessionStart:
            rootCause = event.sessionSeq
        case .sessionEnd:
            closeVisit(at: event.monotonicNanoseconds)
            isComplete = true
        case _ where EventKind.navigationKinds.contains(event.kind):
            navigate(event)
        default:
            break
        }
    }

    /// Closes the open visit at the last event and returns every visit.
    mutating func finish() -> [ScreenVisit] {
        closeVisit(at: lastMonotonic)
        return visits
    }

    private mutating func navigate(_ event: Event) {
        let cause = event.cause.flatMap { $0 == rootCause ? nil : $0 }
        let isSameGroup = cause != nil && cause == groupCause
        groupCause = cause
        window.apply(event)
        let visible = window.visibleScreen
        let open = visits.last.flatMap { $0.end == nil ? $0.screen : nil }
        guard visible != open else { return }
        if isSameGroup, let last = visits.last, last.end == nil, last.groupCause == cause {
            // A later step of the same operation: the screen shown in between never counted.
            visits.removeLast()
            if let previous = visits.last, previous.screen == visible, previous.end == last.start {
                visits[visits.count - 1].end = nil
            } else if let visible {
                visits.append(ScreenVisit(screen: visible, startWallNanoseconds: last.startWallNanoseconds, start: last.start, groupCause: cause))
            }
            return
        }
        closeVisit(at: event.monotonicNanoseconds)
        if let visible {
            visits.append(ScreenVisit(screen: visible, startWallNanoseconds: event.wallNanoseconds, start: event.monotonicNanoseconds, groupCause: cause))
        }
    }

    private mutating func closeVisit(at time: UInt64) {
        guard let last = visits.last, last.end == nil else { return }
        visits[visits.count - 1].end = max(time, last.start)
    }
}
