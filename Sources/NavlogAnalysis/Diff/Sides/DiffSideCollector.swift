import NavlogEvents

/// Builds a ``DiffSide`` from a stream of events, alongside a ``ReportBuilder`` whose figures
/// it reuses (transitions, dead ends, leaks, smells, dwell and funnel samples).
///
/// What the report does not keep, it collects itself: the normalized event sequences of
/// scripted runs, `error` events by code, and events per session. Like the report, it holds
/// a session's state only until its `session.end`, plus one sequence per scenario and session.
///
/// ```swift
/// var collector = DiffSideCollector(settings: settings)
/// collector.addRun(id: run.id, labels: run.labels)
/// for event in events { collector.consume(event) }
/// let side = collector.finish()
/// ```
public struct DiffSideCollector {
    private var report: ReportBuilder
    private let ignoredPaths: [[String]]
    private var runLabels: [String: [String: String]] = [:]
    private var runOrder: [String: Int] = [:]
    /// Open sessions: their sequence key (when deterministic) and what they recorded so far.
    private var open: [String: OpenSession] = [:]
    private var sequences: [String: RecordedSequence] = [:]
    private var errors: [String: Int] = [:]
    /// Sessions with each `error` code.
    private var errorSessions: [String: Int] = [:]
    private var scriptedSessions = 0
    private var eventsPerSession: DurationReservoir

    private struct OpenSession {
        var scenario: String?
        /// Whether the session's run replays a scripted scenario (not a seeded walk).
        var isScripted: Bool
        var session: String
        var events: [NormalizedEvent] = []
        var count = 0
        var errorCodes: Set<String> = []
    }

    public init(settings: DiffSettings) {
        self.ignoredPaths = settings.ignoredPaths
        var options = ReportOptions(
            funnels: settings.funnels, expectedEndings: Set(settings.expectedEndings),
            dwellSampleLimit: settings.sampleLimit
        )
        options.topCount = 1000
        report = ReportBuilder(options: options)
        eventsPerSession = DurationReservoir(limit: max(16, settings.sampleLimit))
    }

    // MARK: - Input

    /// Registers the labels of a run (`scenario`, `app`, `explore_seed`…) before its events.
    public mutating func addRun(id: String, labels: [String: String]) {
        report.addRun(id: id, labels: labels)
        runLabels[id] = labels
        runOrder[id] = runOrder[id] ?? runOrder.count
    }

    /// Reads the next event; each session's events must come in order.
    public mutating func consume(_ event: Event) {
        report.consume(event)
        let key = event.run + "\u{1F}" + event.session
        if open[key] == nil {
            let scenario = scenario(of: event)
            open[key] = OpenSession(scenario: scenario.name, isScripted: scenario.isScripted, session: event.session)
        }
        open[key]!.count += 1
        if open[key]!.scenario != nil { open[key]!.events.append(NormalizedEvent(event, ignoring: ignoredPaths)) }
        if event.kind == .error {
            let code = event.payload["code"]?.stringValue ?? "(no code)"
            errors[code, default: 0] += 1
            open[key]!.errorCodes.insert(code)
        }
        if event.kind == .sessionEnd, let session = open.removeValue(forKey: key) { close(session) }
    }

