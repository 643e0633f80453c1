import NavlogEvents

/// One stretch of time during which one screen was the one the user saw.
typealias Visit = ScreenVisit

extension ScreenVisit {
    /// How long the visit lasted (ns), once it ended.
    var duration: UInt64? { end.map { $0 >= start ? $0 - start : 0 } }
}

/// View-model changes counted for one screen type in one session.
struct ChurnCounts: Equatable {
    /// Every `viewmodel.change` about a screen of this type.
    var changes = 0
    /// Changes undone within the same visit: the snapshot came back to one it already had.
    var reverted = 0
    /// Changes that touched only fields listed as not rendered (and were not reverted).
    var nonRendered = 0
    /// Changes recorded while the screen was not the visible one.
    var hidden = 0

    mutating func add(_ other: ChurnCounts) {
        changes += other.changes
        reverted += other.reverted
        nonRendered += other.nonRendered
        hidden += other.hidden
    }
}

/// A screen type shown twice within the double-push interval.
struct DoublePush: Equatable {
    var screenType: String
    var session: String
    /// The `sessionSeq` of the second push or present.
    var sessionSeq: UInt64
    /// The time between the two (ns).
    var interval: UInt64
}

/// Everything a finished session contributes to a report. It lives only from the session's
/// end until it is folded into the aggregates.
struct SessionRecord {
    var session: String
    var run: String
    var app: String?
    /// The values of the breakdown labels for this session.
    var labels: [String: String]
    var eventCount: Int
    /// Whether `session.end` was seen.
    var isComplete: Bool
    var firstWall: Int64
    var lastWall: Int64
    /// The screens the user saw, in order; every visit has ended.
    var visits: [Visit]
    /// Whether the session recorded `screen.ready` events, so loads can be timed.
    var recordsReadiness: Bool
    /// Churn per screen type.
    var churn: [String: ChurnCounts]
    var doublePushes: [DoublePush]
    var lifecycle: LifecycleTree
    var leaks: [LeakDetector.Leak]
    /// The screen types visited, in order: each visit's ``ScreenVisit/screenType``, worked out
    /// once by the tracker from its names (the folding reads them several times per visit, and
    /// each `screenType` cuts a new string from the screen's name).
    var path: [String]
}
