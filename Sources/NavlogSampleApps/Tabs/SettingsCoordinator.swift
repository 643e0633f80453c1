import NavlogEvents
import NavlogRuntime

// MARK: - Store

/// The user's settings, shared by the Settings tab's coordinators.
final class SettingsStore {
    struct NotificationPreferences: Codable, Equatable {
        var isEnabled = true
        var weeklyDigest = true
        var mentions = true
        var releases = false

        /// `On · 2 of 3 kinds` or `Off`.
        var summary: String {
            guard isEnabled else { return "Off" }
            let count = [weeklyDigest, mentions, releases].filter { $0 }.count
            return "On · \(count) of 3 kinds"
        }
    }

    struct Preferences: Codable, Equatable {
        var userName: String
        var isDarkMode = false
        var sharesAnalytics = true
        var notifications = NotificationPreferences()
    }

    var preferences: Preferences

    init(_ preferences: Preferences) {
        self.preferences = preferences
    }
}

// MARK: - SettingsCoordinator

/// The Settings tab: pushes the settings list when it starts, and Notifications or Profile
/// through child coordinators, which report back to it through their parent link.
final class SettingsCoordinator: Coordinator, NavigationControllerCoordinator {
    let navigationController: NavigationStack
    let store: SettingsStore
    private weak var presenter: SettingsPresenter?

    init(context: NavigationContext, navigationController: NavigationStack, store: SettingsStore) {
        self.navigationController = navigationController
        self.store = store
        super.init(context: context)
    }

    override func didStart() throws {
        let presenter = SettingsPresenter(context: context, coordinator: self, store: store)
        self.presenter = presenter
        try navigationController.push(Screen(name: "Settings", view: SettingsView(presenter: presenter), owner: self, context: context))
    }

    func showNotifications() throws {
        try coordinate(to: NotificationsSettingsCoordinator(context: context, navigationController: navigationController, store: store))
    }

    func showProfile() throws {
        try coordinate(to: ProfileCoordinator(context: context, navigationController: navigationController, store: store))
    }

    /// Called by a child when it changed the store, so the list shows the new values.
    func childDidChangeSettings() {
        presenter?.refresh()
    }
}

// MARK: - Presenter

/// What the settings list shows; the user's name is private (stored hashed).
struct SettingsViewModel: Codable, Equatable, PrivateFields {
    static let privateFields: Set<String> = ["userName"]

    var userName: String
    var isDarkMode: Bool
    var sharesAnalytics: Bool
    var notificationsSummary: String

    init(_ preferences: SettingsStore.Preferences) {
        userName = preferences.userName
        isDarkMode = preferences.isDarkMode
        sharesAnalytics = preferences.sharesAnalytics
        notificationsSummary = preferences.notifications.summary
    }
}

/// Owns the settings list's view model: toggles change it and the store at once.
final class SettingsPresenter: ViewModelPresenter<SettingsViewModel> {
    private weak var coordinator: SettingsCoordinator?
    private let store: SettingsStore

    init(context: NavigationContext, coordinator: SettingsCoordinator, store: SettingsStore) {
        self.coordinator = coordinator
        self.store = store
        super.init(context: context, viewModel: SettingsViewModel(store.preferences))
    }

    func didSetDarkMode(_ isOn: Bool) {
        store.preferences.isDarkMode = isOn
        refresh()
    }

    func didSetAnalytics(_ isOn: Bool) {
        store.preferences.sharesAnalytics = isOn
        refresh()
    }

    func didTapNotifications() throws { try coordinator?.showNotifications() }

    func didTapProfile() throws { try coordinator?.showProfile() }

    /// Reads the store again; records a change only if something differs.
    func refresh() {
        viewModel = SettingsViewModel(store.preferences)
    }
}

// MARK: - View

/// The settings list: profile, notifications, and two toggles.
final class SettingsView: ScreenView {
    private let presenter: SettingsPresenter

    init(presenter: SettingsPresenter) {
        self.presenter = presenter
    }

    var boundObjects: [any ScreenBound] { [presenter] }

    func render() -> Element {
        let model = presenter.viewModel
        return .group([
            .text("Signed in as \(model.userName)", id: "profile-summary"),
            .button("open-profile", title: "Edit profile"),
            .button("open-notifications", title: "Notifications: \(model.notificationsSummary)"),
            .toggle("toggle-dark-mode", title: "Dark mode", isOn: model.isDarkMode),
            .toggle("toggle-analytics", title: "Share anonymous analytics", isOn: model.sharesAnalytics),
        ])
    }

    func handle(_ action: UserAction) throws {
        let model = presenter.viewModel
        switch action.element {
        case "open-profile": try presenter.didTapProfile()
        case "open-notifications": try presenter.didTapNotifications()
        case "toggle-dark-mode": presenter.didSetDarkMode(action.isOn(toggling: model.isDarkMode))
        case "toggle-analytics": presenter.didSetAnalytics(action.isOn(toggling: model.sharesAnalytics))
        default: break
        }
    }
}
