import NavlogEvents

/// Builds a ``FlowReport`` from a stream of events, one event at a time.
///
/// Events of different sessions may interleave; each session's events must come in order.
/// Call ``addRun(id:labels:)`` for a run before its events, so its sessions can be filtered
/// and broken down by label.
///
/// ```swift
/// var builder = ReportBuilder(options: options)
/// builder.addRun(id: "r-1", labels: ["version": "2.1"])
/// for event in events { builder.consume(event) }
/// let report = builder.finish()
/// ```
///
/// Memory: a session's state lives only until its `session.end` (or ``finish()``); what stays
/// is the aggregates (see ``FlowAggregates``), one set for the whole report and one per value
/// of each breakdown label, plus the ids of excluded sessions that have not ended yet.
public struct ReportBuilder {
    public let options: ReportOptions
    /// How the events hold view-model snapshots.
    public let snapshots: SnapshotForm
    private var runLabels: [String: [String: String]] = [:]
    /// The names of the events read, and what the trackers work out from them.
    let names: ReportNames
    /// By session id (``InternedEvent/session``) in the current id space: where the session
    /// stands. An array, as ids are small: finding an event's tracker costs no hashing.
    private var slots: [Slot] = []
    /// Every open session's tracker, boxed so that consuming an event mutates one in place
    /// instead of copying it out and back; found by run and name when a session turns up
    /// under a new id (in the next file of a journal).
    private var open: [SessionKey: TrackerBox] = [:]
    /// Sessions that are open and filtered out; their events are skipped.
    private var excluded: Set<SessionKey> = []
    /// For ``consume(_:)-(Event)``: the session ids it hands out, by run and name, while the
    /// session is open, the run and name of each id, and the ids free again.
    private var eventSessionIDs: [SessionKey: Int32] = [:]
    private var eventSessions: [SessionKey] = []
    private var freeEventSessionIDs: [Int32] = []
    /// For ``consume(_:)-(Event)``: the lists and payload of the one event being read.
    private let eventStorage = InternedEventStorage()
    /// For a journal's ``InternedEvent``s: the file whose session numbers are in use, and the
    /// run and name of each of them.
    var sessionFile: Int?
    var sessionsOfFile: [SessionKey] = []
    /// The aggregates of the sessions folded so far; with a ``BackgroundFolder``, filled in
    /// by ``finish()``.
    private var folding: SessionFolding
    /// Folds finished sessions on a thread of its own, when the builder was made so.
    private let folder: BackgroundFolder?
    /// The apps of every `session.start` read, filtered out or not.
    private var appsRead: Set<String> = []

    private enum Slot {
        case unseen
        case open(TrackerBox)
        case excluded(SessionKey)
    }

    /// A builder for events with `snapshots` in the given form; a journal reader that delivers
    /// ``digestibleMembers`` as digests saves most of the work of reading snapshots.
    public init(options: ReportOptions = ReportOptions(), snapshots: SnapshotForm = .values) {
        self.init(options: options, snapshots: snapshots, foldsInBackground: false)
    }

    /// A builder that, with `foldsInBackground`, folds finished sessions into the aggregates
    /// on a thread of its own (``BackgroundFolder``), in the same order: for a reader that
    /// hands it events from another thread, so the work is spread over more cores. Such a
    /// builder must not be copied before ``finish()``, since the copies would share the thread.
    init(options: ReportOptions, snapshots: SnapshotForm, foldsInBackground: Bool) {
        self.options = options
        self.snapshots = snapshots
        self.folding = SessionFolding(options: options)
        self.names = ReportNames(options: options)
        self.folder = foldsInBackground ? BackgroundFolder(options: options) : nil
    }

    /// The payload members, per event kind, that the builder reads only to tell values apart:
    /// with ``SnapshotForm/digests`` it takes them as their ``JSONFingerprint/digest(_:)``.
    public static let digestibleMembers: [EventKind: [String]] = [.viewModelChange: ["previous", "snapshot"]]

