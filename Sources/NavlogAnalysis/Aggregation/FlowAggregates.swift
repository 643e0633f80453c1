import NavlogEvents

/// The running totals a report is made from; finished sessions are folded in one at a time.
///
/// Memory grows with the variety of what is counted, never with the number of events:
/// - counters keyed by screen type, transition, subpath, loop or coordinator type, all
///   bounded by the app's number of screen and coordinator types;
/// - whole session paths, cut at ``ReportOptions/maxPathLength``: at most one key per
///   distinct path, so at worst one per session;
/// - dwell times and times to convert in ``DurationReservoir``s, at most
///   ``ReportOptions/dwellSampleLimit`` values each;
/// - at most ``ReportOptions/lifecycleTreeLimit`` trees and ``ReportOptions/topCount``
///   examples (leaks, dead ends).
struct FlowAggregates {
    /// Counts of something seen in sessions: once per session and in total.
    struct Tally {
        var sessions = 0
        var total = 0

        /// Counts one session in which the item occurred `total` times.
        mutating func add(total count: Int) {
            sessions += 1
            total += count
        }
    }

    /// The first displays of one screen type: timed loads by outcome, abandoned and censored.
    struct LoadTally {
        var durations: DurationReservoir
        var outcomes: [String: Int] = [:]
        var abandoned = 0
        var censored = 0

        /// Loads that finished (any outcome).
        var completed: Int { durations.count }
    }

    /// Sums over sessions of one count (x per session) and its product with another (n), for
    /// tests that take sessions, not events, as the unit: Σx, Σx², Σx·n and how many
    /// sessions had x > 0.
    struct SessionMoments {
        var sessions = 0
        var sum = 0
        var squares = 0
        var crossProducts = 0

        mutating func add(_ count: Int, against other: Int) {
            guard count > 0 else { return }
            sessions += 1
            sum += count
            squares += count * count
            crossProducts += count * other
        }
    }

    struct FunnelTally {
        var reached: [Int]
        var wentInstead: [[String: Int]]
        var timeToConvert: DurationReservoir
    }

    let options: ReportOptions
    /// Whether only the core figures of a breakdown are kept (no paths, loops, trees, smells).
    let isCoreOnly: Bool

    var sessions = 0
    var completeSessions = 0
    var events = 0
    var runs: Set<String> = []
    var firstWall: Int64?
    var lastWall: Int64?

    var visits: [String: Tally] = [:]
    var entries: [String: Int] = [:]
    var exits: [String: Int] = [:]
    var transitions: [Pair: Int] = [:]
    var dwell: [String: DurationReservoir] = [:]
    /// Visits left out of dwell because the session's end cut them off.
    var censoredVisits: [String: Int] = [:]
    var loads: [String: LoadTally] = [:]
    /// Per transition and per screen's departures, sums over sessions (see ``SessionMoments``).
    var transitionMoments: [Pair: SessionMoments] = [:]
    var departureMoments: [String: SessionMoments] = [:]
    var sessionPaths: [[String]: Int] = [:]
    var stepFlows: [StepKey: Int] = [:]
    var subpaths: [[String]: Tally] = [:]
    var pathsFrom: [String: [[String]: Tally]] = [:]
    var pathsTo: [String: [[String]: Tally]] = [:]
    var funnels: [FunnelTally]
    var cycles: [[String]: Tally] = [:]
    var repeats: [String: Tally] = [:]
    var deadEnds: [String: Int] = [:]
    /// The example sessions of each dead end, with their runs: see ``sessionName(run:session:)``.
    var deadEndExamples: [String: [(run: String, session: String)]] = [:]
    var deadEndSessions = 0

    var coordinatorTypes: [String: LifecycleFigures.TypeBalance] = [:]
    var coordinatorEdges: [Pair: Int] = [:]
    var trees: [LifecycleTree] = []
    /// The run of each of ``trees``.
    var treeRuns: [String] = []
    var unbalanced = 0
    var leakCount = 0
    var leakGroups: [Pair: Tally] = [:]
    var leakExamples: [LeakDetector.Leak] = []
    /// The run of each of ``leakExamples``.
    var leakExampleRuns: [String] = []

    var churn: [String: ChurnCounts] = [:]
    var doublePushes: [String: (count: Int, sessions: Int, minimum: UInt64)] = [:]
    var pingPongs: [[String]: (sessions: Int, maximum: Int)] = [:]
    /// Sessions with a ping-pong between two screens, whichever came first (the pair sorted).
    var pingPongPairSessions: [[String]: Int] = [:]
    var changesAfterDismiss: [String: Int] = [:]
    /// Sessions with a view-model change after dismiss, per screen type.
    var changesAfterDismissSessions: [String: Int] = [:]

