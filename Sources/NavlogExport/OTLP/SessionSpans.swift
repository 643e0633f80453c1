import NavlogEvents

/// One session's open spans while ``OTLPTraceEncoder`` reads it; dropped when the session ends.
///
/// It holds the open coordinators and screens, the span events recorded on them so far (at
/// most ``OTLPSpan/maximumEventCount`` each), a few maps that find the coordinator behind a
/// screen, and the session's visits (for load times), so it is as big as the session's live
/// tree and visits, never as big as the journal.
struct SessionSpans {
    /// A span not yet finished.
    struct OpenSpan {
        var span: OTLPSpan
        /// When a coordinator finished; its span waits for `coordinator.deinit` to know
        /// whether it leaked.
        var finishedNanoseconds: Int64?
    }

    let run: String
    let session: String
    let traceID: String
    private(set) var app: String?
    private var root: OpenSpan
    private var coordinators: [String: OpenSpan] = [:]
    private var screens: [String: OpenSpan] = [:]
    /// Every coordinator started in the session, open or emitted: a parent link to one of these
    /// points at a span that exists.
    private var startedCoordinators: Set<String> = []
    /// The `sessionSeq` of each `coordinator.start` and `coordinator.coordinate`, so an event
    /// caused by one is known to act for that coordinator.
    private var coordinatorOfEvent: [UInt64: String] = [:]
    /// Routers and other screen owners, and stacks, learnt to act for a coordinator.
    private var coordinatorOfOwner: [String: String] = [:]
    private var coordinatorOfStack: [String: String] = [:]
    /// How many times each screen has been shown: a screen shown again gets a span of its own.
    private var showings: [String: Int] = [:]
    /// The visits of the screen the user sees, with the report's definitions: each screen
    /// instance's first visit times its load, and the session's end censors the last visit.
    private var visits = ScreenVisitTracker()
    /// Where each screen's first visit is among the session's visits, counting those dropped
    /// (checked on use: a later step of the same intent can take the last visit back).
    private var firstVisitIndex: [String: Int] = [:]
    /// First visits that have settled (no later event can change them) and were dropped from
    /// `visits`, kept until their screen's load is reported: the session's other visits are
    /// not kept, so memory follows the open screens, not the session's length.
    private var settledFirstVisits: [String: ScreenVisit] = [:]
    /// The screens whose load a span already carries.
    private var reportedLoads: Set<String> = []
    private var lastNanoseconds: Int64

    init(first event: Event) {
        run = event.run
        session = event.session
        traceID = DeterministicID.traceID(run: run, session: session)
        lastNanoseconds = event.wallNanoseconds
        root = OpenSpan(span: OTLPSpan(
            role: .session, run: run, session: session, app: nil, traceID: traceID,
            spanID: DeterministicID.sessionSpanID(run: run, session: session), parentSpanID: nil,
            name: "session \(session)", startNanoseconds: event.wallNanoseconds, endNanoseconds: event.wallNanoseconds,
            attributes: [OTLPAttribute("navlog.run", .string(run)), OTLPAttribute("navlog.session", .string(session))],
            events: [], status: OTLPStatus()
        ))
    }

    // MARK: - Consuming

    /// Applies the session's next event; returns the spans it finished.
    mutating func consume(_ event: Event) -> [OTLPSpan] {
        lastNanoseconds = max(lastNanoseconds, event.wallNanoseconds)
        visits.consume(event)
        if let last = visits.visits.last, last.isFirstShowing {
            firstVisitIndex[last.screen] = visits.droppedVisitCount + visits.visits.count - 1
        }
        if visits.visits.count >= 64 { keepSettledFirstVisits() }
        var finished: [OTLPSpan] = []
        switch event.kind {
        case .sessionStart:
            app = event.payload["app"]?.stringValue
            root.span.app = app
            if let app { root.span.attributes.append(OTLPAttribute("navlog.app", .string(app))) }
            if let parameters = event.payload["parameters"], parameters.objectValue?.isEmpty == false {
                root.span.attributes.append(OTLPAttribute("navlog.parameters", .string(parameters.serialized())))
            }
        case .coordinatorStart:
            startCoordinator(event)
        case .coordinatorCoordinate:
            coordinatorOfEvent[event.sessionSeq] = event.subject
            addEvent(event, preferring: event.subject)
        case .coordinatorFinish:
            coordinators[event.subject]?.finishedNanoseconds = event.wallNanoseconds
        case .coordinatorDeinit:
            if var open = coordinators.removeValue(forKey: event.subject) {
                if let finishedAt = open.finishedNanoseconds {
                    open.span.endNanoseconds = finishedAt
                } else {
                    // Deallocated without finishing, as on teardown: its life ends here.
                    open.span.endNanoseconds = event.wallNanoseconds
                    open.span.attributes.append(OTLPAttribute("navlog.finished", .bool(false)))
                }
                finished.append(open.span)
            }
        case .screenPush, .screenPresent, .windowRoot:
            let coordinator = coordinatorActing(for: event)
            addEvent(event, preferring: coordinator)
            finished += closeScreens(event.payload["removed"]?.arrayValue?.compactMap(\.stringValue) ?? [], at: event.wallNanoseconds)
            if let screen = event.screen, screens[screen] == nil { openScreen(screen, for: event, under: coordinator) }
        case .screenPop:
            addEvent(event, preferring: coordinatorActing(for: event))
            finished += closeScreens(event.screen.map { [$0] } ?? [], at: event.wallNanoseconds)
        case .screenDismiss:
            addEvent(event, preferring: coordinatorActing(for: event))
            let removed = event.payload["removed"]?.arrayValue?.compactMap(\.stringValue)
            finished += closeScreens(removed ?? event.screen.map { [$0] } ?? [], at: event.wallNanoseconds)
        case .sessionEnd:
            root.span.add(OTLPSpanEvent(event))
        default:
            addEvent(event, preferring: coordinatorActing(for: event))
        }
        return finished
    }

