import NavlogRuntime

/// A small app for the tests of hosts and analysis (NavlogHostTests, NavlogAnalysisTests): Home
/// (a button, a search field, a list loaded asynchronously) → Detail by push, or → Sheet as a
/// modal; a deep link `demo://detail`.
public enum DemoApp {
    public static let definition = AppDefinition(
        name: "demo",
        summary: "A small app for host tests",
        parameters: [
            .integer("latency_ms", in: 0...10_000, default: 200, summary: "How long the list takes to load"),
            .boolean("broken", default: false, summary: "Whether Detail has no way back (a dead end)"),
        ]
    ) { context, parameters in
        HomeCoordinator(context: context, latency: UInt64(parameters.integer("latency_ms")) * 1_000_000, isBroken: parameters.boolean("broken"))
    }
}

struct HomeViewModel: Codable, Equatable {
    var query = ""
    var items: [String] = []
    var isLoading = false
}

final class HomePresenter: ViewModelPresenter<HomeViewModel> {
    var onDetail: () throws -> Void = {}
    var onSheet: () throws -> Void = {}
}

final class HomeView: ScreenView {
    let presenter: HomePresenter
    init(presenter: HomePresenter) { self.presenter = presenter }
    var boundObjects: [any ScreenBound] { [presenter] }
    func render() -> Element {
        var children: [Element] = [
            .text("Home"),
            .textField("search", placeholder: "Search", value: presenter.viewModel.query),
            .button("detail", title: "Open detail"),
            .button("sheet", title: "Open sheet"),
        ]
        children.append(presenter.viewModel.isLoading ? .spinner(isSpinning: true) : .list("items", items: presenter.viewModel.items.map { .item("item-\($0)", title: $0) }))
        return .group(children)
    }
    func handle(_ action: UserAction) throws {
        switch action.element {
        case "detail": try presenter.onDetail()
        case "sheet": try presenter.onSheet()
        case "search": presenter.updateViewModel { $0.query = action.value ?? "" }
        default: try presenter.onDetail()
        }
    }
}

final class StaticView: ScreenView {
    let title: String
    let buttons: [String]
    init(_ title: String, buttons: [String] = []) {
        self.title = title
        self.buttons = buttons
    }
    func render() -> Element { .group([.text(title)] + buttons.map { .button($0, title: $0) }) }
    func handle(_ action: UserAction) throws {}
}

final class HomeCoordinator: Coordinator, DeepLinkHandling {
    let stack: NavigationStack
    let latency: UInt64
    let isBroken: Bool

    init(context: NavigationContext, latency: UInt64, isBroken: Bool) {
        self.stack = NavigationStack(context: context)
        self.latency = latency
        self.isBroken = isBroken
        super.init(context: context)
    }

    override func didStart() throws {
        let presenter = HomePresenter(context: context, viewModel: HomeViewModel(isLoading: true))
        presenter.onDetail = { [unowned self] in try self.showDetail() }
        presenter.onSheet = { [unowned self] in
            try self.context.window.present(Screen(name: "Sheet", view: StaticView("Sheet"), owner: self, context: self.context), owner: self)
        }
        try stack.push(Screen(name: "Home", view: HomeView(presenter: presenter), owner: self, context: context))
        try context.window.setRoot(stack, owner: self)
        context.schedule(after: latency) { [weak presenter] in
            presenter?.updateViewModel { $0.items = ["alpha", "beta"]; $0.isLoading = false }
        }
    }

    func showDetail() throws {
        let detail = Screen(name: "Detail", view: StaticView("Detail"), owner: self, context: context)
        if isBroken {
            try context.window.present(detail, style: .fullScreen, owner: self)
        } else {
            try stack.push(detail)
        }
    }

    func steps(for url: String) throws -> [NavigationStep] {
        guard url == "demo://detail" else { throw DeepLinkUnreachable("unknown link \(url)") }
        return [.popToRoot(stack), .push("Detail", on: stack) { [unowned self] in
            Screen(name: "Detail", view: StaticView("Detail"), owner: self, context: self.context)
        }]
    }
}
