import NavlogEvents

// MARK: - Lifecycles and leaks

/// Coordinator lifecycles: balance per type, the type-level tree and example session trees.
public struct LifecycleFigures: Sendable, Equatable {
    /// Start, finish and deallocation counts for one coordinator type.
    public struct TypeBalance: Sendable, Equatable {
        public var coordinator: String
        public var started: Int
        public var finished: Int
        public var deallocated: Int
        /// Instances whose start and finish do not pair up.
        public var unbalanced: Int
    }

    /// How often coordinators of one type coordinated to another type.
    public struct Edge: Sendable, Equatable {
        public var parent: String
        public var child: String
        public var count: Int
    }

    public var types: [TypeBalance]
    public var edges: [Edge]
    /// The trees of the first ``ReportOptions/lifecycleTreeLimit`` sessions.
    public var trees: [LifecycleTree]
    /// Instances started and never finished, or finished without a start, over all sessions.
    public var unbalanced: Int
}

/// Leaks found by ``LeakDetector``.
public struct LeakFigures: Sendable, Equatable {
    /// Leaks of one kind by one subject type.
    public struct Group: Sendable, Equatable {
        public var kind: String
        public var subjectType: String
        public var count: Int
        public var sessions: Int
    }

    public var count: Int
    public var groups: [Group]
    /// The first ``ReportOptions/topCount`` leaks, in stream order.
    public var examples: [LeakDetector.Leak]
}

// MARK: - Churn and smells

/// View-model churn for one screen type.
public struct ChurnFigure: Sendable, Equatable {
    public var screen: String
    public var visits: Int
    public var changes: Int
    /// `changes` over `visits`; 0 when there was no visit.
    public var changesPerVisit: Double
    public var reverted: Int
    public var nonRendered: Int
    /// `reverted + nonRendered`: changes the user could not keep seeing.
    public var ineffective: Int
    /// Changes recorded while the screen was not the visible one.
    public var hidden: Int
}

/// Navigation smells.
public struct SmellFigures: Sendable, Equatable {
    /// One screen type shown twice within the interval.
    public struct DoublePushFigure: Sendable, Equatable {
        public var screen: String
        public var count: Int
        public var sessions: Int
        /// The shortest interval seen (ms).
        public var minimumIntervalMilliseconds: Double
    }

    /// Back and forth between two screen types.
    public struct PingPong: Sendable, Equatable {
        /// The two screen types, in the order first seen.
        public var screens: [String]
        public var sessions: Int
        /// The most round trips in a row seen in one session.
        public var maximumRoundTrips: Int
    }

    /// View models changed after their screen left, by screen type.
    public struct ChangeAfterDismiss: Sendable, Equatable {
        public var screen: String
        public var count: Int
    }

    public var doublePushes: [DoublePushFigure]
    public var pingPongs: [PingPong]
    public var changesAfterDismiss: [ChangeAfterDismiss]
}

// MARK: - Breakdown

/// The core figures per value of one label.
public struct BreakdownFigure: Sendable, Equatable {
    /// The core figures of the sessions with one label value.
    public struct Value: Sendable, Equatable {
        /// The label value; `(none)` for sessions without the label.
        public var value: String
        public var sessions: Int
        public var events: Int
        public var transitions: [FlowReport.TransitionFigure]
        public var dwell: [FlowReport.DwellFigure]
        public var deadEndSessions: Int
        public var leaks: Int
        /// Conversion (last step over first) of each funnel, in option order.
        public var funnelConversions: [NamedValue]
    }

    public var label: String
    public var values: [Value]
}

/// A name with a number.
public struct NamedValue: Sendable, Equatable {
    public var name: String
    public var value: Double
}
