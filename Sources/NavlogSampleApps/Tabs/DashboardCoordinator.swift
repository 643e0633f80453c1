import Foundation
import NavlogRuntime

// MARK: - Data

/// One metric card of the dashboard, with its history for the report.
struct DashboardCard: Codable, Equatable {
    var id: String
    var title: String
    var value: String
    var trend: String
    /// Daily values for the last 30 days, oldest first, in units of `1 / scale`.
    var history: [Int]
    var scale = 1.0
    /// How one value prints, as a `String(format:)` pattern.
    var format = "%.0f"

    /// Returns `value` from ``history`` as the card prints it: `99.72%`.
    func display(_ value: Int) -> String {
        String(format: format, Double(value) / scale)
    }

    static let all: [DashboardCard] = [
        DashboardCard(id: "active-users", title: "Weekly active users", value: "12,480", trend: "+4.2% vs last week",
                      history: [11_020, 11_140, 11_090, 11_300, 11_410, 11_380, 11_520, 11_610, 11_580, 11_700,
                                11_760, 11_690, 11_840, 11_910, 11_880, 11_990, 12_050, 12_010, 12_120, 12_160,
                                12_090, 12_210, 12_260, 12_230, 12_310, 12_360, 12_340, 12_410, 12_450, 12_480]),
        DashboardCard(id: "crash-free", title: "Crash-free sessions", value: "99.72%", trend: "+0.05 pt",
                      history: [9_961, 9_958, 9_963, 9_960, 9_965, 9_962, 9_966, 9_964, 9_967, 9_965,
                                9_963, 9_968, 9_966, 9_969, 9_967, 9_965, 9_968, 9_970, 9_969, 9_967,
                                9_969, 9_971, 9_970, 9_968, 9_971, 9_972, 9_970, 9_973, 9_971, 9_972],
                      scale: 100, format: "%.2f%%"),
        DashboardCard(id: "release-adoption", title: "Release 4.2 adoption", value: "61%", trend: "3 days since launch",
                      history: Array(repeating: 0, count: 27) + [24, 47, 61], format: "%.0f%%"),
        DashboardCard(id: "app-rating", title: "App Store rating", value: "4.7", trend: "312 new ratings",
                      history: [46, 46, 47, 46, 47, 47, 46, 47, 47, 47, 46, 47, 47, 47, 47,
                                47, 46, 47, 47, 47, 47, 48, 47, 47, 47, 47, 47, 47, 47, 47],
                      scale: 10, format: "%.1f"),
    ]
}

// MARK: - DashboardCoordinator

/// The Dashboard tab: pushes the cards when it starts and a report per card through a child
/// coordinator.
final class DashboardCoordinator: Coordinator, NavigationControllerCoordinator {
    let navigationController: NavigationStack
    private let injection: Injection

    init(context: NavigationContext, navigationController: NavigationStack, injection: Injection = .none) {
        self.navigationController = navigationController
        self.injection = injection
        super.init(context: context)
    }

    override func didStart() throws {
        let presenter = DashboardPresenter(context: context, coordinator: self, holdsCoordinatorStrongly: injection == .leak)
        try navigationController.push(Screen(name: "Dashboard", view: DashboardView(presenter: presenter), owner: self, context: context))
    }

    /// Starts a Report coordinator for `card`; it is removed from ``childCoordinators`` when its
    /// screen goes away.
    func showReport(for card: DashboardCard) throws {
        try coordinate(to: ReportCoordinator(context: context, navigationController: navigationController, card: card))
        // `inject=double_push`: the tap is handled twice, and nothing checks that a report is
        // already on its way.
        if injection == .doublePush {
            try coordinate(to: ReportCoordinator(context: context, navigationController: navigationController, card: card))
        }
    }
}

/// What the dashboard shows.
struct DashboardViewModel: Codable, Equatable {
    var greeting: String
    var cards: [DashboardCard]
}

/// Owns the dashboard's view model; a tapped card becomes a report.
final class DashboardPresenter: ViewModelPresenter<DashboardViewModel> {
    private weak var coordinator: DashboardCoordinator?
    /// The coordinator held strongly, as a view controller whose `coordinator` property is not
    /// `weak` holds it (`inject=leak`): coordinator, stack, screen and presenter then keep one
    /// another alive after the session lets go of them.
    private var strongCoordinator: DashboardCoordinator?

