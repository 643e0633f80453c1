
/// The result of `navlog report`: every figure, ready for a renderer.
///
/// Lists are sorted so that equal inputs give equal reports: by count descending, then by
/// name. `docs/REPORT.md` describes each figure and its JSON form.
public struct FlowReport: Sendable, Equatable {
    public var summary: Summary
    public var screens: [ScreenFigure]
    public var transitions: [TransitionFigure]
    public var paths: PathFigures
    public var funnels: [FunnelFigure]
    public var dwell: [DwellFigure]
    public var load: [LoadFigure]
    public var loops: LoopFigures
    public var deadEnds: [DeadEndFigure]
    public var lifecycles: LifecycleFigures
    public var leaks: LeakFigures
    public var churn: [ChurnFigure]
    public var smells: SmellFigures
    public var breakdown: [BreakdownFigure]

    // MARK: - Summary and screens

    /// What the report covers.
    public struct Summary: Sendable, Equatable {
        /// Sessions included.
        public var sessions: Int
        /// Sessions whose `session.end` was seen.
        public var completeSessions: Int
        /// Events read from the included sessions.
        public var events: Int
        /// The runs the included sessions belong to.
        public var runs: [String]
        /// The first and last wall-clock times (ns since the epoch), when any event was read.
        public var firstWall: Int64?
        public var lastWall: Int64?
        /// The apps of every session read, those the filters left out included: what an app
        /// filter could have matched (see ``FlowReport/unseenNames(in:)``).
        public var appsRead: [String] = []
    }

    /// One screen type.
    public struct ScreenFigure: Sendable, Equatable {
        public var screen: String
        /// Times it became the visible screen.
        public var visits: Int
        /// Sessions that saw it.
        public var sessions: Int
        /// Sessions that started on it.
        public var entries: Int
        /// Sessions that ended on it.
        public var exits: Int
    }

    /// Changes of the visible screen from one type to another.
    public struct TransitionFigure: Sendable, Equatable {
        public var from: String
        public var to: String
        public var count: Int
        /// `count` over every transition leaving `from` (session ends are not departures).
        public var share: Double
    }

    /// A duration summary for one screen type.
    public struct DwellFigure: Sendable, Equatable {
        public var screen: String
        public var summary: DurationSummary
        /// The distribution of the kept samples, for charts.
        public var histogram: [HistogramBin]
        /// Visits left out because the session's end cut them off (each session's last).
        public var censored: Int
    }

    /// How long one screen type takes to show its content the first time (time to full
    /// display): from the start of a screen instance's first visit to its `screen.ready`.
    public struct LoadFigure: Sendable, Equatable {
        public var screen: String
        /// The loads that finished during the first visit, whatever their outcome.
        public var summary: DurationSummary
        public var histogram: [HistogramBin]
        /// Finished loads by outcome.
        public var loaded: Int
        public var empty: Int
        public var failed: Int
        /// First visits that ended before the screen was ready.
        public var abandoned: Int
        /// First visits still loading when the session ended: left out.
        public var censored: Int

        /// Abandoned over finished and abandoned loads.
        public var abandonedShare: Double {
            summary.count + abandoned == 0 ? 0 : ((Double(abandoned) / Double(summary.count + abandoned)) * 10_000).rounded() / 10_000
        }

        /// Failed over finished loads.
        public var failedShare: Double {
            summary.count == 0 ? 0 : ((Double(failed) / Double(summary.count)) * 10_000).rounded() / 10_000
        }
    }
}

// MARK: - Paths, funnels, loops, dead ends

/// A sequence of screen types with how often it occurred.
public struct PathCount: Sendable, Equatable {
    public var screens: [String]
    /// Sessions it occurred in, once per session.
    public var sessions: Int
    /// Occurrences in all, several per session possible.
    public var total: Int
}

/// Top session paths, subpaths and anchored paths.
public struct PathFigures: Sendable, Equatable {
    /// Whole session paths (cut at ``ReportOptions/maxPathLength``).
    public var sessionPaths: [PathCount]
    /// Subpaths of each length in ``ReportOptions/subpathLengths``, longest first.
    public var subpaths: [PathCount]
    /// Paths from each screen of ``ReportOptions/pathsFrom``.
    public var from: [AnchoredPaths]
    /// Paths to each screen of ``ReportOptions/pathsTo``.
    public var to: [AnchoredPaths]
    /// Transitions unrolled by step (the n-th change of a session), for sankey diagrams.
    public var steps: [StepFlow]
}

/// How many sessions went from `from` at step `step` to `to` at step `step + 1`.
public struct StepFlow: Sendable, Equatable {
    /// The 1-based position of `from` in the session path.
    public var step: Int
    public var from: String
    public var to: String
    public var count: Int
}

/// The paths that start from (or lead to) one screen type.
public struct AnchoredPaths: Sendable, Equatable {
    public var screen: String
    public var paths: [PathCount]
}

/// Conversion through one funnel.
public struct FunnelFigure: Sendable, Equatable {
    public struct Step: Sendable, Equatable {
        public var screen: String
        /// Sessions that reached this step, in order.
        public var sessions: Int
        /// `sessions` over the sessions that reached step 1.
        public var conversion: Double
        /// `sessions` over the sessions that reached the step before.
        public var stepConversion: Double
        /// Sessions that reached this step and not the next one.
        public var dropOff: Int
        /// Where the drop-offs went right after this step: a screen type or `(end)`.
        public var wentInstead: [NamedCount]
    }

    public var name: String
    public var steps: [Step]
    /// The time from step 1 to the last step, for sessions that converted.
    public var timeToConvert: DurationSummary
}

/// A name with a count.
public struct NamedCount: Sendable, Equatable {
    public var name: String
    public var count: Int
}

/// A→B→A round trips and repeated screens.
public struct LoopFigures: Sendable, Equatable {
    /// One A→B→A round trip pattern.
    public struct Cycle: Sendable, Equatable {
        public var screens: [String]
        public var sessions: Int
        public var total: Int
    }

    /// A screen type seen more than once in a session.
    public struct Repeat: Sendable, Equatable {
        public var screen: String
        public var sessions: Int
        /// Visits beyond the first, over all sessions.
        public var extraVisits: Int
    }

    public var cycles: [Cycle]
    public var repeats: [Repeat]
}

/// Sessions that stopped on a screen that is not an expected ending.
public struct DeadEndFigure: Sendable, Equatable {
    public var screen: String
    public var sessions: Int
    /// Up to ``ReportOptions/topCount`` of those sessions, in the order they ended.
    public var examples: [String]
}
