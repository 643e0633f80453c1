import NavlogRuntime

// MARK: - Author module

/// Assembles an author's page.
enum AuthorBuilder {
    static func make(author: Author, owner: any ScreenOwner, stack: NavigationStack, services: ArticlesServices) -> Screen {
        let context = stack.context
        let router = ArticleListRouter(context: context, stack: stack, services: services)
        let presenter = AuthorPresenter(context: context, author: author, router: router, services: services)
        return Screen(name: "Author", view: AuthorView(presenter: presenter), owner: owner, context: context)
    }
}

/// What an author's page shows.
struct AuthorViewModel: Codable, Equatable {
    var name: String
    var role: String
    var bio: String
    var articles: [ArticleRow]
}

/// Shows an author and their articles; selecting one routes to its detail.
final class AuthorPresenter: ViewModelPresenter<AuthorViewModel> {
    private let router: ArticleListRouter
    private let services: ArticlesServices

    init(context: NavigationContext, author: Author, router: ArticleListRouter, services: ArticlesServices) {
        self.router = router
        self.services = services
        let rows = services.catalog.articles(by: author.id).map {
            ArticleRow(id: $0.id, title: $0.title, detail: $0.summary)
        }
        super.init(context: context, viewModel: AuthorViewModel(name: author.name, role: author.role, bio: author.bio, articles: rows))
    }

    func didSelectArticle(id: String) throws {
        guard let article = services.catalog.article(withID: id) else { return }
        try router.showArticle(article)
    }
}

/// The author's name, role, bio and articles.
final class AuthorView: ScreenView {
    private let presenter: AuthorPresenter

    init(presenter: AuthorPresenter) {
        self.presenter = presenter
    }

    var boundObjects: [any ScreenBound] { [presenter] }

    func render() -> Element {
        let model = presenter.viewModel
        return .group([
            .text(model.name, id: "author-name"),
            .text(model.role, id: "author-role"),
            .text(model.bio, id: "author-bio"),
            .list("author-articles", items: model.articles.map { .item("article-\($0.id)", title: $0.title, detail: $0.detail) }),
        ])
    }

    func handle(_ action: UserAction) throws {
        if action.element.hasPrefix("article-") {
            try presenter.didSelectArticle(id: String(action.element.dropFirst("article-".count)))
        }
    }
}

// MARK: - Bookmarks module

/// Assembles the bookmarks list.
enum BookmarksBuilder {
    static func make(owner: any ScreenOwner, stack: NavigationStack, services: ArticlesServices) -> Screen {
        let context = stack.context
        let router = ArticleListRouter(context: context, stack: stack, services: services)
        let presenter = BookmarksPresenter(context: context, router: router, services: services)
        return Screen(name: "Bookmarks", view: BookmarksView(presenter: presenter), owner: owner, context: context)
    }
}

/// What the bookmarks list shows; empty until the reader bookmarks something.
struct BookmarksViewModel: Codable, Equatable {
    var articles: [ArticleRow]
}

/// Lists the bookmarked articles and follows the shared store while it lives.
final class BookmarksPresenter: ViewModelPresenter<BookmarksViewModel> {
    private let router: ArticleListRouter
    private let services: ArticlesServices

    init(context: NavigationContext, router: ArticleListRouter, services: ArticlesServices) {
        self.router = router
        self.services = services
        super.init(context: context, viewModel: BookmarksViewModel(articles: Self.rows(services)))
        services.bookmarks.observe(by: self) { [weak self] in self?.bookmarksDidChange() }
    }

    func didSelectArticle(id: String) throws {
        guard let article = services.catalog.article(withID: id) else { return }
        try router.showArticle(article)
    }

    private func bookmarksDidChange() {
        viewModel = BookmarksViewModel(articles: Self.rows(services))
    }

    private static func rows(_ services: ArticlesServices) -> [ArticleRow] {
        services.bookmarks.articleIDs.compactMap(services.catalog.article(withID:)).map {
            ArticleRow(id: $0.id, title: $0.title, detail: "\($0.readingMinutes) min read")
        }
    }
}

/// The bookmarked articles, or an empty state saying how to add one.
final class BookmarksView: ScreenView {
    private let presenter: BookmarksPresenter

    init(presenter: BookmarksPresenter) {
        self.presenter = presenter
    }

    var boundObjects: [any ScreenBound] { [presenter] }

    func render() -> Element {
        let rows = presenter.viewModel.articles
        guard !rows.isEmpty else {
            return .group([
                .text("Bookmarks", id: "title"),
                .text("No bookmarks yet. Turn on “Bookmark” on an article to keep it here.", id: "bookmarks-empty"),
            ])
        }
        return .group([
            .text("Bookmarks", id: "title"),
            .list("bookmarks", items: rows.map { .item("article-\($0.id)", title: $0.title, detail: $0.detail) }),
        ])
    }

    func handle(_ action: UserAction) throws {
        if action.element.hasPrefix("article-") {
            try presenter.didSelectArticle(id: String(action.element.dropFirst("article-".count)))
        }
    }
}

// MARK: - Router

/// Leaves a list of articles (an author's, the bookmarks) for one article's detail.
final class ArticleListRouter: Router {
    private let services: ArticlesServices

    init(context: NavigationContext, stack: NavigationStack, services: ArticlesServices) {
        self.services = services
        super.init(context: context, stack: stack)
    }

    func showArticle(_ article: Article) throws {
        guard let stack else { return }
        try stack.push(ArticleDetailBuilder.make(article: article, owner: self, stack: stack, services: services))
    }
}
