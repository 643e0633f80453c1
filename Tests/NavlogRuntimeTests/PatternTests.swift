import Foundation
import NavlogEvents
import NavlogRuntime
import NavlogTesting
import XCTest

// MARK: - MVP, shaped like seed 000

private struct MasterViewModel: Codable, Equatable {
    var date: Date
    var taps: Int
}

private protocol MasterPresenting: AnyObject {
    var viewModel: MasterViewModel { get }
    func didTapDetail() throws
}

private final class MasterPresenter: ViewModelPresenter<MasterViewModel>, MasterPresenting {
    /// What the view's tap leads to; the coordinator fills it in, the view never sees it.
    var showDetail: () throws -> Void = {}

    func didTapDetail() throws {
        updateViewModel { $0.taps += 1 }
        try showDetail()
    }
}

private final class MasterView: ScreenView {
    let presenter: any MasterPresenting & ScreenBound
    init(presenter: any MasterPresenting & ScreenBound) { self.presenter = presenter }
    var boundObjects: [any ScreenBound] { [presenter] }
    func render() -> Element {
        .group([
            .text("taps: \(presenter.viewModel.taps)", id: "taps"),
            .button("detail", title: "Show detail"),
        ])
    }
    func handle(_ action: UserAction) throws {
        if action.element == "detail" { try presenter.didTapDetail() }
    }
}

private enum MasterFactory {
    static func make(with coordinator: MasterCoordinator) -> Screen {
        let presenter = MasterPresenter(context: coordinator.context, viewModel: MasterViewModel(date: Date(timeIntervalSince1970: 0), taps: 0))
        presenter.showDetail = { [unowned coordinator] in try coordinator.showDetail() }
        return Screen(name: "Master", view: MasterView(presenter: presenter), owner: coordinator, context: coordinator.context)
    }
}

private final class MasterCoordinator: Coordinator {
    let stack: NavigationStack
    let presentsModally: Bool

    init(context: NavigationContext, presentsModally: Bool) {
        self.stack = NavigationStack(context: context)
        self.presentsModally = presentsModally
        super.init(context: context)
    }

    override func didStart() throws {
        try stack.push(MasterFactory.make(with: self))
        try context.window.setRoot(stack, owner: self)
    }

    func showDetail() throws {
        let detail = DetailCoordinator(context: context, stack: stack, modally: presentsModally)
        try coordinate(to: detail)
    }
}

private final class DetailCoordinator: Coordinator {
    let stack: NavigationStack
    let modally: Bool
    init(context: NavigationContext, stack: NavigationStack, modally: Bool) {
        self.stack = stack
        self.modally = modally
        super.init(context: context)
    }
    override func didStart() throws {
        let screen = Screen(name: "Detail", view: ScriptedView(elements: [.text("Detail")]), owner: self, context: context)
        finishes(with: screen)
        if modally {
            try context.window.present(screen, style: .sheet, owner: self)
        } else {
            try stack.push(screen)
        }
    }
}

// MARK: - VIPER with a Model layer, shaped like seed 001

private struct ArticlesState: Codable, Equatable {
    enum Phase: String, Codable { case rest, loading, loaded, failed }
    var phase: Phase = .rest
    var articles: [String] = []
    var isSpinning = false
}

private final class SceneModel: ObservableModel<ArticlesState> {
    weak var output: ScenePresenter?
    func loadArticles() { output?.loadArticles() }
}

private final class ArticlesInteractor: Interactor {
    let context: NavigationContext
    weak var output: ScenePresenter?
    init(context: NavigationContext) { self.context = context }
    func loadArticles() {
        context.schedule(after: 300_000_000) { [weak self] in
            self?.output?.articlesLoaded(["Coordinators", "VIPER"])
        }
    }
}

private final class ScenePresenter: Presenter {
    let model: SceneModel
    let interactor: ArticlesInteractor
    init(context: NavigationContext, model: SceneModel, interactor: ArticlesInteractor) {
        self.model = model
        self.interactor = interactor
        super.init(context: context)
    }
    func loadArticles() {
        model.update { $0.phase = .loading; $0.isSpinning = true }
        interactor.loadArticles()
    }
    func articlesLoaded(_ articles: [String]) {
        model.update { $0.articles = articles; $0.phase = .loaded; $0.isSpinning = false }
    }
}

private final class SceneView: ScreenView {
    let model: SceneModel
    let presenter: ScenePresenter
    init(model: SceneModel, presenter: ScenePresenter) {
        self.model = model
        self.presenter = presenter
    }
    var boundObjects: [any ScreenBound] { [presenter, model] }
    func didAttach(to screen: Screen) { model.loadArticles() }  // onAppear
    func render() -> Element {
        .group([.spinner(isSpinning: model.state.isSpinning), .list("articles", items: model.state.articles.enumerated().map { .item("article-\($0.offset)", title: $0.element) })])
    }
    func handle(_ action: UserAction) throws {}
}

