import NavlogRuntime

// MARK: - Builder

/// Assembles an article's detail module. `owner` is the router that shows it and hears when it
/// leaves.
enum ArticleDetailBuilder {
    static func make(article: Article, owner: any ScreenOwner, stack: NavigationStack, services: ArticlesServices) -> Screen {
        let context = stack.context
        let router = ArticleDetailRouter(context: context, stack: stack, services: services)
        let presenter = ArticleDetailPresenter(context: context, article: article, router: router, services: services)
        return Screen(name: "ArticleDetail", view: ArticleDetailView(presenter: presenter), owner: owner, context: context)
    }
}

// MARK: - View model

/// What an article's detail shows.
struct ArticleDetailViewModel: Codable, Equatable {
    var articleID: String
    var title: String
    var byline: String
    var body: String
    var isBookmarked: Bool
}

// MARK: - Presenter

/// Shows one article and keeps its bookmark in step with the shared store.
final class ArticleDetailPresenter: ViewModelPresenter<ArticleDetailViewModel> {
    private let article: Article
    private let router: ArticleDetailRouter
    private let services: ArticlesServices

    init(context: NavigationContext, article: Article, router: ArticleDetailRouter, services: ArticlesServices) {
        self.article = article
        self.router = router
        self.services = services
        let author = services.catalog.author(withID: article.authorID)?.name ?? "Unknown author"
        super.init(context: context, viewModel: ArticleDetailViewModel(
            articleID: article.id, title: article.title,
            byline: "By \(author) · \(article.readingMinutes) min read",
            body: article.body, isBookmarked: services.bookmarks.contains(article.id)
        ))
        if services.injection == .leak {
            // `inject=leak`: the observer captures the presenter strongly. The shared store keeps
            // the closure, the closure keeps the presenter, and the presenter keeps the services
            // that hold the store: it outlives its screen and goes on changing its view model.
            services.bookmarks.observe(by: self) { self.bookmarksDidChange() }
        } else {
            services.bookmarks.observe(by: self) { [weak self] in self?.bookmarksDidChange() }
        }
    }

    func didSetBookmarked(_ isBookmarked: Bool) {
        services.bookmarks.set(article.id, isBookmarked: isBookmarked)
    }

    func didTapAuthor() throws {
        guard let author = services.catalog.author(withID: article.authorID) else { return }
        try router.showAuthor(author)
    }

    private func bookmarksDidChange() {
        updateViewModel { $0.isBookmarked = services.bookmarks.contains(article.id) }
    }
}

// MARK: - View

/// Title, byline, body, a bookmark toggle and the way to the author.
final class ArticleDetailView: ScreenView {
    private let presenter: ArticleDetailPresenter

    init(presenter: ArticleDetailPresenter) {
        self.presenter = presenter
    }

    var boundObjects: [any ScreenBound] { [presenter] }

    func render() -> Element {
        let model = presenter.viewModel
        return .group([
            .text(model.title, id: "article-title"),
            .text(model.byline, id: "byline"),
            .text(model.body, id: "body"),
            .toggle("toggle-bookmark", title: "Bookmark", isOn: model.isBookmarked),
            .button("open-author", title: "About the author"),
        ])
    }

    func handle(_ action: UserAction) throws {
        switch action.element {
        case "toggle-bookmark":
            presenter.didSetBookmarked(action.isOn(toggling: presenter.viewModel.isBookmarked))
        case "open-author":
            try presenter.didTapAuthor()
        default:
            break
        }
    }
}

// MARK: - Router

/// Leaves an article's detail for its author's page.
final class ArticleDetailRouter: Router {
    private let services: ArticlesServices

    init(context: NavigationContext, stack: NavigationStack, services: ArticlesServices) {
        self.services = services
        super.init(context: context, stack: stack)
    }

    func showAuthor(_ author: Author) throws {
        guard let stack else { return }
        try stack.push(AuthorBuilder.make(author: author, owner: self, stack: stack, services: services))
    }
}
