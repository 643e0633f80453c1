import NavlogEvents
import NavlogRuntime

extension SampleApps {
    /// `articles`: a reading app in VIPER with a Model layer. The Articles scene loads the feed
    /// asynchronously; selecting an article routes to its detail, then to its author.
    public static let articles = AppDefinition(
        name: "articles",
        summary: "Seed 001: VIPER with a SceneModel layer. The feed loads asynchronously (rest, loading, loaded, empty or failed) and routes to details",
        parameters: [
            .integer("latency_ms", in: 0...60_000, default: 300, summary: "How long loading the feed takes, in milliseconds"),
            .number("failure_rate", in: 0...1, default: 0, summary: "The share of feed loads that fail, from 0 (never) to 1 (always)"),
            .integer("seed", in: 0...Int64.max, default: 1, summary: "Seeds the generator that decides which loads fail"),
            .choice("dataset", ["full", "empty"], default: "full", summary: "The feed served: five articles, or none yet"),
            Injection.parameter(
                leak: "an article's presenter observes the bookmarks with a strong capture of itself, so it outlives its screen",
                doublePush: "selecting an article in the feed pushes its detail twice"
            ),
        ]
    ) { context, parameters in
        ArticlesCoordinator(
            context: context,
            services: ArticlesServices(
                catalog: parameters.string("dataset") == "empty" ? .empty : .bundled,
                latency: parameters.nanoseconds(fromMilliseconds: "latency_ms"),
                failureRate: parameters.number("failure_rate"),
                seed: UInt64(parameters.integer("seed")),
                injection: parameters.injection
            )
        )
    }
}

/// What the app's modules share: the feed, the bookmarks and the simulated network.
final class ArticlesServices {
    let catalog: ArticleCatalog
    let bookmarks = BookmarkStore()
    /// How long a load takes, in nanoseconds of the session's scheduler.
    let latency: UInt64
    private let failureRate: Double
    private var generator: SplitMix64
    /// The bug the modules are built with (`inject`).
    let injection: Injection

    init(catalog: ArticleCatalog, latency: UInt64, failureRate: Double, seed: UInt64, injection: Injection = .none) {
        self.catalog = catalog
        self.latency = latency
        self.failureRate = failureRate
        self.generator = SplitMix64(seed: seed)
        self.injection = injection
    }

    /// Draws whether the next load fails; one draw per load, so a seed fixes the outcomes.
    func nextLoadFails() -> Bool {
        generator.nextUnit() < failureRate
    }
}

/// The app's root: puts a navigation stack holding the Articles scene in the window. Every
/// transition after that belongs to the VIPER routers.
final class ArticlesCoordinator: Coordinator {
    private let services: ArticlesServices
    let navigation: NavigationStack

    init(context: NavigationContext, services: ArticlesServices) {
        self.services = services
        self.navigation = NavigationStack(context: context, name: "ArticlesNavigation")
        super.init(context: context)
    }

    override func didStart() throws {
        try navigation.push(SceneBuilder.make(context: context, stack: navigation, services: services))
        try context.window.setRoot(navigation, owner: self)
    }
}
