
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
    /// screen the user sees once an operation settles (``NavigationContext/withCause(_:_:)``):
    /// a report that comes while the screen is not on top (before it first shows, or under a
    /// screen pushed over it) is recorded when it next is, and never if it leaves the window
    /// first. The load time that `navlog report` derives runs from the start of the screen's
    /// first visit to this event; a visit that ends first is an abandoned load.
    public func reportReady(_ outcome: ScreenReadyOutcome = .loaded) {
        guard readiness.outcome == nil, readiness.pending == nil else { return }
        readiness.pending = outcome
        if !context.isInOperation, isShown, context.window.visibleScreen === self { settleDisplay() }
    }

    /// Whether ``reportReady(_:)`` has been recorded for this screen.
    public var isReady: Bool { readiness.outcome != nil }

    /// The screen is on top once an operation settled: the user sees it. Records
    /// `screen.ready` for a report waiting to be displayed, or at the first display of a view
    /// that does not report readiness itself. A screen an operation only passed through (a
    /// deep link's intermediate screens) is not displayed, as the report's visits coalesce it.
    func settleDisplay() {
        let isFirstDisplay = !readiness.hasBeenDisplayed
        readiness.hasBeenDisplayed = true
        guard readiness.outcome == nil, isShown else { return }
        if let pending = readiness.pending {
            recordReady(pending)
        } else if isFirstDisplay, !view.reportsReadiness {
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
    /// Whether the screen was ever on top when an operation settled.
    var hasBeenDisplayed = false
    /// A report waiting for the screen to be displayed.
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
