import NavlogEvents

/// Counts one session's view-model changes per screen type and finds those that changed
/// nothing the user could keep seeing.
///
/// The journal holds no rendering, so "did not change what the view renders" is approximated
/// by two rules, counted apart and never twice:
/// - **reverted**: within one visit of its screen, a view model's snapshot comes back to a
///   snapshot it already had in that visit (A→B→A). Every change of that round trip is
///   reverted: together they left the screen as it was.
/// - **non-rendered**: every field the change touched is listed in
///   ``ReportOptions/nonRenderedFields``.
///
/// A visit's snapshot history is dropped as soon as its screen stops or starts being visible,
/// so memory follows the screens on show, not the length of the session.
struct ChurnTracker {
    /// One state a view model went through: a fingerprint of its snapshot and how the change that
    /// produced it was already counted.
    private struct State {
        var fingerprint: UInt64
        var isNonRendered: Bool
    }

    /// How the events hold snapshots.
    let form: SnapshotForm
    /// By screen instance: its counts, and its view models' snapshot histories in its current
    /// visit. One entry per instance, so a change costs one lookup; the counts go to screen
    /// types only when asked for.
    private var screens: [NameID: ScreenChurn] = [:]

    private struct ScreenChurn {
        var counts = ChurnCounts()
        /// The view models of the screen (usually one), each with its history.
        var subjects: [(subject: NameID, states: [State])] = []

        /// Runs `body` on the history of `subject` in place (empty for a new subject).
        mutating func update(subject: NameID, _ body: (inout [State]) -> Void) {
            if let index = subjects.firstIndex(where: { $0.subject == subject }) {
                body(&subjects[index].states)
            } else {
                var states: [State] = []
                body(&states)
                subjects.append((subject, states))
            }
        }
    }

    init(form: SnapshotForm = .values) {
        self.form = form
    }

    /// The counts by screen type.
    func counts(names: ReportNames) -> [String: ChurnCounts] {
        var counts: [String: ChurnCounts] = [:]
        for (screen, churn) in screens where churn.counts.changes > 0 {
            counts[names.typeName(of: screen), default: ChurnCounts()].add(churn.counts)
        }
        return counts
    }

    /// Counts a `viewmodel.change`, knowing which screen is visible now.
    mutating func consume(_ event: InternedEvent, visibleScreen: NameID?, names: ReportNames) {
        guard event.kind == .viewModelChange, let screen = event.screenName,
            let fingerprints = event.snapshotFingerprints
        else { return }
        let viewModel = event.payloadName(.viewModel)
        let isNonRendered = event.payloadNames(.changed).map { fields in
            !fields.isEmpty && fields.allSatisfy { names.isNonRendered(field: $0, viewModel: viewModel) }
        } ?? false
        let fingerprint = fingerprints.now
        let subject = event.subjectName
        let hidden = screen != visibleScreen
        func count(_ churn: inout ScreenChurn) {
            var reverted = 0
            churn.update(subject: subject) { history in
                if history.isEmpty { history.append(State(fingerprint: fingerprints.before, isNonRendered: false)) }
                if let index = history.firstIndex(where: { $0.fingerprint == fingerprint }) {
                    // The round trip history[index] → … → now changed nothing; count what was
                    // not already counted as non-rendered.
                    reverted = history[(index + 1)...].filter { !$0.isNonRendered }.count + (isNonRendered ? 0 : 1)
                    history.removeSubrange((index + 1)...)
                } else {
                    history.append(State(fingerprint: fingerprint, isNonRendered: isNonRendered))
                }
            }
            churn.counts.add(ChurnCounts(changes: 1, reverted: reverted, nonRendered: isNonRendered ? 1 : 0, hidden: hidden ? 1 : 0))
        }
        count(&screens[screen, default: ScreenChurn()])
    }

    /// Starts a new visit for both screens of a change of the visible screen.
    mutating func visibleScreenChanged(from old: NameID?, to new: NameID?) {
        if let old { screens[old]?.subjects.removeAll() }
        if let new { screens[new]?.subjects.removeAll() }
    }

    /// The fingerprints of a change's snapshot and of the snapshot before it
    /// (``SnapshotFingerprints``). With `form` ``SnapshotForm/digests``, the payload's
    /// `snapshot` and `previous` hold their ``JSONFingerprint/digest(_:)``, which give the
    /// same fingerprints.
    static func fingerprints(of payload: JSONValue, changed fields: [String], form: SnapshotForm) -> (now: UInt64, before: () -> UInt64) {
        let fingerprints = SnapshotFingerprints(payload: payload, changed: fields, digested: form == .digests)
        return (fingerprints.now, { fingerprints.before })
    }
}

/// How the events a ``ReportBuilder`` reads hold view-model snapshots.
public enum SnapshotForm: Sendable {
    /// As recorded.
    case values
    /// The `snapshot` and `previous` members of `viewmodel.change` payloads hold their
    /// ``JSONFingerprint/digest(_:)``: all the report needs of them, and much cheaper to read
    /// from a journal (see ``ReportBuilder/digestibleMembers``).
    case digests
}
