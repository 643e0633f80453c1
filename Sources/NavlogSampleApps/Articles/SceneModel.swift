import NavlogRuntime

// Seed 001, "VIPER и SwiftUI: Model layer": a `SceneModel` sits between the presenter and the
// view. The presenter drives it through `SceneModelInput` and is its output delegate
// (`SceneModelOutput`); the view observes it and calls `loadArticles()` when it appears.

// MARK: - State

/// Where the articles are in their life: the seed's `State`, plus the outcomes it leaves out.
enum ArticlesState: String, Codable {
    case rest, loading, loaded, empty, failed
}

/// One row of the articles list, as the view shows it.
struct ArticleRow: Codable, Equatable, Identifiable {
    var id: String
    var title: String
    var detail: String
}

/// Everything the scene's view renders. Every change is a recorded view-model change.
struct SceneState: Codable, Equatable {
    var articlesState: ArticlesState = .rest
    var articles: [ArticleRow] = []
    var spinnerState = false
    var errorMessage: String?
}

// MARK: - Protocols

/// What the presenter can tell the model (the model is the presenter's "view").
protocol SceneModelInput: AnyObject {
    func setArticlesState(state: ArticlesState)
    func setArticles(articles: [ArticleRow])
    func setSpinnerState(isSpin: Bool)
    func setErrorMessage(_ message: String?)
}

/// What the model forwards to the presenter: the user's intents.
protocol SceneModelOutput: AnyObject {
    func loadArticles()
    func didSelectArticle(id: String) throws
    func didTapBookmarks() throws
}

// MARK: - Model

/// The Model layer: observable state for the view, a delegate for the presenter.
final class SceneModel: ObservableModel<SceneState> {
    /// The presenter, as the model's output delegate. The model keeps it alive, as the seed's
    /// `var output: SceneModelOutput!` does; the presenter holds the model weakly.
    var output: (any SceneModelOutput)?

    func loadArticles() {
        output?.loadArticles()
    }

    func selectArticle(id: String) throws {
        try output?.didSelectArticle(id: id)
    }

    func showBookmarks() throws {
        try output?.didTapBookmarks()
    }
}

extension SceneModel: SceneModelInput {
    /// Sets the articles state; once the load is over (loaded, empty or failed) the spinner
    /// stops, as the seed's `didSet` does.
    func setArticlesState(state articlesState: ArticlesState) {
        update { $0.articlesState = articlesState }
        if articlesState == .loaded || articlesState == .empty || articlesState == .failed {
            setSpinnerState(isSpin: false)
        }
    }

    func setArticles(articles: [ArticleRow]) {
        update { $0.articles = articles }
    }

    func setSpinnerState(isSpin: Bool) {
        update { $0.spinnerState = isSpin }
    }

    func setErrorMessage(_ message: String?) {
        update { $0.errorMessage = message }
    }
}

// MARK: - View

/// The scene's view: renders the model's state and sends intents to the model, never to the
/// presenter. It asks for the articles when it appears.
final class SceneView: ScreenView {
    private let model: SceneModel
    private let bound: [any ScreenBound]

    /// `bound` names everything serving this screen, for the record; the view uses only `model`.
    init(model: SceneModel, bound: [any ScreenBound]) {
        self.model = model
        self.bound = bound
    }

    var boundObjects: [any ScreenBound] { bound }

    /// The feed loads after the screen appears: the presenter reports when it is shown.
    var reportsReadiness: Bool { true }

    /// The seed's `.onAppear { output.loadArticles() }`: the feed loads when the screen first
    /// comes on top; coming back from a detail keeps what was loaded.
    func didAppear() {
        if model.state.articlesState == .rest { model.loadArticles() }
    }

    func render() -> Element {
        let state = model.state
        var children: [Element] = [
            .text("Articles", id: "title"),
            .spinner(isSpinning: state.spinnerState, id: "spinner"),
        ]
        switch state.articlesState {
        case .rest:
            break
        case .loading:
            children.append(.text("Loading articles…", id: "loading"))
        case .loaded:
            children.append(.list("articles", items: state.articles.map { .item("article-\($0.id)", title: $0.title, detail: $0.detail) }))
            children.append(.button("reload", title: "Reload"))
        case .empty:
            children.append(.text("No articles yet. New pieces are published every Monday.", id: "empty"))
            children.append(.button("reload", title: "Reload"))
        case .failed:
            children.append(.text(state.errorMessage ?? "Something went wrong.", id: "error"))
            children.append(.button("retry", title: "Try again"))
        }
        children.append(.button("open-bookmarks", title: "Bookmarks"))
        return .group(children)
    }

    func handle(_ action: UserAction) throws {
        switch action.element {
        case "reload", "retry": model.loadArticles()
        case "open-bookmarks": try model.showBookmarks()
        case let id where id.hasPrefix("article-"): try model.selectArticle(id: String(id.dropFirst("article-".count)))
        default: break
        }
    }
}