    /// The kinds whose events the builder only counts and orders, reading nothing but their
    /// envelope (session, times, session seq, cause): a journal reader can leave out their
    /// subjects, screens and payloads (`EventFilter.envelopeOnlyKinds`).
    public static let envelopeOnlyKinds: Set<EventKind> = [.action, .deepLink, .error]

    // MARK: - Input

    /// Registers the labels of a run, such as `["version": "2.1", "scenario": "checkout"]`.
    public mutating func addRun(id: String, labels: [String: String]) {
        runLabels[id] = labels
    }

    /// Reads the next event.
    public mutating func consume(_ event: Event) {
        // Session names repeat across runs (every scripted run has an `s-1`), so a session is
        // its run and its name.
        let key = SessionKey(run: event.run, session: event.session)
        let id: Int32
        if let known = eventSessionIDs[key] {
            id = known
        } else if let free = freeEventSessionIDs.popLast() {
            id = free
            eventSessions[Int(free)] = key
            eventSessionIDs[key] = free
        } else {
            id = Int32(eventSessions.count)
            eventSessions.append(key)
            eventSessionIDs[key] = id
        }
        consume(InternedEvent(event, session: id, names: &names.table, storage: eventStorage, digestedSnapshots: snapshots == .digests),
                keys: .events)
        eventStorage.removeAll()
        if event.kind == .sessionEnd {
            eventSessionIDs[key] = nil
            freeEventSessionIDs.append(id)
        }
    }

    /// Forgets the session ids read so far: the events that follow number their sessions
    /// afresh (a journal's next file), and ``sessionsOfFile`` gives the run and name of each new id.
    mutating func startSessionIDs() {
        slots.removeAll(keepingCapacity: true)
    }

    /// Which of the builder's lists turns an event's session id into its run and name.
    enum SessionIDs {
        /// ``consume(_:)-(Event)``'s, which hands the ids out.
        case events
        /// ``sessionsOfFile``: a journal file's.
        case file
    }

    /// Reads the next event, whose session id `keys` turns into its run and name when the id
    /// is new since ``startSessionIDs()``. (A list named rather than a closure passed: a
    /// closure capturing the list retained and released it for every event.)
    mutating func consume(_ event: InternedEvent, keys: SessionIDs) {
        let id = Int(event.session)
        if id >= slots.count { slots += [Slot](repeating: .unseen, count: id + 1 - slots.count) }
        switch slots[id] {
        case .open(let box):
            consume(event, in: box, slot: id)
            return
        case .excluded(let session):
            if event.kind == .sessionEnd {
                excluded.remove(session)
                slots[id] = .unseen
            }
            return
        case .unseen:
            break
        }
        let session = keys == .file ? sessionsOfFile[Int(event.session)] : eventSessions[Int(event.session)]
        if let box = open[session] {
            slots[id] = .open(box)
            consume(event, in: box, slot: id)
            return
        }
        if excluded.contains(session) {
            if event.kind == .sessionEnd { excluded.remove(session) } else { slots[id] = .excluded(session) }
            return
        }
        let app = event.kind == .sessionStart ? event.payloadName(.app).map { names[$0] } : nil
        if let app { appsRead.insert(app) }
        guard isIncluded(firstEvent: event, session: session, app: app) else {
            if event.kind != .sessionEnd {
                excluded.insert(session)
                slots[id] = .excluded(session)
            }
            return
        }
        let box = TrackerBox(SessionTracker(session: session.session, run: session.run, labels: breakdownLabels(for: event, run: session.run),
                                            options: options, names: names, snapshots: snapshots), key: session)
        open[session] = box
        slots[id] = .open(box)
        consume(event, in: box, slot: id)
    }

    private mutating func consume(_ event: InternedEvent, in box: TrackerBox, slot: Int) {
        box.tracker.consume(event)
        if event.kind == .sessionEnd {
            open[box.key] = nil
            slots[slot] = .unseen
            fold(box.tracker)
        }
    }