final class PatternTests: XCTestCase {
    func testViewActionReachesThePresenterAndTheCoordinatorChoosesPush() throws {
        let (context, sink) = makeContext()
        try context.launch(MasterCoordinator(context: context, presentsModally: false))
        sink.removeAll()
        try context.performAction(element: "detail")
        XCTAssertEqual(context.window.visibleScreen?.id, "Detail#1")
        assertEvents(sink, [
            "7 action Master#1 [Master#1] ←1",
            "8 viewmodel.change MasterPresenter#1 [Master#1] ←7",
            "9 coordinator.coordinate MasterCoordinator#1 ←7",
            "10 coordinator.start DetailCoordinator#1 ←9",
            "11 screen.push DetailCoordinator#1 [Detail#1] ←10",
            "12 screen.ready DetailCoordinator#1 [Detail#1] ←7",
        ])
        try context.window.userBack()
        assertEvents(sink, [
            "13 action Detail#1 [Detail#1] ←1",
            "14 screen.pop DetailCoordinator#1 [Detail#1] ←13",
            "15 coordinator.finish DetailCoordinator#1 ←14",
            "16 coordinator.deinit DetailCoordinator#1 ←14",
        ])
    }

    func testTheSameViewPresentsModallyWhenOnlyTheCoordinatorChanges() throws {
        let (context, sink) = makeContext()
        try context.launch(MasterCoordinator(context: context, presentsModally: true))
        sink.removeAll()
        try context.performAction(element: "detail")
        assertEvents(sink, [
            "7 action Master#1 [Master#1] ←1",
            "8 viewmodel.change MasterPresenter#1 [Master#1] ←7",
            "9 coordinator.coordinate MasterCoordinator#1 ←7",
            "10 coordinator.start DetailCoordinator#1 ←9",
            "11 screen.present DetailCoordinator#1 [Detail#1] ←10",
            "12 screen.ready DetailCoordinator#1 [Detail#1] ←7",
        ])
        try context.window.userSwipeDismiss()
        assertEvents(sink, [
            "13 action Detail#1 [Detail#1] ←1",
            "14 screen.dismiss DetailCoordinator#1 [Detail#1] ←13",
            "15 coordinator.finish DetailCoordinator#1 ←14",
            "16 coordinator.deinit DetailCoordinator#1 ←14",
        ])
    }

    func testPresenterInitCarriesTheInitialSnapshotAndChangesCarryADiff() throws {
        let (context, sink) = makeContext()
        try context.launch(MasterCoordinator(context: context, presentsModally: false))
        let initEvent = try XCTUnwrap(sink.events.first { $0.kind == .presenterInit })
        XCTAssertEqual(initEvent.payload["viewmodel"], "MasterViewModel")
        XCTAssertEqual(initEvent.payload["snapshot"]?["taps"], 0)
        let push = try XCTUnwrap(sink.events.first { $0.kind == .screenPush })
        XCTAssertEqual(push.payload["bound"], ["MasterPresenter#1"])

        try context.performAction(element: "detail")
        let change = try XCTUnwrap(sink.events.first { $0.kind == .viewModelChange })
        XCTAssertEqual(change.payload["changed"], ["taps"])
        XCTAssertEqual(change.payload["previous"], ["taps": 0])
        XCTAssertEqual(change.payload["snapshot"]?["taps"], 1)
        XCTAssertEqual(EventTextFormatter().diffLines(change.payload), ["- taps: 0", "+ taps: 1"])
    }

    func testSettingAnEqualViewModelRecordsNothing() throws {
        let (context, sink) = makeContext()
        let presenter = MasterPresenter(context: context, viewModel: MasterViewModel(date: Date(timeIntervalSince1970: 0), taps: 0))
        sink.removeAll()
        presenter.viewModel = MasterViewModel(date: Date(timeIntervalSince1970: 0), taps: 0)
        presenter.updateViewModel { $0.taps = 0 }
        XCTAssertTrue(sink.events.isEmpty)
        presenter.updateViewModel { $0.taps = 2 }
        presenter.updateViewModel { $0.taps = 3 }
        XCTAssertEqual(sink.events.map { $0.payload["snapshot"]?["taps"] }, [2, 3])
    }

    func testFieldsThatAppearOrDisappearAreChangedWithTheirPreviousValue() throws {
        struct Note: Codable, Equatable {
            var title: String
            var badge: Int?
            var draft: String?
        }
        let (context, sink) = makeContext()
        let presenter = ViewModelPresenter(context: context, viewModel: Note(title: "a", badge: nil, draft: "x"))
        sink.removeAll()
        // badge appears (encoded only when set), draft disappears, title stays.
        presenter.viewModel = Note(title: "a", badge: 3, draft: nil)
        // title changes, badge disappears.
        presenter.viewModel = Note(title: "b", badge: nil, draft: nil)
        let changes = sink.events.filter { $0.kind == .viewModelChange }
        XCTAssertEqual(changes.map { $0.payload["changed"] }, [["badge", "draft"], ["badge", "title"]])
        XCTAssertEqual(changes.map { $0.payload["previous"] }, [["badge": .null, "draft": "x"], ["badge": 3, "title": "a"]])
        XCTAssertEqual(changes.map { $0.payload["snapshot"] }, [["title": "a", "badge": 3], ["title": "b"]])
    }