    init(context: NavigationContext, coordinator: DashboardCoordinator, holdsCoordinatorStrongly: Bool = false) {
        self.coordinator = coordinator
        if holdsCoordinatorStrongly { strongCoordinator = coordinator }
        super.init(context: context, viewModel: DashboardViewModel(greeting: "This week at a glance", cards: DashboardCard.all))
    }

    func didSelectCard(id: String) throws {
        guard let card = viewModel.cards.first(where: { $0.id == id }) else { return }
        try coordinator?.showReport(for: card)
    }
}

/// The cards, each one tappable.
final class DashboardView: ScreenView {
    private let presenter: DashboardPresenter

    init(presenter: DashboardPresenter) {
        self.presenter = presenter
    }

    var boundObjects: [any ScreenBound] { [presenter] }

    func render() -> Element {
        let model = presenter.viewModel
        return .group([
            .text(model.greeting, id: "greeting"),
            .list("cards", items: model.cards.map { .item("card-\($0.id)", title: "\($0.title): \($0.value)", detail: $0.trend) }),
        ])
    }

    func handle(_ action: UserAction) throws {
        if action.element.hasPrefix("card-") { try presenter.didSelectCard(id: String(action.element.dropFirst("card-".count))) }
    }
}

// MARK: - ReportCoordinator

/// A child of the Dashboard coordinator: shows one card's report on the Dashboard stack and
/// finishes when it leaves. Its `parent` link is weak, as the seed's children are.
final class ReportCoordinator: Coordinator {
    private let navigationController: NavigationStack
    private let card: DashboardCard
    private weak var screen: Screen?

    init(context: NavigationContext, navigationController: NavigationStack, card: DashboardCard) {
        self.navigationController = navigationController
        self.card = card
        super.init(context: context)
    }

    override func didStart() throws {
        let presenter = ReportPresenter(context: context, coordinator: self, card: card)
        let screen = Screen(name: "Report", view: ReportView(presenter: presenter), owner: self, context: context)
        self.screen = screen
        finishes(with: screen)
        try navigationController.push(screen)
    }

    /// Pops the report; finishing follows from the screen leaving.
    func close() throws {
        guard let screen, navigationController.topScreen === screen else { return }
        try navigationController.pop()
    }
}

/// What a report shows: the card and a summary of the chosen range.
struct ReportViewModel: Codable, Equatable {
    var title: String
    var rangeDays: Int
    var summary: String
}

/// Summarizes a card's history over 7 or 30 days.
final class ReportPresenter: ViewModelPresenter<ReportViewModel> {
    private weak var coordinator: ReportCoordinator?
    private let card: DashboardCard

    init(context: NavigationContext, coordinator: ReportCoordinator, card: DashboardCard) {
        self.coordinator = coordinator
        self.card = card
        super.init(context: context, viewModel: Self.makeViewModel(card: card, days: 7))
    }

    func didSelectRange(days: Int) {
        viewModel = Self.makeViewModel(card: card, days: days)
    }

    func didTapClose() throws { try coordinator?.close() }

    static func makeViewModel(card: DashboardCard, days: Int) -> ReportViewModel {
        let values = card.history.suffix(days)
        let low = values.min() ?? 0, high = values.max() ?? 0
        return ReportViewModel(title: card.title, rangeDays: days, summary: "Last \(days) days: low \(card.display(low)), high \(card.display(high)), now \(card.value)")
    }
}

/// The report with range buttons and a close button.
final class ReportView: ScreenView {
    private let presenter: ReportPresenter

    init(presenter: ReportPresenter) {
        self.presenter = presenter
    }

    var boundObjects: [any ScreenBound] { [presenter] }

    func render() -> Element {
        let model = presenter.viewModel
        return .group([
            .text(model.title, id: "report-title"),
            .text(model.summary, id: "report-summary"),
            .group([.button("range-7d", title: "7 days"), .button("range-30d", title: "30 days")], id: "ranges"),
            .button("close-report", title: "Done"),
        ])
    }

    func handle(_ action: UserAction) throws {
        switch action.element {
        case "range-7d": presenter.didSelectRange(days: 7)
        case "range-30d": presenter.didSelectRange(days: 30)
        case "close-report": try presenter.didTapClose()
        default: break
        }
    }
}
