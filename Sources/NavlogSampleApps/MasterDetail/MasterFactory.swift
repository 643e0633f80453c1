import Foundation
import NavlogRuntime

// MARK: - Factory

/// Builds the Master screen: presenter, view and screen, wired to `coordinator` (the seed's
/// `MasterFactory.make(with:)`).
enum MasterFactory {
    static func make(with coordinator: any MasterCoordinator, date: Date) -> Screen {
        let presenter = MasterPresenter(context: coordinator.context, coordinator: coordinator, date: date)
        let view = MasterView(presenter: presenter)
        return Screen(name: "Master", view: view, owner: coordinator, context: coordinator.context)
    }
}

// MARK: - Model

/// What the Master screen shows: one date.
struct MasterViewModel: Codable, Equatable {
    let date: Date
}

// MARK: - Presenter

/// What the Master view may read and ask for; the view sees nothing else.
protocol MasterPresenting: ScreenBound {
    var viewModel: MasterViewModel { get }
    func didTapDate() throws
    func didTapPreviousDay()
    func didTapNextDay()
    func didTapAbout() throws
}

/// Owns the Master view model and turns taps into requests to the coordinator.
final class MasterPresenter: ViewModelPresenter<MasterViewModel>, MasterPresenting {
    private static let day: TimeInterval = 24 * 60 * 60
    /// Weak: the coordinator owns the screen that owns this presenter.
    private weak var coordinator: (any MasterCoordinator)?

    init(context: NavigationContext, coordinator: any MasterCoordinator, date: Date) {
        self.coordinator = coordinator
        super.init(context: context, viewModel: MasterViewModel(date: date))
    }

    func didTapDate() throws {
        try coordinator?.showDetail(for: viewModel.date)
    }

    func didTapPreviousDay() {
        viewModel = MasterViewModel(date: viewModel.date.addingTimeInterval(-Self.day))
    }

    func didTapNextDay() {
        viewModel = MasterViewModel(date: viewModel.date.addingTimeInterval(Self.day))
    }

    func didTapAbout() throws {
        try coordinator?.showAbout()
    }
}

// MARK: - View

/// Shows the date as a button. Which way Detail appears (push or modal) is not the view's
/// business: it only tells the presenter the date was tapped.
final class MasterView: ScreenView {
    enum ElementID {
        static let date = "open-detail"
        static let previousDay = "previous-day"
        static let nextDay = "next-day"
        static let about = "open-about"
    }

    private let presenter: any MasterPresenting

    init(presenter: any MasterPresenting) {
        self.presenter = presenter
    }

    var boundObjects: [any ScreenBound] { [presenter] }

    func render() -> Element {
        let date = presenter.viewModel.date
        return .group([
            .text("Day planner", id: "title"),
            .button(ElementID.date, title: DayFormatter.long(date)),
            .group([
                .button(ElementID.previousDay, title: "Previous day"),
                .button(ElementID.nextDay, title: "Next day"),
            ], id: "day-switcher"),
            .button(ElementID.about, title: "About"),
        ])
    }

    func handle(_ action: UserAction) throws {
        switch action.element {
        case ElementID.date: try presenter.didTapDate()
        case ElementID.previousDay: presenter.didTapPreviousDay()
        case ElementID.nextDay: presenter.didTapNextDay()
        case ElementID.about: try presenter.didTapAbout()
        default: break
        }
    }
}

// MARK: - About

/// Builds the About screen, which belongs to the root coordinator.
enum AboutFactory {
    static func make(with coordinator: RootMasterCoordinator) -> Screen {
        Screen(name: "About", view: AboutView(coordinator: coordinator), owner: coordinator, context: coordinator.context)
    }
}

/// Static credits and a close button; it has nothing to present, so it talks to its
/// coordinator directly through a weak link.
final class AboutView: ScreenView {
    private weak var coordinator: RootMasterCoordinator?

    init(coordinator: RootMasterCoordinator) {
        self.coordinator = coordinator
    }

    func render() -> Element {
        .group([
            .text("Day planner 1.4", id: "version"),
            .text("A sample of MVP with coordinators: the view never decides how the next screen appears.", id: "blurb"),
            .group([
                .text("MVP + Coordinators in SwiftUI, by Luis Ascorbe"),
                .text("The Coordinator, by Soroush Khanlou"),
            ], id: "credits"),
            .button("close-about", title: "Done"),
        ])
    }

    func handle(_ action: UserAction) throws {
        if action.element == "close-about" { try coordinator?.closeAbout() }
    }
}
