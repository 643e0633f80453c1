import NavlogRuntime

extension SampleApps {
    /// `content-list`: a library of iOS guides in VIPER with a hosted view. The list's texts
    /// reach the view through a `DataSource`, its taps reach the presenter through a
    /// `ContentViewDelegate`, and its router pushes each guide's detail.
    public static let contentList = AppDefinition(
        name: "content-list",
        summary: "Seed 003: VIPER hosting a declarative view; presenter values bound into a DataSource, taps through a delegate, Router pushes detail",
        parameters: [
            .choice("dataset", ["full", "empty"], default: "full", summary: "The guides bundled: seven, or none yet"),
            .choice("category", GuideCategory.allCases.map(\.rawValue), default: GuideCategory.all.rawValue,
                    summary: "The category the list opens filtered to"),
            .string("query", default: "", summary: "The search text the list opens with"),
            .integer("latency_ms", in: 0...60_000, default: 0,
                     summary: "How long downloading the guides takes, in milliseconds; 0 lists the bundled ones at once",
                     isOmittedAtDefault: true),
            Injection.parameter(
                leak: "a guide's router holds the screen it routes from strongly, so the guide's presenter outlives its screen",
                doublePush: "selecting a guide in the list pushes its detail twice"
            ),
        ]
    ) { context, parameters in
        ContentListCoordinator(
            context: context,
            catalog: GuideCatalog(
                notes: GuideNotes(), guides: parameters.string("dataset") == "empty" ? [] : Guide.bundled,
                latency: parameters.nanoseconds(fromMilliseconds: "latency_ms")
            ),
            category: GuideCategory(rawValue: parameters.string("category")) ?? .all,
            query: parameters.string("query"),
            injection: parameters.injection
        )
    }
}

// MARK: - Entities

/// A guide's topic.
enum GuideCategory: String, Codable, CaseIterable, Sendable {
    case all, architecture, concurrency, testing, ui

    var title: String {
        switch self {
        case .all: "All"
        case .architecture: "Architecture"
        case .concurrency: "Concurrency"
        case .testing: "Testing"
        case .ui: "UI"
        }
    }
}

/// One guide of the library (a VIPER entity).
struct Guide: Entity {
    var id: String
    var title: String
    var summary: String
    var category: GuideCategory
    var minutes: Int

    static let bundled: [Guide] = [
        Guide(id: "coordinator-basics", title: "Coordinator basics",
              summary: "Move navigation out of view controllers and into objects that own a flow.", category: .architecture, minutes: 8),
        Guide(id: "viper-modules", title: "Building VIPER modules",
              summary: "View, interactor, presenter, entity and router, and who may call whom.", category: .architecture, minutes: 12),
        Guide(id: "hosting-swiftui", title: "Hosting SwiftUI in UIKit",
              summary: "Embed a declarative view with a hosting controller and keep routing in UIKit.", category: .ui, minutes: 7),
        Guide(id: "actors-and-isolation", title: "Actors and isolation",
              summary: "Protect mutable state with actors and understand what crosses an isolation boundary.", category: .concurrency, minutes: 10),
        Guide(id: "async-sequences", title: "AsyncSequence in practice",
              summary: "Stream values from notifications, sockets and timers without callbacks.", category: .concurrency, minutes: 9),
        Guide(id: "testing-presenters", title: "Testing presenters without UI",
              summary: "Drive a presenter with a fake view and assert what it asks for.", category: .testing, minutes: 6),
        Guide(id: "snapshot-testing", title: "Snapshot testing views",
              summary: "Record how a view renders and catch visual regressions in review.", category: .testing, minutes: 5),
    ]
}

/// The reader's notes, one per guide; shared by the app's modules.
final class GuideNotes {
    private(set) var notes: [String: String] = [:]

    func note(for guideID: String) -> String? { notes[guideID] }

    func setNote(_ text: String, for guideID: String) {
        notes[guideID] = text.isEmpty ? nil : text
    }
}

/// The bundled guides and the reader's notes on them.
struct GuideCatalog {
    let notes: GuideNotes
    let guides: [Guide]
    /// How long downloading the guides takes, in nanoseconds of the session's scheduler; 0
    /// when they are bundled and listed at once.
    var latency: UInt64 = 0

    func guide(withID id: String) -> Guide? { guides.first { $0.id == id } }

    /// The guide after `guide` in the same category, wrapping around; nil when it is alone.
    func related(to guide: Guide) -> Guide? {
        let peers = guides.filter { $0.category == guide.category }
        guard peers.count > 1, let index = peers.firstIndex(where: { $0.id == guide.id }) else { return nil }
        return peers[(index + 1) % peers.count]
    }
}

// MARK: - Coordinator

/// The app's root: a navigation stack holding the guides list in the window; transitions from
/// there belong to the VIPER routers.
final class ContentListCoordinator: Coordinator {
    private let catalog: GuideCatalog
    private let category: GuideCategory
    private let query: String
    private let injection: Injection
    let navigation: NavigationStack

    init(context: NavigationContext, catalog: GuideCatalog, category: GuideCategory, query: String, injection: Injection = .none) {
        self.catalog = catalog
        self.category = category
        self.query = query
        self.injection = injection
        self.navigation = NavigationStack(context: context, name: "ContentNavigation")
        super.init(context: context)
    }

    override func didStart() throws {
        try navigation.push(ContentListBuilder.make(
            context: context, stack: navigation, catalog: catalog, category: category, query: query, injection: injection
        ))
        try context.window.setRoot(navigation, owner: self)
    }
}
