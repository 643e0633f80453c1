import Foundation
import NavlogJournal

/// What a report covers and how its figures are computed.
///
/// Every field has a default, so `ReportOptions()` reports everything with the documented
/// thresholds:
///
/// ```swift
/// var options = ReportOptions()
/// options.funnels = [Funnel(name: "checkout", steps: ["Cart", "Address", "Payment", "Done"])]
/// options.breakdownLabels = ["version"]
/// ```
public struct ReportOptions: Sendable, Equatable {
    // MARK: - Filters

    /// Keeps only sessions whose run carries every one of these labels with this value.
    public var labelFilter: [String: String]
    /// Keeps only sessions of these apps (the `app` of `session.start`); empty keeps all.
    public var apps: Set<String>
    /// Keeps only sessions with these names, in any run; with ``runSessions`` too, a session
    /// is kept when either holds it; both empty keep all.
    public var sessions: Set<String>
    /// Keeps only these sessions, each of one run (`RUN/SESSION`); see ``sessions``.
    public var runSessions: Set<SessionIdentity>
    /// Keeps only sessions of these runs; empty keeps all.
    public var runs: Set<String>
    /// Keeps only sessions whose first event is at or after this wall-clock time (ns since the epoch).
    public var since: Int64?
    /// Keeps only sessions whose first event is before this wall-clock time (ns since the epoch).
    public var until: Int64?

    // MARK: - Paths

    /// The lengths of the subpaths (n-grams of screen types) counted; default 2 to 4.
    public var subpathLengths: ClosedRange<Int>
    /// Full session paths longer than this are cut and end in `…`, which bounds their variety.
    public var maxPathLength: Int
    /// Screen types to report the paths that start from.
    public var pathsFrom: [String]
    /// Screen types to report the paths that lead to.
    public var pathsTo: [String]
    /// How many screens an anchored path holds, the anchor included.
    public var anchoredPathLength: Int
    /// How many rows each top list keeps (paths, subpaths, anchored paths, examples).
    public var topCount: Int

    // MARK: - Funnels, dead ends, churn, smells

    /// The funnels to measure.
    public var funnels: [Funnel]
    /// Screen types where a session may end without being a dead end.
    public var expectedEndings: Set<String>
    /// Whether the first screen of each session is an expected ending too.
    public var firstScreenIsExpectedEnding: Bool
    /// View-model fields that no view renders, as `field` (any view model) or `ViewModel.field`.
    public var nonRenderedFields: Set<String>
    /// Two pushes or presents of one screen type closer than this are a double push (ns).
    public var doublePushInterval: UInt64
    /// How many A→B→A round trips in a row make a ping-pong.
    public var pingPongRoundTrips: Int

    // MARK: - Breakdown and bounds

    /// Run labels (or `session.start` fields, such as `app`) to break the core figures down by.
    public var breakdownLabels: [String]
    /// The most dwell samples kept per screen type; beyond it a seeded reservoir sample is kept.
    public var dwellSampleLimit: Int
    /// How many sessions' coordinator trees the report keeps as examples.
    public var lifecycleTreeLimit: Int

    public init(
        labelFilter: [String: String] = [:],
        apps: Set<String> = [],
        sessions: Set<String> = [],
        runSessions: Set<SessionIdentity> = [],
        runs: Set<String> = [],
        since: Int64? = nil,
        until: Int64? = nil,
        subpathLengths: ClosedRange<Int> = 2...4,
        maxPathLength: Int = 12,
        pathsFrom: [String] = [],
        pathsTo: [String] = [],
        anchoredPathLength: Int = 4,
        topCount: Int = 10,
        funnels: [Funnel] = [],
        expectedEndings: Set<String> = [],
        firstScreenIsExpectedEnding: Bool = true,
        nonRenderedFields: Set<String> = [],
        doublePushInterval: UInt64 = 1_000_000_000,
        pingPongRoundTrips: Int = 2,
        breakdownLabels: [String] = [],
        dwellSampleLimit: Int = 100_000,
        lifecycleTreeLimit: Int = 20
    ) {
        self.labelFilter = labelFilter
        self.apps = apps
        self.sessions = sessions
        self.runSessions = runSessions
        self.runs = runs
        self.since = since
        self.until = until
        self.subpathLengths = max(1, subpathLengths.lowerBound)...max(1, subpathLengths.upperBound)
        self.maxPathLength = max(1, maxPathLength)
        self.pathsFrom = pathsFrom
        self.pathsTo = pathsTo
        self.anchoredPathLength = max(2, anchoredPathLength)
        self.topCount = max(1, topCount)
        self.funnels = funnels
        self.expectedEndings = expectedEndings
        self.firstScreenIsExpectedEnding = firstScreenIsExpectedEnding
        self.nonRenderedFields = nonRenderedFields
        self.doublePushInterval = doublePushInterval
        self.pingPongRoundTrips = max(1, pingPongRoundTrips)
        self.breakdownLabels = breakdownLabels
        self.dwellSampleLimit = max(16, dwellSampleLimit)
        self.lifecycleTreeLimit = max(0, lifecycleTreeLimit)
    }

    // MARK: - Matching

    /// Whether the session and run filters keep session `session` of run `run`.
    func includes(session: String, run: String) -> Bool {
        if !runs.isEmpty, !runs.contains(run) { return false }
        guard !sessions.isEmpty || !runSessions.isEmpty else { return true }
        return sessions.contains(session) || runSessions.contains(SessionIdentity(run: run, session: session))
    }

    /// Whether a field of a view model is listed as not rendered.
    func isNonRendered(field: String, viewModel: String?) -> Bool {
        guard !nonRenderedFields.isEmpty else { return false }
        if nonRenderedFields.contains(field) { return true }
        guard let viewModel else { return false }
        return nonRenderedFields.contains("\(viewModel).\(field)")
    }
}

/// A funnel: screen types a session should visit in this order, others allowed in between.
public struct Funnel: Sendable, Equatable {
    public var name: String
    public var steps: [String]

    public init(name: String, steps: [String]) {
        self.name = name
        self.steps = steps
    }

    /// Parses `[NAME=]A,B,C`, as `--funnel` takes it: screens separated by commas, blanks
    /// trimmed; without a name the funnel is called `funnel N`, N being `position` (from 1).
    ///
    /// ```swift
    /// try Funnel(parsing: "checkout=Cart, Payment, Done", position: 1)   // checkout: Cart → Payment → Done
    /// ```
    public init(parsing text: String, position: Int) throws(SyntaxError) {
        var name = "funnel \(position)"
        var list = Substring(text)
        if let equals = text.firstIndex(of: "=") {
            name = String(text[..<equals])
            list = text[text.index(after: equals)...]
        }
        let steps = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard steps.count >= 2 else { throw SyntaxError(text: text) }
        self.init(name: name, steps: steps)
    }

    /// A funnel text with fewer than two screens.
    public struct SyntaxError: Error, CustomStringConvertible {
        /// The text as given.
        public var text: String
        public var description: String { "a funnel needs at least two screens, as [NAME=]A,B[,C...]: '\(text)'" }
    }
}
