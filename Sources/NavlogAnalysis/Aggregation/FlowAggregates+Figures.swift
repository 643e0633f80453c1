
/// Turns the running totals into report figures, sorted and rounded for stable output.
extension FlowAggregates {
    // MARK: - Screens and transitions

    /// How the report names a session: `RUN/SESSION` when it covers more than one run, whose
    /// sessions' names may repeat (every scripted run has an `s-1`), else the session's name.
    func sessionName(run: String, session: String) -> String {
        runs.count > 1 ? "\(run)/\(session)" : session
    }

    var summary: FlowReport.Summary {
        FlowReport.Summary(
            sessions: sessions, completeSessions: completeSessions, events: events,
            runs: runs.sorted(), firstWall: firstWall, lastWall: lastWall
        )
    }

    var screenFigures: [FlowReport.ScreenFigure] {
        visits.map { type, tally in
            FlowReport.ScreenFigure(screen: type, visits: tally.total, sessions: tally.sessions, entries: entries[type] ?? 0, exits: exits[type] ?? 0)
        }
        .sorted { ($1.visits, $0.screen) < ($0.visits, $1.screen) }
    }

    var transitionFigures: [FlowReport.TransitionFigure] {
        var departures: [String: Int] = [:]
        for (pair, count) in transitions { departures[pair.first, default: 0] += count }
        return transitions.map { pair, count in
            FlowReport.TransitionFigure(from: pair.first, to: pair.second, count: count, share: ratio(count, departures[pair.first] ?? 0))
        }
        .sorted { ($1.count, $0.from, $0.to) < ($0.count, $1.from, $1.to) }
    }

    var dwellFigures: [FlowReport.DwellFigure] {
        Set(dwell.keys).union(censoredVisits.keys).map { screen in
            let reservoir = dwell[screen] ?? DurationReservoir(limit: options.dwellSampleLimit)
            return FlowReport.DwellFigure(
                screen: screen, summary: reservoir.summary, histogram: HistogramBin.bins(forNanoseconds: reservoir.sample),
                censored: censoredVisits[screen] ?? 0
            )
        }
        .sorted { ($1.summary.count, $1.censored, $0.screen) < ($0.summary.count, $0.censored, $1.screen) }
    }

    var loadFigures: [FlowReport.LoadFigure] {
        loads.map { screen, tally in
            FlowReport.LoadFigure(
                screen: screen, summary: tally.durations.summary, histogram: HistogramBin.bins(forNanoseconds: tally.durations.sample),
                loaded: tally.outcomes["loaded"] ?? 0, empty: tally.outcomes["empty"] ?? 0, failed: tally.outcomes["failed"] ?? 0,
                abandoned: tally.abandoned, censored: tally.censored
            )
        }
        .sorted { ($1.summary.count + $1.abandoned, $0.screen) < ($0.summary.count + $0.abandoned, $1.screen) }
    }

    // MARK: - Paths, funnels, loops, dead ends

    var pathFigures: PathFigures {
        PathFigures(
            sessionPaths: top(sessionPaths.map { PathCount(screens: $0.key, sessions: $0.value, total: $0.value) }),
            subpaths: options.subpathLengths.reversed().flatMap { length in
                top(subpaths.filter { $0.key.count == length }.map(FlowAggregates.pathCount))
            },
            from: options.pathsFrom.map { AnchoredPaths(screen: $0, paths: top((pathsFrom[$0] ?? [:]).map(FlowAggregates.pathCount))) },
            to: options.pathsTo.map { AnchoredPaths(screen: $0, paths: top((pathsTo[$0] ?? [:]).map(FlowAggregates.pathCount))) },
            steps: stepFlows.map { StepFlow(step: $0.key.step, from: $0.key.from, to: $0.key.to, count: $0.value) }
                .sorted { ($0.step, $1.count, $0.from, $0.to) < ($1.step, $0.count, $1.from, $1.to) }
        )
    }

    var funnelFigures: [FunnelFigure] {
        zip(options.funnels, funnels).map { funnel, tally in
            let entered = tally.reached.first ?? 0
            let steps = funnel.steps.indices.map { index in
                let reached = tally.reached[index]
                let next = index + 1 < tally.reached.count ? tally.reached[index + 1] : reached
                return FunnelFigure.Step(
                    screen: funnel.steps[index], sessions: reached,
                    conversion: ratio(reached, entered),
                    stepConversion: index == 0 ? (entered > 0 ? 1 : 0) : ratio(reached, tally.reached[index - 1]),
                    dropOff: reached - next,
                    wentInstead: FlowAggregates.namedCounts(tally.wentInstead[index])
                )
            }
            return FunnelFigure(name: funnel.name, steps: steps, timeToConvert: tally.timeToConvert.summary)
        }
    }

    var loopFigures: LoopFigures {
        LoopFigures(
            cycles: FlowAggregates.sortedByCounts(
                cycles.map { LoopFigures.Cycle(screens: $0.key, sessions: $0.value.sessions, total: $0.value.total) },
                counts: { ($0.total, $0.sessions) }, path: \.screens),
            repeats: repeats.map { LoopFigures.Repeat(screen: $0.key, sessions: $0.value.sessions, extraVisits: $0.value.total) }
                .sorted { ($1.sessions, $1.extraVisits, $0.screen) < ($0.sessions, $0.extraVisits, $1.screen) }
        )
    }

