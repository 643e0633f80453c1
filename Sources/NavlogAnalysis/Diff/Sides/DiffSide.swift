/// Everything `navlog diff` compares about one side (base or candidate), whether it was read
/// from journals or from a baseline file, which stores exactly this.
///
/// Samples are kept in a seeded reservoir of at most ``DiffSettings/sampleLimit`` values per
/// metric (the report's ``DurationReservoir``), so a side stays small however many sessions
/// it covers; the `count` of a ``SampleSet`` says how many values were observed.
public struct DiffSide: Sendable, Equatable, Codable {
    public var sessions: Int
    public var events: Int
    public var runs: Int
    /// The exact event sequences of the deterministic runs, by scenario and session.
    public var sequences: [RecordedSequence]
    /// Visits per screen type.
    public var screens: [String: Int]
    /// Sessions that started on each screen type.
    public var entries: [String: Int]
    public var transitions: [TransitionCount]
    /// Dead-end sessions per screen type they ended on.
    public var deadEnds: [String: Int]
    /// Leaks per `kind subjectType`, such as `finished_not_deallocated DetailCoordinator`.
    public var leaks: [String: Int]
    /// Smells per description, such as `double push Detail` or `ping-pong Master/Detail`.
    public var smells: [String: Int]
    /// `error` events per code.
    public var errors: [String: Int]
    public var funnels: [FunnelSample]
    /// Dwell times per screen type, in microseconds.
    public var dwell: [String: SampleSet]
    /// Events per session.
    public var eventsPerSession: SampleSet
    /// Load times (time to full display) per screen type, with abandoned and failed loads.
    /// Absent from baselines saved before navlog timed loads.
    public var load: [String: LoadSample]?
    /// Sessions of scripted runs (runs with a `scenario` label). When every session on both
    /// sides is scripted, structural findings gate on any occurrence; otherwise on the share
    /// of sessions showing them.
    public var scriptedSessions: Int?
    /// How many sessions showed each structural item, for the session-share tests: keys
    /// `screen X`, `transition A → B`, `dead end X`, `leak KIND Type`, `smell …` and
    /// `error CODE`.
    public var sessionsShowing: [String: Int]?
    /// Departures from each screen type summed over sessions, for the clustered share test.
    public var departures: [String: SessionSpread]?

    // MARK: - Parts

    /// Changes of the visible screen from one type to another.
    public struct TransitionCount: Sendable, Equatable, Codable, Hashable {
        public var from: String
        public var to: String
        public var count: Int
        /// Sessions that made it, Σ over sessions of its count squared, and Σ of its count
        /// times the session's departures from `from` (for the clustered share test).
        public var sessions: Int?
        public var squares: Int?
        public var crossProducts: Int?

        public init(from: String, to: String, count: Int, sessions: Int? = nil, squares: Int? = nil, crossProducts: Int? = nil) {
            self.from = from
            self.to = to
            self.count = count
            self.sessions = sessions
            self.squares = squares
            self.crossProducts = crossProducts
        }
    }

    /// A count summed over sessions: sessions with any, Σ count and Σ count².
    public struct SessionSpread: Sendable, Equatable, Codable {
        public var sessions: Int
        public var sum: Int
        public var squares: Int
    }

    /// One screen type's first displays: load times in microseconds, and the loads that
    /// were abandoned (the visit ended first) or failed.
    public struct LoadSample: Sendable, Equatable, Codable {
        public var durations: SampleSet
        public var abandoned: Int
        public var failed: Int
    }

    /// Whether every session of the side is scripted (replays a scenario).
    public var isScripted: Bool {
        guard let scriptedSessions else { return true }
        return sessions > 0 && scriptedSessions == sessions
    }

    /// One funnel: how many sessions reached each step, and the times to convert.
    public struct FunnelSample: Sendable, Equatable, Codable {
        public var name: String
        public var steps: [String]
        public var reached: [Int]
        /// Times from the first step to the last, in microseconds.
        public var timeToConvert: SampleSet
    }

    /// The entry screen most sessions start on, for shortest paths.
    public var entryScreen: String? {
        entries.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    }

    /// The sequence recorded for a scenario and session.
    public func sequence(scenario: String, session: String) -> RecordedSequence? {
        sequences.first { $0.scenario == scenario && $0.session == session }
    }
}

/// Observed values of one metric: a reservoir sample and how many values were observed.
public struct SampleSet: Sendable, Equatable, Codable {
    /// How many values were observed.
    public var count: Int
    /// The kept values (microseconds for durations), at most the sample limit.
    public var values: [Int64]

    public init(count: Int = 0, values: [Int64] = []) {
        self.count = count
        self.values = values
    }
}

/// The normalized events of one scenario's session, as recorded by its first run.
public struct RecordedSequence: Sendable, Equatable, Codable {
    /// The `scenario` label, or `explore APP seed N` for seeded random walks.
    public var scenario: String
    public var session: String
    /// How many runs recorded this scenario's session.
    public var runs: Int
    /// Whether every run recorded the same sequence; when not, it cannot be compared exactly.
    public var isDeterministic: Bool
    public var events: [NormalizedEvent]

    /// The key the two sides are matched by.
    public var key: String { "\(scenario) \(session)" }
}