    /// Closes every open span at the session's end (or its last event) and returns them, the
    /// session's root span last.
    mutating func finish() -> [OTLPSpan] {
        let end = lastNanoseconds
        _ = visits.finish()
        var finished: [OTLPSpan] = closeScreens(screens.keys.sorted(), at: end)
        for index in finished.indices { finished[index].attributes.append(OTLPAttribute("navlog.unfinished", .bool(true))) }
        for (_, open) in coordinators.sorted(by: { $0.value.span.startNanoseconds < $1.value.span.startNanoseconds }) {
            var span = open.span
            if let finishedAt = open.finishedNanoseconds {
                span.endNanoseconds = finishedAt
                span.attributes.append(OTLPAttribute("navlog.leaked", .bool(true)))
                span.status = OTLPStatus(code: .error, message: "finished but never deallocated")
            } else {
                span.endNanoseconds = end
                span.attributes.append(OTLPAttribute("navlog.unfinished", .bool(true)))
            }
            finished.append(span)
        }
        coordinators.removeAll()
        root.span.endNanoseconds = end
        finished.append(root.span)
        return finished
    }

    // MARK: - Spans

    private mutating func startCoordinator(_ event: Event) {
        coordinatorOfEvent[event.sessionSeq] = event.subject
        var parentSpanID = root.span.spanID
        var attributes = [
            OTLPAttribute("navlog.subject", .string(event.subject)),
            OTLPAttribute("navlog.session_seq", .int(Int64(bitPattern: event.sessionSeq))),
        ]
        if let parent = event.parent {
            attributes.append(OTLPAttribute("navlog.parent", .string(parent)))
            if startedCoordinators.contains(parent) {
                parentSpanID = DeterministicID.spanID(run: run, session: session, subject: parent)
            }
        }
        startedCoordinators.insert(event.subject)
        coordinators[event.subject] = OpenSpan(span: makeSpan(
            role: .coordinator, subject: event.subject, name: event.subjectType, parentSpanID: parentSpanID,
            start: event.wallNanoseconds, attributes: attributes
        ))
    }

    private mutating func openScreen(_ screen: String, for event: Event, under coordinator: String?) {
        var attributes = [
            OTLPAttribute("navlog.screen", .string(screen)),
            OTLPAttribute("navlog.owner", .string(event.subject)),
            OTLPAttribute("navlog.shown_by", .string(event.kind.rawValue)),
        ]
        if let style = event.payload["style"]?.stringValue { attributes.append(OTLPAttribute("navlog.style", .string(style))) }
        let parentSpanID = coordinator.flatMap { coordinators[$0] }?.span.spanID ?? root.span.spanID
        let showing = showings[screen, default: 0] + 1
        showings[screen] = showing
        // The first showing's id is the screen's own; later ones add the count after a NUL.
        let identity = showing == 1 ? screen : "\(screen)\u{0}\(showing)"
        screens[screen] = OpenSpan(span: makeSpan(
            role: .screen, subject: identity, name: InstanceID.typeName(of: screen), parentSpanID: parentSpanID,
            start: event.wallNanoseconds, attributes: attributes
        ))
    }

    private mutating func closeScreens(_ ids: [String], at time: Int64) -> [OTLPSpan] {
        ids.compactMap { id in
            guard var open = screens.removeValue(forKey: id) else { return nil }
            open.span.endNanoseconds = time
            open.span.attributes += visitAttributes(of: id)
            return open.span
        }
    }