    var deadEndFigures: [DeadEndFigure] {
        deadEnds.map { DeadEndFigure(screen: $0.key, sessions: $0.value, examples: (deadEndExamples[$0.key] ?? []).map { sessionName(run: $0.run, session: $0.session) }) }
            .sorted { ($1.sessions, $0.screen) < ($0.sessions, $1.screen) }
    }

    // MARK: - Lifecycles, leaks, churn, smells

    var lifecycleFigures: LifecycleFigures {
        LifecycleFigures(
            types: coordinatorTypes.values.sorted { $0.coordinator < $1.coordinator },
            edges: coordinatorEdges.map { LifecycleFigures.Edge(parent: $0.key.first, child: $0.key.second, count: $0.value) }
                .sorted { ($0.parent, $0.child) < ($1.parent, $1.child) },
            trees: zip(trees, treeRuns).map { tree, run in
                var tree = tree
                tree.session = sessionName(run: run, session: tree.session)
                return tree
            },
            unbalanced: unbalanced
        )
    }

    var leakFigures: LeakFigures {
        LeakFigures(
            count: leakCount,
            groups: leakGroups.map { LeakFigures.Group(kind: $0.key.first, subjectType: $0.key.second, count: $0.value.total, sessions: $0.value.sessions) }
                .sorted { ($1.count, $0.kind, $0.subjectType) < ($0.count, $1.kind, $1.subjectType) },
            examples: zip(leakExamples, leakExampleRuns).map { leak, run in
                var leak = leak
                leak.session = sessionName(run: run, session: leak.session)
                return leak
            }
        )
    }

    var churnFigures: [ChurnFigure] {
        churn.map { type, counts in
            let visitCount = visits[type]?.total ?? 0
            return ChurnFigure(
                screen: type, visits: visitCount, changes: counts.changes,
                changesPerVisit: visitCount == 0 ? 0 : rounded(Double(counts.changes) / Double(visitCount)),
                reverted: counts.reverted, nonRendered: counts.nonRendered,
                ineffective: counts.reverted + counts.nonRendered, hidden: counts.hidden
            )
        }
        .sorted { ($1.changes, $0.screen) < ($0.changes, $1.screen) }
    }

    var smellFigures: SmellFigures {
        SmellFigures(
            doublePushes: doublePushes.map { type, entry in
                SmellFigures.DoublePushFigure(
                    screen: type, count: entry.count, sessions: entry.sessions,
                    minimumIntervalMilliseconds: DurationSummary.milliseconds(nanoseconds: entry.minimum)
                )
            }
            .sorted { ($1.count, $0.screen) < ($0.count, $1.screen) },
            pingPongs: FlowAggregates.sortedByCounts(
                pingPongs.map { SmellFigures.PingPong(screens: $0.key, sessions: $0.value.sessions, maximumRoundTrips: $0.value.maximum) },
                counts: { ($0.sessions, 0) }, path: \.screens),
            changesAfterDismiss: changesAfterDismiss.map { SmellFigures.ChangeAfterDismiss(screen: $0.key, count: $0.value) }
                .sorted { ($1.count, $0.screen) < ($0.count, $1.screen) }
        )
    }

    /// The core figures of a breakdown value.
    func breakdownValue(named value: String) -> BreakdownFigure.Value {
        BreakdownFigure.Value(
            value: value, sessions: sessions, events: events,
            transitions: transitionFigures, dwell: dwellFigures,
            deadEndSessions: deadEndSessions, leaks: leakCount,
            funnelConversions: zip(options.funnels, funnels).map { funnel, tally in
                NamedValue(name: funnel.name, value: ratio(tally.reached.last ?? 0, tally.reached.first ?? 0))
            }
        )
    }

    // MARK: - Helpers

    /// The first ``ReportOptions/topCount`` paths: most sessions first, then most occurrences.
    private func top(_ paths: [PathCount]) -> [PathCount] {
        Array(FlowAggregates.sortedByCounts(paths, counts: { ($0.sessions, $0.total) }, path: \.screens).prefix(options.topCount))
    }

    /// `items` by `counts` descending, then by the path's text (`A>B>C`) ascending. Each path
    /// is joined once: joining inside the comparison did it at every one of the n·log n
    /// comparisons, which showed with one path per session over tens of thousands of sessions.
    static func sortedByCounts<Item>(_ items: [Item], counts: (Item) -> (Int, Int), path: (Item) -> [String]) -> [Item] {
        var keyed: [(item: Item, counts: (Int, Int), text: String)] = items.map { item in
            (item, counts(item), path(item).joined(separator: ">"))
        }
        keyed.sort { left, right in
            if left.counts.0 != right.counts.0 { return left.counts.0 > right.counts.0 }
            if left.counts.1 != right.counts.1 { return left.counts.1 > right.counts.1 }
            return left.text < right.text
        }
        return keyed.map(\.item)
    }

    private static func pathCount(_ entry: (key: [String], value: Tally)) -> PathCount {
        PathCount(screens: entry.key, sessions: entry.value.sessions, total: entry.value.total)
    }

    private static func namedCount(_ entry: (key: String, value: Int)) -> NamedCount {
        NamedCount(name: entry.key, count: entry.value)
    }

    static func namedCounts(_ table: [String: Int]) -> [NamedCount] {
        table.map(namedCount).sorted { ($1.count, $0.name) < ($0.count, $1.name) }
    }

    /// `part / whole` rounded to four decimals; 0 when `whole` is 0.
    private func ratio(_ part: Int, _ whole: Int) -> Double {
        whole == 0 ? 0 : rounded(Double(part) / Double(whole))
    }

    private func rounded(_ value: Double) -> Double {
        (value * 10_000).rounded() / 10_000
    }
}
