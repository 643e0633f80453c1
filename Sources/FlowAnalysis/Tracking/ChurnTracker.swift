import Navigation

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
    /// One state a view model went through: a hash of its snapshot and how the change that
    /// produced it was already counted.
    private struct State {
        var hash: Int
        var isNonRendered: Bool
    }

    private(set) var counts: [String: ChurnCounts] = [:]
    /// Snapshot history per screen instance, then per view-model subject.
    private var histories: [String: [String: [State]]] = [:]

    /// Counts a `viewmodel.change`, knowing which screen is visible now.
    mutating func consume(_ event: Event, visibleScreen: String?, options: ReportOptions) {
        guard event.kind == .viewModelChange, let screen = event.screen else { return }
        let type = InstanceID.typeName(of: screen)
        let payload = event.payload
        let viewModel = payload["viewmodel"]?.stringValue
        let fields = payload["changed"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let isNonRendered = !fields.isEmpty && fields.allSatisfy { options.isNonRendered(field: $0, viewModel: viewModel) }
        var counts = self.counts[type, default: ChurnCounts()]
        counts.changes += 1
        if isNonRendered { counts.nonRendered += 1 }
        if screen != visibleScreen { counts.hidden += 1 }

        let snapshot = payload["snapshot"] ?? .null
        var history = histories[screen]?[event.subject] ?? [State(hash: ChurnTracker.previousSnapshot(of: payload).hashValue, isNonRendered: false)]
        let hash = snapshot.hashValue
        if let index = history.firstIndex(where: { $0.hash == hash }) {
            // The round trip history[index] → … → now changed nothing; count what was not
            // already counted as non-rendered.
            let loop = history[(index + 1)...].filter { !$0.isNonRendered }.count + (isNonRendered ? 0 : 1)
            counts.reverted += loop
            history.removeSubrange((index + 1)...)
        } else {
            history.append(State(hash: hash, isNonRendered: isNonRendered))
        }
        histories[screen, default: [:]][event.subject] = history
        self.counts[type] = counts
    }

    /// Starts a new visit for both screens of a change of the visible screen.
    mutating func visibleScreenChanged(from old: String?, to new: String?) {
        if let old { histories[old] = nil }
        if let new { histories[new] = nil }
    }

    /// Rebuilds the snapshot before a change from its new snapshot and `previous` values.
    static func previousSnapshot(of payload: JSONValue) -> JSONValue {
        let previous = payload["previous"]?.objectValue ?? [:]
        guard case .object(var members) = payload["snapshot"] ?? .null else {
            return previous["value"] ?? .null
        }
        for field in payload["changed"]?.arrayValue?.compactMap(\.stringValue) ?? [] {
            // The recorder writes `null` for a field that was absent, which encoders omit.
            if let old = previous[field], old != .null {
                members[field] = old
            } else {
                members[field] = nil
            }
        }
        return .object(members)
    }
}