    /// The attributes a screen's span takes from its visits as it closes (they have all ended
    /// by then): how the screen's first visit loaded (`navlog.load_ms`, `navlog.load_outcome`),
    /// on the first span to close after that visit, the showing it was part of; and
    /// `navlog.censored` when the session's end cut off the screen's last visit. A load still
    /// running at the end gets no outcome.
    private mutating func visitAttributes(of screen: String) -> [OTLPAttribute] {
        var attributes: [OTLPAttribute] = []
        if let visit = endedFirstVisit(of: screen), reportedLoads.insert(screen).inserted {
            settledFirstVisits[screen] = nil
            firstVisitIndex[screen] = nil
            switch visit.load {
            case .ready(let nanoseconds, let outcome):
                attributes.append(OTLPAttribute("navlog.load_ms", .double(Double(nanoseconds) / 1_000_000)))
                attributes.append(OTLPAttribute("navlog.load_outcome", .string(outcome)))
            case .abandoned where visits.recordsReadiness:
                // A session with no screen.ready (yet) may come from a runtime without them.
                attributes.append(OTLPAttribute("navlog.load_outcome", .string("abandoned")))
            default:
                break
            }
        }
        if let last = visits.visits.last, last.isCensored, last.screen == screen {
            attributes.append(OTLPAttribute("navlog.censored", .bool(true)))
        }
        return attributes
    }

    /// The first visit of `screen`, once it has ended; nil when the screen was never seen
    /// (or only in passing, within one intent).
    private func endedFirstVisit(of screen: String) -> ScreenVisit? {
        if let visit = settledFirstVisits[screen] { return visit.end != nil ? visit : nil }
        guard let index = firstVisitIndex[screen] else { return nil }
        let position = index - visits.droppedVisitCount
        guard position >= 0, position < visits.visits.count else { return nil }
        let visit = visits.visits[position]
        return visit.screen == screen && visit.isFirstShowing && visit.end != nil ? visit : nil
    }

    /// Drops the visits no later event can change, keeping the first visits whose load is
    /// still to be reported.
    private mutating func keepSettledFirstVisits() {
        let first = visits.droppedVisitCount
        for (offset, visit) in visits.dropSettledVisits().enumerated()
        where visit.isFirstShowing && firstVisitIndex[visit.screen] == first + offset && !reportedLoads.contains(visit.screen) {
            settledFirstVisits[visit.screen] = visit
            firstVisitIndex[visit.screen] = nil
        }
    }

    private func makeSpan(
        role: OTLPSpan.Role, subject: String, name: String, parentSpanID: String, start: Int64, attributes: [OTLPAttribute]
    ) -> OTLPSpan {
        OTLPSpan(
            role: role, run: run, session: session, app: app, traceID: traceID,
            spanID: DeterministicID.spanID(run: run, session: session, subject: subject), parentSpanID: parentSpanID,
            name: name, startNanoseconds: start, endNanoseconds: start, attributes: attributes, events: [],
            status: OTLPStatus()
        )
    }

    // MARK: - Span events

    /// Records `event` on the span of its screen, else of `coordinator`, else the session's.
    /// Navigation events go on the coordinator, since they open and close the screen spans.
    private mutating func addEvent(_ event: Event, preferring coordinator: String?) {
        let spanEvent = OTLPSpanEvent(event)
        if !event.kind.isNavigation, let screen = event.screen, screens[screen] != nil {
            screens[screen]!.span.add(spanEvent)
        } else if let coordinator, coordinators[coordinator] != nil {
            coordinators[coordinator]!.span.add(spanEvent)
        } else {
            root.span.add(spanEvent)
        }
    }

    /// The coordinator an event acts for: its subject when that is a coordinator; else the one
    /// a router or stack was learnt to act for; else the one whose start or coordinate caused it.
    private mutating func coordinatorActing(for event: Event) -> String? {
        let stack = event.payload["stack"]?.stringValue ?? event.payload["root"]?.stringValue ?? event.payload["content"]?.stringValue
        var found: String?
        if startedCoordinators.contains(event.subject) {
            found = event.subject
        } else if let known = coordinatorOfOwner[event.subject] {
            found = known
        } else if let cause = event.cause, let causing = coordinatorOfEvent[cause] {
            found = causing
            coordinatorOfOwner[event.subject] = causing
        } else if let stack, let known = coordinatorOfStack[stack] {
            found = known
        }
        if let found, let stack, coordinatorOfStack[stack] == nil { coordinatorOfStack[stack] = found }
        return found
    }
}