    /// A transition at one step of the session path.
    struct StepKey: Hashable {
        var step: Int
        var from: String
        var to: String
    }

    /// Two names, such as a transition's ends or a leak's kind and subject type.
    struct Pair: Hashable {
        var first: String
        var second: String
    }

    init(options: ReportOptions, isCoreOnly: Bool = false) {
        self.options = options
        self.isCoreOnly = isCoreOnly
        self.funnels = options.funnels.map { funnel in
            FunnelTally(
                reached: Array(repeating: 0, count: funnel.steps.count),
                wentInstead: Array(repeating: [:], count: funnel.steps.count),
                timeToConvert: DurationReservoir(limit: options.dwellSampleLimit)
            )
        }
    }

    // MARK: - Folding a session in

    mutating func add(_ record: SessionRecord) {
        sessions += 1
        if record.isComplete { completeSessions += 1 }
        events += record.eventCount
        if !record.run.isEmpty { runs.insert(record.run) }
        firstWall = min(firstWall ?? record.firstWall, record.firstWall)
        lastWall = max(lastWall ?? record.lastWall, record.lastWall)
        addScreens(record)
        addFunnels(record)
        addLeaks(record.leaks, run: record.run)
        if !isCoreOnly {
            addPaths(record.path)
            addLifecycle(record.lifecycle, run: record.run)
            addSmells(record)
            for (type, counts) in record.churn { churn[type, default: ChurnCounts()].add(counts) }
        }
    }

    private mutating func addScreens(_ record: SessionRecord) {
        let path = record.path
        for type in Set(path) { visits[type, default: Tally()].sessions += 1 }
        for (visit, type) in zip(record.visits, path) {
            visits[type, default: Tally()].total += 1
            if visit.isCensored {
                censoredVisits[type, default: 0] += 1
            } else if let duration = visit.duration {
                dwell[type, default: DurationReservoir(limit: options.dwellSampleLimit)].add(duration)
            }
            if record.recordsReadiness, let load = visit.load { addLoad(load, of: type) }
        }
        var sessionTransitions: [Pair: Int] = [:]
        for (from, to) in zip(path, path.dropFirst()) { sessionTransitions[Pair(first: from, second: to), default: 0] += 1 }
        for (pair, count) in sessionTransitions { transitions[pair, default: 0] += count }
        if !isCoreOnly { addMoments(sessionTransitions) }
        guard let first = path.first, let last = path.last else { return }
        entries[first, default: 0] += 1
        exits[last, default: 0] += 1
        let isExpected = options.expectedEndings.contains(last) || (options.firstScreenIsExpectedEnding && last == first)
        if !isExpected {
            deadEndSessions += 1
            deadEnds[last, default: 0] += 1
            if deadEndExamples[last, default: []].count < options.topCount { deadEndExamples[last, default: []].append((record.run, record.session)) }
        }
    }

    private mutating func addLoad(_ load: ScreenLoad, of type: String) {
        var tally = loads[type] ?? LoadTally(durations: DurationReservoir(limit: options.dwellSampleLimit))
        switch load {
        case .ready(let nanoseconds, let outcome):
            tally.durations.add(nanoseconds)
            tally.outcomes[outcome, default: 0] += 1
        case .abandoned:
            tally.abandoned += 1
        case .censored:
            tally.censored += 1
        }
        loads[type] = tally
    }

    /// Adds one session's transition counts to the sums over sessions.
    private mutating func addMoments(_ sessionTransitions: [Pair: Int]) {
        var departures: [String: Int] = [:]
        for (pair, count) in sessionTransitions { departures[pair.first, default: 0] += count }
        for (pair, count) in sessionTransitions {
            transitionMoments[pair, default: SessionMoments()].add(count, against: departures[pair.first]!)
        }
        for (screen, count) in departures { departureMoments[screen, default: SessionMoments()].add(count, against: count) }
    }

