import Foundation
import NavlogEvents
import NavlogRuntime

// MARK: - Notifications

/// A child of the Settings coordinator: shows the notification preferences on the Settings
/// stack, tells its parent about changes and finishes when its screen leaves.
final class NotificationsSettingsCoordinator: Coordinator {
    private let navigationController: NavigationStack
    private let store: SettingsStore
    private weak var screen: Screen?

    init(context: NavigationContext, navigationController: NavigationStack, store: SettingsStore) {
        self.navigationController = navigationController
        self.store = store
        super.init(context: context)
    }

    /// The seed's weak parent link, typed.
    var settingsCoordinator: SettingsCoordinator? { parent as? SettingsCoordinator }

    override func didStart() throws {
        let presenter = NotificationsSettingsPresenter(context: context, coordinator: self, preferences: store.preferences.notifications)
        let screen = Screen(name: "NotificationsSettings", view: NotificationsSettingsView(presenter: presenter), owner: self, context: context)
        self.screen = screen
        finishes(with: screen)
        try navigationController.push(screen)
    }

    func preferencesDidChange(_ preferences: SettingsStore.NotificationPreferences) {
        store.preferences.notifications = preferences
        settingsCoordinator?.childDidChangeSettings()
    }

    func close() throws {
        guard let screen, navigationController.topScreen === screen else { return }
        try navigationController.pop()
    }
}

/// Owns the notification preferences while they are edited.
final class NotificationsSettingsPresenter: ViewModelPresenter<SettingsStore.NotificationPreferences> {
    private weak var coordinator: NotificationsSettingsCoordinator?

    init(context: NavigationContext, coordinator: NotificationsSettingsCoordinator, preferences: SettingsStore.NotificationPreferences) {
        self.coordinator = coordinator
        super.init(context: context, viewModel: preferences)
    }

    func didChange(_ change: (inout SettingsStore.NotificationPreferences) -> Void) {
        let before = viewModel
        updateViewModel(change)
        if viewModel != before { coordinator?.preferencesDidChange(viewModel) }
    }

    func didTapDone() throws { try coordinator?.close() }
}

/// A master switch and, when it is on, one toggle per kind; when off, an explanation.
final class NotificationsSettingsView: ScreenView {
    private let presenter: NotificationsSettingsPresenter

    init(presenter: NotificationsSettingsPresenter) {
        self.presenter = presenter
    }

    var boundObjects: [any ScreenBound] { [presenter] }

    func render() -> Element {
        let model = presenter.viewModel
        var children: [Element] = [.toggle("toggle-notifications", title: "Allow notifications", isOn: model.isEnabled)]
        if model.isEnabled {
            children.append(.group([
                .toggle("toggle-digest", title: "Weekly digest", isOn: model.weeklyDigest),
                .toggle("toggle-mentions", title: "Mentions", isOn: model.mentions),
                .toggle("toggle-releases", title: "Release announcements", isOn: model.releases),
            ], id: "kinds"))
        } else {
            children.append(.text("Notifications are off. Turn them on to choose what you hear about.", id: "notifications-off"))
        }
        children.append(.button("done-notifications", title: "Done"))
        return .group(children)
    }

    func handle(_ action: UserAction) throws {
        let model = presenter.viewModel
        switch action.element {
        case "toggle-notifications": presenter.didChange { $0.isEnabled = action.isOn(toggling: model.isEnabled) }
        case "toggle-digest": presenter.didChange { $0.weeklyDigest = action.isOn(toggling: model.weeklyDigest) }
        case "toggle-mentions": presenter.didChange { $0.mentions = action.isOn(toggling: model.mentions) }
        case "toggle-releases": presenter.didChange { $0.releases = action.isOn(toggling: model.releases) }
        case "done-notifications": try presenter.didTapDone()
        default: break
        }
    }
}

// MARK: - Profile

/// A child of the Settings coordinator: edits the user's name, saves it through its parent and
/// finishes when its screen leaves.
final class ProfileCoordinator: Coordinator {
    private let navigationController: NavigationStack
    private let store: SettingsStore
    private weak var screen: Screen?

    init(context: NavigationContext, navigationController: NavigationStack, store: SettingsStore) {
        self.navigationController = navigationController
        self.store = store
        super.init(context: context)
    }

    var settingsCoordinator: SettingsCoordinator? { parent as? SettingsCoordinator }

    override func didStart() throws {
        let presenter = ProfilePresenter(context: context, coordinator: self, name: store.preferences.userName)
        let screen = Screen(name: "Profile", view: ProfileView(presenter: presenter), owner: self, context: context)
        self.screen = screen
        finishes(with: screen)
        try navigationController.push(screen)
    }

    /// Saves `name` (or only closes when nil) and goes back to the settings list.
    func profileDidFinish(savedName name: String?) throws {
        if let name {
            store.preferences.userName = name
            settingsCoordinator?.childDidChangeSettings()
        }
        guard let screen, navigationController.topScreen === screen else { return }
        try navigationController.pop()
    }
}

/// What the profile editor shows; the name is private (stored hashed).
struct ProfileViewModel: Codable, Equatable, PrivateFields {
    static let privateFields: Set<String> = ["name"]

    var name: String
    var errorMessage: String?
}

/// Validates the name before it is saved.
final class ProfilePresenter: ViewModelPresenter<ProfileViewModel> {
    static let maximumLength = 40
    private weak var coordinator: ProfileCoordinator?

    init(context: NavigationContext, coordinator: ProfileCoordinator, name: String) {
        self.coordinator = coordinator
        super.init(context: context, viewModel: ProfileViewModel(name: name))
    }

    func didEnterName(_ text: String) {
        viewModel = ProfileViewModel(name: text.trimmingCharacters(in: .whitespaces))
    }

    func didTapSave() throws {
        let name = viewModel.name
        guard !name.isEmpty else {
            updateViewModel { $0.errorMessage = "Your name can't be empty." }
            return
        }
        guard name.count <= Self.maximumLength else {
            updateViewModel { $0.errorMessage = "Use at most \(Self.maximumLength) characters." }
            return
        }
        try coordinator?.profileDidFinish(savedName: name)
    }

    func didTapCancel() throws { try coordinator?.profileDidFinish(savedName: nil) }
}

/// A name field with save and cancel, and an inline error.
final class ProfileView: ScreenView {
    private let presenter: ProfilePresenter

    init(presenter: ProfilePresenter) {
        self.presenter = presenter
    }

    var boundObjects: [any ScreenBound] { [presenter] }

    func render() -> Element {
        let model = presenter.viewModel
        var children: [Element] = [.textField("profile-name", placeholder: "Your name", value: model.name, isPrivate: true)]
        if let error = model.errorMessage { children.append(.text(error, id: "profile-error")) }
        children += [.button("save-profile", title: "Save"), .button("cancel-profile", title: "Cancel")]
        return .group(children)
    }

    func handle(_ action: UserAction) throws {
        switch action.element {
        case "profile-name": presenter.didEnterName(action.value ?? "")
        case "save-profile": try presenter.didTapSave()
        case "cancel-profile": try presenter.didTapCancel()
        default: break
        }
    }
}
