import Foundation
import NavlogRuntime

// MARK: - Builder

/// Assembles the guides list module: interactor, presenter, router and the hosting view
/// controller.
enum ContentListBuilder {
    static func make(
        context: NavigationContext, stack: NavigationStack, catalog: GuideCatalog, category: GuideCategory, query: String,
        injection: Injection = .none
    ) -> Screen {
        let router = ContentListRouter(context: context, stack: stack, catalog: catalog, injection: injection)
        let interactor = ContentListInteractor(context: context, catalog: catalog)
        let presenter = ContentListPresenter(context: context, interactor: interactor, router: router, category: category, query: query)
        return Screen(name: "ContentList", view: ContentListViewController(presenter: presenter), owner: router, context: context)
    }
}

// MARK: - Interactor

/// Downloads the guides, then searches them.
final class ContentListInteractor: Interactor {
    private let context: NavigationContext
    private let catalog: GuideCatalog
    /// Whether the guides are here to search; bundled guides always are.
    private(set) var isLoaded: Bool

    init(context: NavigationContext, catalog: GuideCatalog) {
        self.context = context
        self.catalog = catalog
        self.isLoaded = catalog.latency == 0
    }

    /// Whether the guides arrive asynchronously, after the screen shows.
    var loadsAsynchronously: Bool { catalog.latency > 0 }

    /// Downloads the guides on the session's scheduler and calls `completion` once they are here.
    func loadGuides(completion: @escaping () -> Void) {
        guard !isLoaded else { return }
        context.schedule(after: catalog.latency) { [weak self] in
            self?.isLoaded = true
            completion()
        }
    }

    var isCatalogEmpty: Bool { catalog.guides.isEmpty }

    /// The guides in `category` whose title or summary contains `query`, case- and
    /// accent-insensitively.
    func guides(matching query: String, in category: GuideCategory) -> [Guide] {
        catalog.guides.filter { guide in
            (category == .all || guide.category == category)
                && (query.isEmpty
                    || guide.title.range(of: query, options: [.caseInsensitive, .diacriticInsensitive]) != nil
                    || guide.summary.range(of: query, options: [.caseInsensitive, .diacriticInsensitive]) != nil)
        }
    }

    func guide(withID id: String) -> Guide? { catalog.guide(withID: id) }
}

// MARK: - Presenter

/// What the presenter publishes for the list.
struct ContentListViewModel: Codable, Equatable {
    var query: String
    var category: GuideCategory
    var guides: [Guide]
    /// Set when nothing is listed, saying why.
    var emptyMessage: String?
}

/// Owns the list's values and publishes them to whoever binds to it (the view controller, which
/// assigns them into the content view's data source).
final class ContentListPresenter: ViewModelPresenter<ContentListViewModel> {
    private let interactor: ContentListInteractor
    private let router: ContentListRouter
    private var observers: [(ContentListViewModel) -> Void] = []

    init(context: NavigationContext, interactor: ContentListInteractor, router: ContentListRouter, category: GuideCategory, query: String) {
        self.interactor = interactor
        self.router = router
        super.init(context: context, viewModel: Self.makeViewModel(interactor, query: query, category: category))
        interactor.loadGuides { [weak self] in self?.guidesDidLoad() }
    }

    /// Lists the downloaded guides and reports the screen ready.
    private func guidesDidLoad() {
        publish(Self.makeViewModel(interactor, query: viewModel.query, category: viewModel.category))
        reportScreenReady(viewModel.guides.isEmpty ? .empty : .loaded)
    }

    /// Whether the list's guides arrive after the screen shows.
    var loadsAsynchronously: Bool { interactor.loadsAsynchronously }

    /// Calls `observer` after every change of the view model.
    func observe(_ observer: @escaping (ContentListViewModel) -> Void) {
        observers.append(observer)
    }

    func didChangeQuery(_ query: String) {
        publish(Self.makeViewModel(interactor, query: query.trimmingCharacters(in: .whitespaces), category: viewModel.category))
    }

    func didSelectCategory(_ category: GuideCategory) throws {
        publish(Self.makeViewModel(interactor, query: viewModel.query, category: category))
        try router.dismissFilter()
    }

    func didSelectGuide(id: String) throws {
        guard let guide = interactor.guide(withID: id) else { return }
        try router.showDetail(for: guide)
    }

    func didTapFilter() throws {
        try router.showFilter(selected: viewModel.category) { [weak self] category in
            try self?.didSelectCategory(category)
        }
    }

    private func publish(_ newValue: ContentListViewModel) {
        guard newValue != viewModel else { return }
        viewModel = newValue
        for observer in observers { observer(newValue) }
    }

    private static func makeViewModel(_ interactor: ContentListInteractor, query: String, category: GuideCategory) -> ContentListViewModel {
        let guides = interactor.guides(matching: query, in: category)
        guard interactor.isLoaded else {
            return ContentListViewModel(query: query, category: category, guides: [], emptyMessage: "Loading guides…")
        }
        var message: String?
        if interactor.isCatalogEmpty {
            message = "No guides yet. The first ones arrive with the next update."
        } else if guides.isEmpty {
            message = query.isEmpty ? "No \(category.title.lowercased()) guides yet." : "No guides match “\(query)” in \(category.title)."
        }
        return ContentListViewModel(query: query, category: category, guides: guides, emptyMessage: message)
    }
}

// MARK: - Router

/// The list's transitions: pushes a guide's detail, presents and dismisses the filter sheet.
final class ContentListRouter: Router {
    private let catalog: GuideCatalog
    private let injection: Injection
    private weak var filterScreen: Screen?

    init(context: NavigationContext, stack: NavigationStack, catalog: GuideCatalog, injection: Injection = .none) {
        self.catalog = catalog
        self.injection = injection
        super.init(context: context, stack: stack)
    }

    func showDetail(for guide: Guide) throws {
        guard let stack else { return }
        try stack.push(GuideDetailBuilder.make(guide: guide, owner: self, stack: stack, catalog: catalog, injection: injection))
        // `inject=double_push`: the selection is handled twice, and nothing checks that the
        // guide is already on top.
        if injection == .doublePush {
            try stack.push(GuideDetailBuilder.make(guide: guide, owner: self, stack: stack, catalog: catalog, injection: injection))
        }
    }

    func showFilter(selected: GuideCategory, onSelect: @escaping (GuideCategory) throws -> Void) throws {
        let screen = CategoryFilterBuilder.make(selected: selected, owner: self, context: context, onSelect: onSelect)
        filterScreen = screen
        try context.window.present(screen, style: .sheet, owner: self)
    }

    /// Dismisses the filter sheet if it is still the top modal.
    func dismissFilter() throws {
        guard let filterScreen, filterScreen.isShown, context.window.modals.last?.content === filterScreen else { return }
        try context.window.dismiss()
    }
}
