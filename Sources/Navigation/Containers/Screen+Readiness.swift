/// How a screen's content turned out when it was first fully displayed: the `outcome` of a
/// `screen.ready` event.
public enum ScreenReadyOutcome: String, Codable, Sendable, CaseIterable {
    /// The content is shown.
    case loaded
    /// The load worked and there is nothing to show (an empty state).
    case empty
    /// The load failed and the screen shows an error.
    case failed
}

// MARK: - Readiness

extension Screen {
    /// Records that the screen's content is fully displayed, the way Sentry's
    /// `reportFullyDisplayed()` marks time to full display. The presenter or interactor of a
    /// view whose ``ScreenView/reportsReadiness`` is `true` calls it when its load finishes:
    ///
    /// ```swift
    /// func articlesLoaded(articles: [Article]) {
    ///     model?.setArticles(articles: rows)
    ///     reportScreenReady(rows.isEmpty ? .empty : .loaded)
    /// }
    /// ```
    ///
    /// Only the first report of a screen instance is recorded (`screen.ready`): later reloads
    /// do not change when its content was first displayed. Content is displayed only on the
    /// screen the user sees: a report that comes while the screen is not visible (before it
    /// first appears, or under a screen pushed over it) is recorded when it next appears, and
    /// never if it leaves the window first. The load time that `navlog report` derives runs
    /// from the start of the screen's first visit to this event; a visit that ends first is an
    /// abandoned load.
    public func reportReady(_ outcome: ScreenReadyOutcome = .loaded) {
        guard readiness.outcome == nil, readiness.pending == nil else { return }
        guard isShown, context.window.visibleScreen === self else {
            readiness.pending = outcome
            return
        }
        recordReady(outcome)
    }

    /// Whether ``reportReady(_:)`` has been recorded for this screen.
    public var isReady: Bool { readiness.outcome != nil }

    /// Tells the view it appeared, then records `screen.ready` for a view that does not report
    /// readiness itself (the first time), or a report that came while it was not visible.
    func didAppear() {
        let isFirstAppearance = !readiness.hasAppeared
        readiness.hasAppeared = true
        view.didAppear()
        guard readiness.outcome == nil, isShown, context.window.visibleScreen === self else { return }
        if let pending = readiness.pending {
            recordReady(pending)
        } else if isFirstAppearance, !view.reportsReadiness {
            recordReady(.loaded)
        }
    }

    private func recordReady(_ outcome: ScreenReadyOutcome) {
        readiness.outcome = outcome
        readiness.pending = nil
        context.record(.screenReady, subject: eventSubject, screen: id, payload: ["outcome": .string(outcome.rawValue)])
    }
}

/// Where a screen is in its first display.
struct ScreenReadinessState {
    var hasAppeared = false
    /// A report that came before the first appearance.
    var pending: ScreenReadyOutcome?
    /// The recorded outcome, once `screen.ready` is recorded.
    var outcome: ScreenReadyOutcome?
}

// MARK: - Reporting from presenters and models

extension Presenter {
    /// Reports that this presenter's screen is fully displayed (see ``Screen/reportReady(_:)``).
    public func reportScreenReady(_ outcome: ScreenReadyOutcome = .loaded) {
        screen?.reportReady(outcome)
    }
}

extension ObservableModel {
    /// Reports that this model's screen is fully displayed (see ``Screen/reportReady(_:)``).
    public func reportScreenReady(_ outcome: ScreenReadyOutcome = .loaded) {
        screen?.reportReady(outcome)
    }
}