    /// Finishes the sessions still open and returns the report.
    public mutating func finish() -> FlowReport {
        for box in open.values.sorted(by: { $0.key < $1.key }) {
            fold(box.tracker)
        }
        open.removeAll()
        slots.removeAll()
        excluded.removeAll()
        eventSessionIDs.removeAll()
        eventSessions.removeAll()
        freeEventSessionIDs.removeAll()
        if let folder { folding = folder.finish() }
        let total = folding.total
        var summary = total.summary
        summary.appsRead = appsRead.sorted()
        return FlowReport(
            summary: summary,
            screens: total.screenFigures,
            transitions: total.transitionFigures,
            paths: total.pathFigures,
            funnels: total.funnelFigures,
            dwell: total.dwellFigures,
            load: total.loadFigures,
            loops: total.loopFigures,
            deadEnds: total.deadEndFigures,
            lifecycles: total.lifecycleFigures,
            leaks: total.leakFigures,
            churn: total.churnFigures,
            smells: total.smellFigures,
            breakdown: options.breakdownLabels.map { label in
                BreakdownFigure(
                    label: label,
                    values: (folding.breakdown[label] ?? [:]).sorted { $0.key < $1.key }.map { $0.value.breakdownValue(named: $0.key) }
                )
            }
        )
    }

    /// The kept dwell samples per screen type and time-to-convert samples per funnel (in
    /// option order), for the statistical comparison of `navlog diff`; read after ``finish()``.
    var durationSamples: (dwell: [String: DurationReservoir], timeToConvert: [DurationReservoir], load: [String: FlowAggregates.LoadTally]) {
        (folding.total.dwell, folding.total.funnels.map(\.timeToConvert), folding.total.loads)
    }

    /// The aggregates of every included session, for `navlog diff`'s session-level tests;
    /// read after ``finish()``.
    var totals: FlowAggregates { folding.total }

    // MARK: - Sessions

    private mutating func fold(_ tracker: SessionTracker) {
        var tracker = tracker
        let record = tracker.finish()
        if let folder { folder.add(record) } else { folding.add(record) }
    }

    /// Whether a session whose first event is `event` passes the filters. The app is known
    /// only from `session.start`, so a session seen from the middle fails an app filter.
    private func isIncluded(firstEvent event: InternedEvent, session: SessionKey, app: String?) -> Bool {
        let options = self.options
        if !options.includes(session: session.session, run: session.run) { return false }
        if let since = options.since, event.wallNanoseconds < since { return false }
        if let until = options.until, event.wallNanoseconds >= until { return false }
        if !options.labelFilter.isEmpty {
            let labels = runLabels[session.run] ?? [:]
            guard options.labelFilter.allSatisfy({ labels[$0.key] == $0.value }) else { return false }
        }
        if !options.apps.isEmpty {
            guard let app, options.apps.contains(app) else { return false }
        }
        return true
    }

    /// The values of the breakdown labels: the run's label, else a string field of the
    /// `session.start` payload with that name (such as `app`).
    private func breakdownLabels(for event: InternedEvent, run: String) -> [String: String] {
        var values: [String: String] = [:]
        let labels = runLabels[run] ?? [:]
        for label in options.breakdownLabels {
            if let value = labels[label] {
                values[label] = value
            } else if event.kind == .sessionStart, let value = event.payload?[label]?.stringValue {
                values[label] = value
            }
        }
        return values
    }
}

/// A session is its run and its name: session names repeat across runs (every scripted run
/// has an `s-1`).
struct SessionKey: Hashable, Comparable {
    var run: String
    var session: String

    /// Hashes the session name only: names rarely repeat across the runs of one report, and
    /// the run id is the longer string, hashed for every event otherwise.
    func hash(into hasher: inout Hasher) {
        hasher.combine(session)
    }

    static func < (lhs: SessionKey, rhs: SessionKey) -> Bool { (lhs.run, lhs.session) < (rhs.run, rhs.session) }
}

/// Holds one open session's tracker by reference.
private final class TrackerBox {
    let key: SessionKey
    var tracker: SessionTracker
    init(_ tracker: SessionTracker, key: SessionKey) {
        self.key = key
        self.tracker = tracker
    }
}