    func testVIPERModelLayerRecordsEveryStateAndSpinnerChangeInOrder() throws {
        let (context, sink) = makeContext()
        let interactor = ArticlesInteractor(context: context)
        let model = SceneModel(context: context, state: ArticlesState())
        let presenter = ScenePresenter(context: context, model: model, interactor: interactor)
        model.output = presenter
        interactor.output = presenter
        let screen = Screen(name: "Articles", view: SceneView(model: model, presenter: presenter), owner: nil, context: context)
        try context.window.setRoot(screen)
        XCTAssertEqual(context.scheduler.pendingCount, 1)
        XCTAssertEqual(screen.render().element(withID: "articles")?.children?.count, 0)

        context.scheduler.advance(by: 299_000_000)
        XCTAssertEqual(model.state.phase, .loading)
        context.scheduler.advance(by: 1_000_000)
        XCTAssertEqual(model.state.phase, .loaded)
        XCTAssertEqual(screen.render().element(withID: "articles")?.children?.map(\.text), ["Coordinators", "VIPER"])

        let changes = sink.events.filter { $0.kind == .viewModelChange }
        XCTAssertEqual(changes.map(\.subject), ["SceneModel#1", "SceneModel#1"])
        XCTAssertEqual(changes.map { $0.payload["snapshot"]?["phase"] }, ["loading", "loaded"])
        XCTAssertEqual(changes.map { $0.payload["snapshot"]?["isSpinning"] }, [true, false])
        XCTAssertEqual(changes.map(\.screen), ["Articles#1", "Articles#1"])
        XCTAssertEqual(sink.events.first { $0.kind == .windowRoot }?.payload["bound"], ["ScenePresenter#1", "SceneModel#1"])
    }

    func testActionOnAnElementThatIsNotOnScreenIsRefused() throws {
        let (context, sink) = makeContext()
        try context.launch(MasterCoordinator(context: context, presentsModally: false))
        sink.removeAll()
        assertRefused("unknown_element", sink: sink) { try context.performAction(element: "delete") }
        assertRefused("element_not_actionable", sink: sink) { try context.performAction(element: "taps") }
        XCTAssertEqual(context.window.visibleScreen?.id, "Master#1")
        do {
            try context.performAction(element: "delete")
        } catch {
            XCTAssertEqual("\(error)", "no element 'delete' on screen Master#1; actionable elements: detail")
        }
    }

    func testTextFieldsNeedAValue() throws {
        let (context, sink) = makeContext()
        var entered: [String] = []
        let view = ScriptedView(elements: [.textField("query", placeholder: "Search", value: "")])
        view.handlers["query"] = { entered.append($0.value ?? "") }
        try context.window.setRoot(Screen(name: "Search", view: view, owner: nil, context: context))
        sink.removeAll()
        assertRefused("missing_value", sink: sink) { try context.performAction(element: "query") }
        try context.performAction(element: "query", value: "swift")
        XCTAssertEqual(entered, ["swift"])
        XCTAssertEqual(sink.events.last?.payload, ["element": "query", "role": "text_field", "value": "swift"])
    }

    func testElementTreePrintsAsText() {
        let tree = Element.group([
            .text("Articles"),
            .spinner(isSpinning: true),
            .list("articles", items: [.item("a-1", title: "Coordinators", detail: "Soroush")]),
            .toggle("dark", title: "Dark mode", isOn: false),
            .textField("q", placeholder: "Search", value: "vip"),
            .image("logo"),
        ])
        XCTAssertEqual(tree.textTree(), """
            group
              text "Articles"
              spinner (spinning)
              list [articles]
                item [a-1] "Coordinators" — Soroush
              toggle [dark] "Dark mode" off
              text_field [q] "Search" = "vip"
              image "logo"
            """)
        XCTAssertEqual(tree.actionableIDs, ["a-1", "dark", "q"])
    }

    func testElementsAreWrittenAsCompactJSONWithSortedSnakeCaseKeys() throws {
        let tree = Element.group([.button("go", title: "Go"), .toggle("t", title: "T", isOn: true)])
        var bytes: [UInt8] = []
        tree.write(to: &bytes)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self),
                       #"{"children":[{"id":"go","role":"button","text":"Go"},{"id":"t","is_on":true,"role":"toggle","text":"T"}],"role":"group"}"#)
    }
}