    /// Finishes the sessions still open and returns the side.
    public mutating func finish() -> DiffSide {
        for key in open.keys.sorted() { close(open.removeValue(forKey: key)!) }
        let figures = report.finish()
        let samples = report.durationSamples
        let totals = report.totals
        var leaks: [String: Int] = [:]
        for group in figures.leaks.groups { leaks["\(group.kind) \(group.subjectType)", default: 0] += group.count }
        var smells: [String: Int] = [:]
        for push in figures.smells.doublePushes { smells["double push \(push.screen)"] = push.count }
        // A ping-pong between two screens is one smell whichever of them came first.
        for (pair, sessions) in report.totals.pingPongPairSessions { smells["ping-pong \(pair.joined(separator: "/"))"] = sessions }
        for change in figures.smells.changesAfterDismiss { smells["view-model change after dismiss \(change.screen)"] = change.count }
        return DiffSide(
            sessions: figures.summary.sessions,
            events: figures.summary.events,
            runs: figures.summary.runs.count,
            sequences: sequences.values.sorted { ($0.scenario, $0.session) < ($1.scenario, $1.session) },
            screens: Dictionary(uniqueKeysWithValues: figures.screens.map { ($0.screen, $0.visits) }),
            entries: Dictionary(uniqueKeysWithValues: figures.screens.filter { $0.entries > 0 }.map { ($0.screen, $0.entries) }),
            transitions: figures.transitions.map { figure in
                let moments = totals.transitionMoments[FlowAggregates.Pair(first: figure.from, second: figure.to)]
                return DiffSide.TransitionCount(
                    from: figure.from, to: figure.to, count: figure.count,
                    sessions: moments?.sessions ?? 0, squares: moments?.squares ?? 0, crossProducts: moments?.crossProducts ?? 0
                )
            },
            deadEnds: Dictionary(uniqueKeysWithValues: figures.deadEnds.map { ($0.screen, $0.sessions) }),
            leaks: leaks,
            smells: smells,
            errors: errors,
            funnels: zip(figures.funnels, samples.timeToConvert).map { figure, reservoir in
                DiffSide.FunnelSample(
                    name: figure.name, steps: figure.steps.map(\.screen), reached: figure.steps.map(\.sessions),
                    timeToConvert: DiffSideCollector.microseconds(reservoir)
                )
            },
            dwell: samples.dwell.mapValues(DiffSideCollector.microseconds),
            eventsPerSession: SampleSet(count: eventsPerSession.count, values: eventsPerSession.sample.map { Int64($0) }),
            load: samples.load.mapValues { tally in
                DiffSide.LoadSample(durations: DiffSideCollector.microseconds(tally.durations), abandoned: tally.abandoned, failed: tally.outcomes["failed"] ?? 0)
            },
            scriptedSessions: scriptedSessions,
            sessionsShowing: sessionsShowing(totals, smells: figures.smells),
            departures: totals.departureMoments.mapValues { DiffSide.SessionSpread(sessions: $0.sessions, sum: $0.sum, squares: $0.squares) }
        )
    }

    /// How many sessions showed each structural item (keys as in ``DiffSide/sessionsShowing``).
    private func sessionsShowing(_ totals: FlowAggregates, smells: SmellFigures) -> [String: Int] {
        var showing: [String: Int] = [:]
        for (screen, tally) in totals.visits { showing["screen \(screen)"] = tally.sessions }
        for (pair, moments) in totals.transitionMoments { showing["transition \(pair.first) → \(pair.second)"] = moments.sessions }
        for (screen, sessions) in totals.deadEnds { showing["dead end \(screen)"] = sessions }
        for (pair, tally) in totals.leakGroups { showing["leak \(pair.first) \(pair.second)"] = tally.sessions }
        for push in smells.doublePushes { showing["smell double push \(push.screen)"] = push.sessions }
        for (pair, sessions) in totals.pingPongPairSessions { showing["smell ping-pong \(pair.joined(separator: "/"))"] = sessions }
        for (screen, sessions) in totals.changesAfterDismissSessions { showing["smell view-model change after dismiss \(screen)"] = sessions }
        for (code, sessions) in errorSessions { showing["error \(code)"] = sessions }
        return showing
    }

    // MARK: - Sessions

    /// The scenario a session replays: the run's `scenario` label (or the `session.start`
    /// attribute), else `explore APP seed N` for a seeded walk, with `back-bias P` when the
    /// walk went back with a bias (`explore_back_bias`; walks without it, from `--back-bias 0`
    /// or an older navlog, are the same walks); `nil` for live sessions.
    private func scenario(of event: Event) -> (name: String?, isScripted: Bool) {
        let labels = runLabels[event.run] ?? [:]
        if let scenario = labels["scenario"] ?? (event.kind == .sessionStart ? event.payload["scenario"]?.stringValue : nil) {
            return (scenario, true)
        }
        if let seed = labels["explore_seed"] {
            var walk = "explore \(labels["app"] ?? "?") seed \(seed)"
            if let bias = labels["explore_back_bias"], (Double(bias) ?? 1) != 0 { walk += " back-bias \(bias)" }
            return (walk, false)
        }
        return (nil, false)
    }

    private mutating func close(_ session: OpenSession) {
        eventsPerSession.add(UInt64(session.count))
        if session.isScripted { scriptedSessions += 1 }
        for code in session.errorCodes { errorSessions[code, default: 0] += 1 }
        guard let scenario = session.scenario else { return }
        let key = scenario + "\u{1F}" + session.session
        if var recorded = sequences[key] {
            recorded.runs += 1
            if recorded.events != session.events { recorded.isDeterministic = false }
            sequences[key] = recorded
        } else {
            sequences[key] = RecordedSequence(scenario: scenario, session: session.session, runs: 1, isDeterministic: true, events: session.events)
        }
    }

    /// The kept durations in microseconds, the resolution both sides are compared at.
    private static func microseconds(_ reservoir: DurationReservoir) -> SampleSet {
        SampleSet(count: reservoir.count, values: reservoir.sample.map { Int64(($0 + 500) / 1000) })
    }
}
