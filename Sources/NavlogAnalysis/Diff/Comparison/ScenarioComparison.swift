import NavlogEvents

/// The exact comparison of one scenario's session: the normalized event sequences of base
/// and candidate, matched by scenario and session.
public struct ScenarioComparison: Sendable {
    public enum Status: String, Sendable {
        case same
        case changed
        /// Runs of one side disagree among themselves, so the sequence is not a snapshot.
        case notDeterministic = "not_deterministic"
        case onlyInBase = "only_in_base"
        case onlyInCandidate = "only_in_candidate"
    }

    public var scenario: String
    public var session: String
    public var status: Status
    /// The event diff, when the sequences differ.
    public var diff: SequenceDiff?
    /// Changes of how the visible screen moved, such as `Master → Detail: screen.push became
    /// screen.present style=sheet`.
    public var navigationChanges: [String]
    /// Whether exact differences gate the comparison.
    public var isGating: Bool

    public var isFailure: Bool { status == .changed && isGating }
    public var isSkipped: Bool { status == .notDeterministic }
    public var name: String { "\(scenario) \(session)" }

    static func compare(base: DiffSide, candidate: DiffSide, settings: DiffSettings) -> [ScenarioComparison] {
        let isGating = settings.gates.contains(.exact)
        var results: [ScenarioComparison] = []
        let keys = Set(base.sequences.map(\.key)).union(candidate.sequences.map(\.key))
        let all = base.sequences + candidate.sequences
        for key in keys.sorted() {
            let any = all.first { $0.key == key }!
            let left = base.sequence(scenario: any.scenario, session: any.session)
            let right = candidate.sequence(scenario: any.scenario, session: any.session)
            var result = ScenarioComparison(scenario: any.scenario, session: any.session, status: .same, diff: nil, navigationChanges: [], isGating: isGating)
            switch (left, right) {
            case (nil, _): result.status = .onlyInCandidate
            case (_, nil): result.status = .onlyInBase
            case (let left?, let right?) where !left.isDeterministic || !right.isDeterministic: result.status = .notDeterministic
            case (let left?, let right?) where left.events == right.events: result.status = .same
            case (let left?, let right?):
                result.status = .changed
                result.diff = SequenceDiff(base: left.events, candidate: right.events, context: settings.contextLines)
                result.navigationChanges = NavigationStep.changes(
                    from: NavigationStep.steps(in: left.events), to: NavigationStep.steps(in: right.events)
                )
            }
            results.append(result)
        }
        return results
    }
}

/// One change of the visible screen in a session, and the event that made it.
struct NavigationStep: Equatable {
    var from: String
    var to: String
    /// The event kind with its `style` or `by`, such as `screen.present style=sheet`.
    var how: String

    /// The steps of a session, read through the report's ``WindowModel``.
    static func steps(in events: [NormalizedEvent]) -> [NavigationStep] {
        var window = WindowReplay()
        var steps: [NavigationStep] = []
        var visible: String?
        for event in events where event.kind.isNavigation {
            window.apply(event.event)
            let now = window.visibleScreen
            guard now != visible else { continue }
            var how = event.kind.rawValue
            for key in ["style", "by"] {
                if let value = event.payload[key]?.stringValue { how += " \(key)=\(value)" }
            }
            steps.append(NavigationStep(
                from: visible.map(InstanceID.typeName(of:)) ?? "(start)", to: now.map(InstanceID.typeName(of:)) ?? "(none)", how: how
            ))
            visible = now
        }
        return steps
    }

    /// Describes how `candidate` moves differently from `base`: steps between the same
    /// screens made another way, steps no longer taken, and new steps.
    static func changes(from base: [NavigationStep], to candidate: [NavigationStep]) -> [String] {
        var remaining = candidate
        var lines: [String] = []
        for step in base {
            if let index = remaining.firstIndex(where: { $0.from == step.from && $0.to == step.to }) {
                let other = remaining.remove(at: index)
                if other.how != step.how { lines.append("\(step.from) → \(step.to): \(step.how) became \(other.how)") }
            } else {
                lines.append("\(step.from) → \(step.to) (\(step.how)) no longer happens")
            }
        }
        for step in remaining { lines.append("\(step.from) → \(step.to) (\(step.how)) is new") }
        return lines
    }
}
