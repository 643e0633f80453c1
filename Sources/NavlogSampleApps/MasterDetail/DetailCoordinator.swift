import Foundation
import NavlogRuntime

// MARK: - Coordinator

/// Shows one day's Detail, pushed onto Master's stack or presented as a sheet with a stack of
/// its own, as ``DetailStyle`` says. The seed's part 2: the link left the view, and this is
/// where it went.
///
/// The coordinator finishes with its Detail screen however that leaves (its own close, the
/// back button, a swipe down), so its parent drops it and it deallocates.
final class DetailCoordinator: Coordinator {
    private let style: DetailStyle
    private let masterNavigation: NavigationStack
    private let date: Date
    private let injection: Injection
    /// The stack Detail lives in: Master's when pushed, the sheet's own when modal.
    private var navigation: NavigationStack?
    private weak var detailScreen: Screen?
    private weak var detailPresenter: DetailPresenter?

    init(context: NavigationContext, style: DetailStyle, masterNavigation: NavigationStack, date: Date, injection: Injection = .none) {
        self.style = style
        self.masterNavigation = masterNavigation
        self.date = date
        self.injection = injection
        super.init(context: context)
    }

    override func didStart() throws {
        let (screen, presenter) = DetailFactory.make(with: self, date: date)
        detailScreen = screen
        detailPresenter = presenter
        // `inject=leak` leaves this out (seed 000's bug): the coordinator never hears its screen
        // go (by its own close, the back button or a swipe), so it never finishes and stays
        // among its parent's children, alive, for the rest of the session.
        if injection != .leak { finishes(with: screen) }
        switch style {
        case .push:
            navigation = masterNavigation
            try masterNavigation.push(screen)
        case .modal:
            let sheet = NavigationStack(context: context, name: "DetailNavigation")
            try sheet.push(screen)
            navigation = sheet
            try context.window.present(sheet, style: .sheet, owner: self)
        }
    }

    /// Closes Detail the way it was shown: pops it (and anything above it) or dismisses the sheet.
    func close() throws {
        guard let detailScreen, detailScreen.isShown, let navigation else { return }
        switch style {
        case .push:
            guard let index = navigation.stackScreens.firstIndex(where: { $0 === detailScreen }), index > 0 else { return }
            try navigation.pop(to: navigation.stackScreens[index - 1])
        case .modal:
            try context.window.dismiss()
        }
    }

    /// Pushes the Share screen over Detail, in whichever stack Detail is in.
    func showShare() throws {
        try navigation?.push(ShareFactory.make(with: self, date: date))
    }

    /// Goes back to Detail after sharing, noting who the day was sent to.
    func shareDidFinish(sentTo recipient: String?) throws {
        if let recipient { detailPresenter?.didShare(with: recipient) }
        guard let detailScreen, let navigation else { return }
        try navigation.pop(to: detailScreen)
    }
}

// MARK: - Factory

/// Builds the Detail screen for one day.
enum DetailFactory {
    static func make(with coordinator: DetailCoordinator, date: Date) -> (Screen, DetailPresenter) {
        let presenter = DetailPresenter(context: coordinator.context, coordinator: coordinator, date: date)
        let screen = Screen(name: "Detail", view: DetailView(presenter: presenter), owner: coordinator, context: coordinator.context)
        return (screen, presenter)
    }
}

// MARK: - Model

/// One appointment of a day.
struct AgendaEntry: Codable, Equatable {
    var time: String
    var title: String
    var place: String
}

/// What the Detail screen shows.
struct DetailViewModel: Codable, Equatable {
    var date: Date
    var agenda: [AgendaEntry]
    var isPinned = false
    var sharedWith: [String] = []
}

/// A team's working week; weekends are free.
enum WeeklyAgenda {
    static func entries(for date: Date) -> [AgendaEntry] {
        switch DayFormatter.weekday(of: date) {
        case "Monday":
            [.init(time: "09:30", title: "Team stand-up", place: "Room Lisbon"),
             .init(time: "11:00", title: "Pairing: coordinator refactor", place: "Remote"),
             .init(time: "16:00", title: "1:1 with Marta", place: "Café")]
        case "Tuesday":
            [.init(time: "09:30", title: "Team stand-up", place: "Room Lisbon"),
             .init(time: "14:00", title: "Architecture review: navigation", place: "Room Porto"),
             .init(time: "17:30", title: "iOS guild", place: "Auditorium")]
        case "Wednesday":
            [.init(time: "10:00", title: "Design critique: onboarding", place: "Studio"),
             .init(time: "15:00", title: "Release 4.2 go/no-go", place: "Room Lisbon")]
        case "Thursday":
            [.init(time: "09:30", title: "Team stand-up", place: "Room Lisbon"),
             .init(time: "13:00", title: "Lunch and learn: Swift concurrency", place: "Kitchen")]
        case "Friday":
            [.init(time: "11:00", title: "Demo day", place: "Auditorium"),
             .init(time: "16:00", title: "Retrospective", place: "Room Porto")]
        default:
            []
        }
    }
}

// MARK: - Presenter

/// Owns the Detail view model; asks its coordinator to share or close.
final class DetailPresenter: ViewModelPresenter<DetailViewModel> {
    private weak var coordinator: DetailCoordinator?

    init(context: NavigationContext, coordinator: DetailCoordinator, date: Date) {
        self.coordinator = coordinator
        super.init(context: context, viewModel: DetailViewModel(date: date, agenda: WeeklyAgenda.entries(for: date)))
    }

    func didSetPinned(_ isPinned: Bool) {
        updateViewModel { $0.isPinned = isPinned }
    }

    func didTapShare() throws { try coordinator?.showShare() }

    func didTapClose() throws { try coordinator?.close() }

    func didShare(with recipient: String) {
        updateViewModel { $0.sharedWith.append(recipient) }
    }
}

// MARK: - View

/// The day's agenda, or an empty state on a free day. It never knows whether it was pushed or
/// presented: "Close" asks the presenter, and the coordinator decides what closing means.
final class DetailView: ScreenView {
    private let presenter: DetailPresenter

    init(presenter: DetailPresenter) {
        self.presenter = presenter
    }

    var boundObjects: [any ScreenBound] { [presenter] }

    func render() -> Element {
        let model = presenter.viewModel
        let agenda: Element = model.agenda.isEmpty
            ? .text("Nothing planned for \(DayFormatter.weekday(of: model.date)). Enjoy the day off.", id: "agenda-empty")
            : .group(model.agenda.map { .text("\($0.time)  \($0.title) · \($0.place)") }, id: "agenda")
        var children: [Element] = [
            .text(DayFormatter.short(model.date), id: "detail-date"),
            agenda,
            .toggle("toggle-pinned", title: "Pin this day", isOn: model.isPinned),
            .button("open-share", title: "Share this day"),
        ]
        if !model.sharedWith.isEmpty {
            children.append(.text("Shared with \(model.sharedWith.joined(separator: ", "))", id: "shared-with"))
        }
        children.append(.button("close-detail", title: "Close"))
        return .group(children)
    }

    func handle(_ action: UserAction) throws {
        switch action.element {
        case "toggle-pinned": presenter.didSetPinned(action.isOn(toggling: presenter.viewModel.isPinned))
        case "open-share": try presenter.didTapShare()
        case "close-detail": try presenter.didTapClose()
        default: break
        }
    }
}