    private mutating func addPaths(_ path: [String]) {
        guard !path.isEmpty else { return }
        sessionPaths[PathAnalysis.truncated(path, to: options.maxPathLength), default: 0] += 1
        for (index, (from, to)) in zip(path, path.dropFirst()).enumerated() where index + 1 < options.maxPathLength {
            stepFlows[StepKey(step: index + 1, from: from, to: to), default: 0] += 1
        }
        for length in options.subpathLengths {
            FlowAggregates.tally(PathAnalysis.subpaths(of: path, length: length), into: &subpaths)
        }
        for anchor in options.pathsFrom {
            FlowAggregates.tally(PathAnalysis.paths(from: anchor, in: path, length: options.anchoredPathLength), into: &pathsFrom[anchor, default: [:]])
        }
        for anchor in options.pathsTo {
            FlowAggregates.tally(PathAnalysis.paths(to: anchor, in: path, length: options.anchoredPathLength), into: &pathsTo[anchor, default: [:]])
        }
        FlowAggregates.tally(PathAnalysis.cycles(in: path), into: &cycles)
        var counts: [String: Int] = [:]
        for type in path { counts[type, default: 0] += 1 }
        for (type, count) in counts where count > 1 {
            repeats[type, default: Tally()].sessions += 1
            repeats[type, default: Tally()].total += count - 1
        }
        var seenPairs: Set<[String]> = []
        var seenUnordered: Set<[String]> = []
        for alternation in PathAnalysis.alternations(in: path) where alternation.roundTrips >= options.pingPongRoundTrips {
            if seenUnordered.insert(alternation.pair.sorted()).inserted { pingPongPairSessions[alternation.pair.sorted(), default: 0] += 1 }
            let key = alternation.pair
            var entry = pingPongs[key] ?? (0, 0)
            if seenPairs.insert(key).inserted { entry.sessions += 1 }
            entry.maximum = max(entry.maximum, alternation.roundTrips)
            pingPongs[key] = entry
        }
    }

    private mutating func addFunnels(_ record: SessionRecord) {
        let path = record.path
        for (index, funnel) in options.funnels.enumerated() where !funnel.steps.isEmpty {
            let progress = PathAnalysis.progress(through: funnel.steps, in: path)
            for step in progress.reachedIndices.indices { funnels[index].reached[step] += 1 }
            if let next = progress.nextAfterLastStep {
                funnels[index].wentInstead[progress.reachedIndices.count - 1][next, default: 0] += 1
            }
            if progress.reachedIndices.count == funnel.steps.count,
                let first = progress.reachedIndices.first, let last = progress.reachedIndices.last
            {
                let (start, end) = (record.visits[first].start, record.visits[last].start)
                funnels[index].timeToConvert.add(end >= start ? end - start : 0)
            }
        }
    }

    private mutating func addLifecycle(_ tree: LifecycleTree, run: String) {
        for node in tree.nodes {
            let type = node.type
            let isUnbalanced = node.isUnbalanced
            func count(_ balance: inout LifecycleFigures.TypeBalance) {
                if node.isStarted { balance.started += 1 }
                if node.isFinished { balance.finished += 1 }
                if node.isDeallocated { balance.deallocated += 1 }
                if isUnbalanced { balance.unbalanced += 1 }
            }
            count(&coordinatorTypes[type, default: .init(coordinator: type, started: 0, finished: 0, deallocated: 0, unbalanced: 0)])
            if isUnbalanced { unbalanced += 1 }
            if let parent = node.parent { coordinatorEdges[Pair(first: InstanceID.typeName(of: parent), second: type), default: 0] += 1 }
        }
        if trees.count < options.lifecycleTreeLimit, !tree.nodes.isEmpty {
            trees.append(tree)
            treeRuns.append(run)
        }
    }

    private mutating func addLeaks(_ leaks: [LeakDetector.Leak], run: String) {
        leakCount += leaks.count
        var seen: Set<Pair> = []
        var seenScreens: Set<String> = []
        for leak in leaks {
            let key = Pair(first: leak.kind.rawValue, second: InstanceID.typeName(of: leak.subject))
            leakGroups[key, default: Tally()].total += 1
            if seen.insert(key).inserted { leakGroups[key, default: Tally()].sessions += 1 }
            if leakExamples.count < options.topCount {
                leakExamples.append(leak)
                leakExampleRuns.append(run)
            }
            if leak.kind == .changeAfterDismiss, let screen = leak.screen {
                let type = InstanceID.typeName(of: screen)
                changesAfterDismiss[type, default: 0] += 1
                if seenScreens.insert(type).inserted { changesAfterDismissSessions[type, default: 0] += 1 }
            }
        }
    }

    private mutating func addSmells(_ record: SessionRecord) {
        var seen: Set<String> = []
        for push in record.doublePushes {
            var entry = doublePushes[push.screenType] ?? (0, 0, push.interval)
            entry.count += 1
            if seen.insert(push.screenType).inserted { entry.sessions += 1 }
            entry.minimum = min(entry.minimum, push.interval)
            doublePushes[push.screenType] = entry
        }
    }

    /// Adds each of `items` to its tally: once per session, and each time in total.
    /// Counts `items`, one session's, in `table`: each occurrence in `total`, each distinct
    /// item once in `sessions`. Counted locally first, so the table is looked up once per
    /// distinct item.
    private static func tally(_ items: [[String]], into table: inout [[String]: Tally]) {
        guard !items.isEmpty else { return }
        var counts = [[String]: Int](minimumCapacity: items.count)
        for item in items { counts[item, default: 0] += 1 }
        for (item, count) in counts {
            table[item, default: Tally()].add(total: count)
        }
    }
}
