import NavlogRuntime

// MARK: - Entities

/// An article of the feed (a VIPER entity).
struct Article: Entity, Identifiable {
    /// A stable slug, such as `swift-concurrency`; element ids are built from it.
    var id: String
    var title: String
    var summary: String
    var body: String
    var authorID: String
    var readingMinutes: Int
}

/// The person who wrote articles (a VIPER entity).
struct Author: Entity, Identifiable {
    var id: String
    var name: String
    var role: String
    var bio: String
}

// MARK: - Catalog

/// The bundled feed: what the interactor "downloads". `empty` stands for a feed with nothing
/// published yet.
struct ArticleCatalog {
    var articles: [Article]
    var authors: [Author]

    func article(withID id: String) -> Article? { articles.first { $0.id == id } }
    func author(withID id: String) -> Author? { authors.first { $0.id == id } }
    func articles(by authorID: String) -> [Article] { articles.filter { $0.authorID == authorID } }

    static let empty = ArticleCatalog(articles: [], authors: [])

    static let bundled = ArticleCatalog(
        articles: [
            Article(
                id: "swift-concurrency",
                title: "Swift Concurrency Without the Headaches",
                summary: "Actors, isolation and where your navigation code should run.",
                body: "Strict concurrency turns data races into compile errors. Keep navigation state on the main actor, move loading into isolated services, and let the compiler prove the rest. Most warnings disappear once ownership is explicit.",
                authorID: "marta-ruiz", readingMinutes: 9
            ),
            Article(
                id: "coordinators-in-practice",
                title: "Coordinators in Practice",
                summary: "Taking navigation out of view controllers, one flow at a time.",
                body: "A coordinator owns a flow, not a screen. Start it, let it push what it needs, and have it tell its parent when it is done. The hard part is the back button: make sure the coordinator hears about it, or it will live forever.",
                authorID: "daniel-okafor", readingMinutes: 7
            ),
            Article(
                id: "viper-model-layer",
                title: "VIPER and SwiftUI: a Model Layer",
                summary: "A reactive layer between presenter and view keeps VIPER honest.",
                body: "SwiftUI wants observable state; VIPER wants delegates. A small Model layer speaks both: the presenter sets its state through an input protocol, the view observes it, and user intents flow back through the model's output.",
                authorID: "irina-volkova", readingMinutes: 6
            ),
            Article(
                id: "testing-navigation",
                title: "Testing Navigation Headlessly",
                summary: "Record every push and pop, then assert the sequence.",
                body: "If navigation is a sequence of events, a test is a script and an expected log. Run the flow without a simulator, compare the recorded steps, and a regression shows up as a two-line diff in CI.",
                authorID: "daniel-okafor", readingMinutes: 5
            ),
            Article(
                id: "modular-features",
                title: "Feature Modules That Scale",
                summary: "Builders, routers and the boundaries between teams.",
                body: "Give each feature a builder that assembles it and a router that leaves it. Teams then own modules end to end, and the app target shrinks to wiring. Dependency injection stops being a framework and becomes an initializer.",
                authorID: "marta-ruiz", readingMinutes: 8
            ),
        ],
        authors: [
            Author(id: "marta-ruiz", name: "Marta Ruiz", role: "Staff iOS engineer",
                   bio: "Marta leads the platform team and has migrated two large apps to strict concurrency."),
            Author(id: "daniel-okafor", name: "Daniel Okafor", role: "iOS architect",
                   bio: "Daniel writes about coordinators, testing and keeping view controllers small."),
            Author(id: "irina-volkova", name: "Irina Volkova", role: "Senior iOS developer",
                   bio: "Irina brought VIPER to SwiftUI at her company and wrote about the Model layer."),
        ]
    )
}

// MARK: - Bookmarks

/// The reader's bookmarks, shared by the app's modules. Observers are held weakly through
/// their tokens' owners, so a presenter that goes away stops hearing.
final class BookmarkStore {
    private(set) var articleIDs: [String] = []
    private var observers: [(owner: Weak, notify: () -> Void)] = []

    private struct Weak {
        weak var object: AnyObject?
    }

    func contains(_ articleID: String) -> Bool { articleIDs.contains(articleID) }

    /// Adds or removes `articleID` and tells the live observers.
    func set(_ articleID: String, isBookmarked: Bool) {
        guard isBookmarked != contains(articleID) else { return }
        if isBookmarked { articleIDs.append(articleID) } else { articleIDs.removeAll { $0 == articleID } }
        observers.removeAll { $0.owner.object == nil }
        for observer in observers { observer.notify() }
    }

    /// Calls `notify` after each change, for as long as `owner` lives.
    func observe(by owner: AnyObject, _ notify: @escaping () -> Void) {
        observers.append((Weak(object: owner), notify))
    }
}
