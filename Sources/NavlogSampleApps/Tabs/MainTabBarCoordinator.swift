import NavlogRuntime

// Seed 002, "Patrón de coordinador en iOS": coordinators hold the navigation logic; each has
// `childCoordinators` and a navigation controller, and `start()` pushes its first screen.
// With a tab bar, every tab gets its own coordinator and navigation controller
// (`DashboardCoordinator`, `SettingsCoordinator`); children keep a link to their parent.

extension SampleApps {
    /// `tabs`: a team dashboard with Dashboard and Settings tabs, one coordinator and one stack
    /// each. Deep links such as `tabs://settings/notifications` reach any screen in steps.
    public static let tabs = AppDefinition(
        name: "tabs",
        summary: "Seed 002: a coordinator tree under a tab bar; Dashboard and Settings keep their own stacks and child coordinators",
        parameters: [
            .string("user_name", default: "Ana Souza", summary: "The signed-in user's name, shown and edited in Settings", isPrivate: true),
            .boolean("notifications", default: true, summary: "Whether notifications start switched on"),
            .choice("start_tab", ["dashboard", "settings"], default: "dashboard", summary: "The tab selected at launch"),
            Injection.parameter(
                leak: "the Dashboard presenter holds its coordinator strongly, so the tab's coordinator, stack and screens are never freed",
                doublePush: "a tap on a dashboard card pushes its report twice"
            ),
        ]
    ) { context, parameters in
        var preferences = SettingsStore.Preferences(userName: parameters.string("user_name"))
        preferences.notifications.isEnabled = parameters.boolean("notifications")
        return MainTabBarCoordinator(
            context: context,
            store: SettingsStore(preferences),
            startTab: parameters.string("start_tab") == "settings" ? .settings : .dashboard,
            injection: parameters.injection
        )
    }
}

// MARK: - The seed's coordinator shape

/// The seed's `Coordinator` protocol in the runtime's terms: a coordinator with a navigation
/// controller of its own and children it started.
protocol NavigationControllerCoordinator: Coordinator {
    /// The stack this coordinator pushes onto (the seed's `UINavigationController`).
    var navigationController: NavigationStack { get }
}

extension NavigationControllerCoordinator {
    /// The seed's `childCoordinators`: the runtime adds a child on `coordinate(to:)` and removes
    /// it when the child finishes.
    var childCoordinators: [Coordinator] { children }
}

// MARK: - MainTabBarCoordinator

/// The seed's `MainTabBarController`: makes one coordinator per tab, starts each, and puts
/// their navigation stacks in a tab container at the window's root.
final class MainTabBarCoordinator: Coordinator, DeepLinkHandling {
    enum Tab: String {
        case dashboard = "Dashboard"
        case settings = "Settings"
    }

    static let scheme = "tabs://"

    private let store: SettingsStore
    private let startTab: Tab
    private let injection: Injection
    private(set) weak var dashboardCoordinator: DashboardCoordinator?
    private(set) weak var settingsCoordinator: SettingsCoordinator?
    private(set) var tabBar: TabContainer?

    init(context: NavigationContext, store: SettingsStore, startTab: Tab, injection: Injection = .none) {
        self.store = store
        self.startTab = startTab
        self.injection = injection
        super.init(context: context)
    }

    override func didStart() throws {
        let dashboard = DashboardCoordinator(
            context: context, navigationController: NavigationStack(context: context, name: "DashboardNavigation"), injection: injection
        )
        let settings = SettingsCoordinator(context: context, navigationController: NavigationStack(context: context, name: "SettingsNavigation"), store: store)
        dashboardCoordinator = dashboard
        settingsCoordinator = settings
        try coordinate(to: dashboard)
        try coordinate(to: settings)
        let tabBar = TabContainer(
            context: context,
            tabs: [
                .init(title: Tab.dashboard.rawValue, stack: dashboard.navigationController),
                .init(title: Tab.settings.rawValue, stack: settings.navigationController),
            ],
            owner: self, name: "MainTabBar"
        )
        self.tabBar = tabBar
        try context.window.setRoot(tabBar, owner: self)
        if startTab != .dashboard { try tabBar.select(startTab.rawValue) }
    }

    // MARK: - Deep links

    /// Resolves `tabs://dashboard[/CARD]` and `tabs://settings[/notifications|/profile]`:
    /// select the tab, unwind its stack, then open the page through the tab's coordinator.
    func steps(for url: String) throws -> [NavigationStep] {
        guard url.hasPrefix(Self.scheme) else {
            throw DeepLinkUnreachable("unsupported link \(url): links start with \(Self.scheme)")
        }
        let path = url.dropFirst(Self.scheme.count).split(separator: "/").map { $0.lowercased() }
        guard let first = path.first, let tab = [Tab.dashboard, .settings].first(where: { $0.rawValue.lowercased() == first }) else {
            throw DeepLinkUnreachable("no tab '\(path.first ?? "")' in \(url); tabs: dashboard, settings")
        }
        guard path.count <= 2 else {
            throw DeepLinkUnreachable("\(url) is too deep: a link names a tab and at most one page")
        }
        guard let tabBar, let dashboard = dashboardCoordinator, let settings = settingsCoordinator else {
            throw DeepLinkUnreachable("the tab bar is not shown yet")
        }
        let page = path.dropFirst().first
        var steps: [NavigationStep] = [.dismissAll(in: context.window), .selectTab(tab.rawValue, in: tabBar)]
        switch tab {
        case .dashboard:
            steps.append(.popToRoot(dashboard.navigationController))
            if let page {
                guard let card = DashboardCard.all.first(where: { $0.id == page }) else {
                    throw DeepLinkUnreachable("no dashboard card '\(page)'; cards: \(DashboardCard.all.map(\.id).joined(separator: ", "))")
                }
                steps.append(NavigationStep("open report \(card.id)", perform: { [weak dashboard] in try dashboard?.showReport(for: card) }))
            }
        case .settings:
            steps.append(.popToRoot(settings.navigationController))
            switch page {
            case nil:
                break
            case "notifications":
                steps.append(NavigationStep("open notifications", perform: { [weak settings] in try settings?.showNotifications() }))
            case "profile":
                steps.append(NavigationStep("open profile", perform: { [weak settings] in try settings?.showProfile() }))
            case let other?:
                throw DeepLinkUnreachable("no settings page '\(other)'; pages: notifications, profile")
            }
        }
        return steps
    }
}
