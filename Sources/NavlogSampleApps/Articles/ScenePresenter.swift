import NavlogRuntime

// MARK: - Builder

/// Assembles the Articles scene (view, model, presenter, interactor, router) and returns its
/// screen, ready to push.
enum SceneBuilder {
    static func make(context: NavigationContext, stack: NavigationStack, services: ArticlesServices) -> Screen {
        let interactor = SceneInteractor(context: context, services: services)
        let router = SceneRouter(context: context, stack: stack, services: services)
        let presenter = ScenePresenter(context: context, interactor: interactor, router: router)
        let model = SceneModel(context: context, state: SceneState())
        model.output = presenter
        presenter.model = model
        interactor.output = presenter
        return Screen(name: "Articles", view: SceneView(model: model, bound: [presenter, model]), owner: router, context: context)
    }
}

// MARK: - Interactor

/// Why the feed could not be loaded.
struct FeedError: Error, Equatable {
    var attempt: Int
    var message: String { "The feed could not be loaded (HTTP 503, attempt \(attempt)). Check your connection and try again." }
}

/// What the interactor reports to the presenter.
protocol SceneInteractorOutput: AnyObject {
    func articlesLoaded(articles: [Article])
    func articlesFailed(error: FeedError)
}

/// Loads the feed asynchronously on the session's scheduler. Latency, the failure rate and the
/// generator deciding failures come from the app's parameters, so every run replays the same.
final class SceneInteractor: Interactor {
    weak var output: (any SceneInteractorOutput)?
    private let context: NavigationContext
    private let services: ArticlesServices
    private var isLoading = false
    /// How many loads were started.
    private(set) var attempts = 0

    init(context: NavigationContext, services: ArticlesServices) {
        self.context = context
        self.services = services
    }

    /// Starts a load unless one is under way; the outcome arrives after the configured latency.
    func loadArticles() {
        guard !isLoading else { return }
        isLoading = true
        attempts += 1
        let attempt = attempts
        let fails = services.nextLoadFails()
        context.schedule(after: services.latency) { [weak self] in
            guard let self else { return }
            isLoading = false
            if fails {
                output?.articlesFailed(error: FeedError(attempt: attempt))
            } else {
                output?.articlesLoaded(articles: services.catalog.articles)
            }
        }
    }

    func article(withID id: String) -> Article? {
        services.catalog.article(withID: id)
    }
}

// MARK: - Presenter

/// The scene's presenter: the model's output delegate and the interactor's output.
final class ScenePresenter: Presenter {
    /// Weak, as a VIPER presenter holds its view; the model holds the presenter.
    weak var model: (any SceneModelInput)?
    private let interactor: SceneInteractor
    private let router: SceneRouter

    init(context: NavigationContext, interactor: SceneInteractor, router: SceneRouter) {
        self.interactor = interactor
        self.router = router
        super.init(context: context)
    }
}

extension ScenePresenter: SceneModelOutput {
    func loadArticles() {
        model?.setErrorMessage(nil)
        model?.setArticlesState(state: .loading)
        model?.setSpinnerState(isSpin: true)
        interactor.loadArticles()
    }

    func didSelectArticle(id: String) throws {
        guard let article = interactor.article(withID: id) else { return }
        try router.showArticle(article)
    }

    func didTapBookmarks() throws {
        try router.showBookmarks()
    }
}

extension ScenePresenter: SceneInteractorOutput {
    func articlesLoaded(articles: [Article]) {
        let rows = articles.map { article in
            let author = interactor.authorName(of: article)
            return ArticleRow(id: article.id, title: article.title, detail: "\(author) · \(article.readingMinutes) min read")
        }
        model?.setArticles(articles: rows)
        model?.setArticlesState(state: rows.isEmpty ? .empty : .loaded)
        reportScreenReady(rows.isEmpty ? .empty : .loaded)
    }

    func articlesFailed(error: FeedError) {
        model?.setErrorMessage(error.message)
        model?.setArticlesState(state: .failed)
        reportScreenReady(.failed)
    }
}

extension SceneInteractor {
    func authorName(of article: Article) -> String {
        services.catalog.author(withID: article.authorID)?.name ?? "Unknown author"
    }
}

// MARK: - Router

/// Leaves the Articles scene: pushes an article's detail or the bookmarks.
final class SceneRouter: Router {
    private let services: ArticlesServices

    init(context: NavigationContext, stack: NavigationStack, services: ArticlesServices) {
        self.services = services
        super.init(context: context, stack: stack)
    }

    func showArticle(_ article: Article) throws {
        guard let stack else { return }
        try stack.push(ArticleDetailBuilder.make(article: article, owner: self, stack: stack, services: services))
        // `inject=double_push`: the selection is handled twice, and nothing checks that the
        // article is already on top.
        if services.injection == .doublePush {
            try stack.push(ArticleDetailBuilder.make(article: article, owner: self, stack: stack, services: services))
        }
    }

    func showBookmarks() throws {
        guard let stack else { return }
        try stack.push(BookmarksBuilder.make(owner: self, stack: stack, services: services))
    }
}
