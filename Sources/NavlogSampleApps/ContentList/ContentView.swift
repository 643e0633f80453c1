import NavlogRuntime

// Seed 003, "[SwiftUI] VIPER実装を参考にしたい": the screen stays a view controller that hosts a
// declarative `ContentView`. The presenter's values are assigned into the content view's
// `DataSource` (the view never sees the presenter), and the content view sends its events
// back through a `ContentViewDelegate` the view controller implements.

// MARK: - Content view

/// One line of the list, as the content view shows it.
struct ContentText: Codable, Equatable {
    var id: String
    var text: String
    var detail: String
}

/// What the delegate of the content view hears: taps and typing, nothing more.
protocol ContentViewDelegate: AnyObject {
    func contentView(didSelectItemWithID id: String) throws
    func contentView(didChangeQuery query: String)
    func contentViewDidTapClearSearch()
    func contentViewDidTapFilter() throws
}

/// The hosted declarative view (the seed's SwiftUI `ContentView`). It renders its data source
/// and reports events to its delegate; it knows no presenter, router or screen.
final class ContentView {
    /// The values the list shows (the seed's `DataSource` with `@Published var texts`).
    struct Content: Codable, Equatable {
        var texts: [ContentText]
        var query: String
        var filterTitle: String
        var emptyMessage: String?
    }

    typealias DataSource = NavlogRuntime.DataSource<Content>

    let dataSource: DataSource
    weak var delegate: (any ContentViewDelegate)?

    init(dataSource: DataSource) {
        self.dataSource = dataSource
    }

    /// The view's body, from the data source alone.
    var body: Element {
        let content = dataSource.state
        var children: [Element] = [
            .textField("search", placeholder: "Search guides", value: content.query),
            .button("open-filter", title: "Filter: \(content.filterTitle)"),
        ]
        if let message = content.emptyMessage {
            children.append(.text(message, id: "empty"))
            if !content.query.isEmpty { children.append(.button("clear-search", title: "Clear search")) }
        } else {
            children.append(.list("guides", items: content.texts.map { .item("guide-\($0.id)", title: $0.text, detail: $0.detail) }))
        }
        return .group(children)
    }

    /// The tap handlers of the body's elements.
    func send(_ action: UserAction) throws {
        switch action.element {
        case "search": delegate?.contentView(didChangeQuery: action.value ?? "")
        case "open-filter": try delegate?.contentViewDidTapFilter()
        case "clear-search": delegate?.contentViewDidTapClearSearch()
        case let id where id.hasPrefix("guide-"): try delegate?.contentView(didSelectItemWithID: String(id.dropFirst("guide-".count)))
        default: break
        }
    }
}

// MARK: - View controller

/// The screen's view controller: hosts the content view, binds the presenter's values into its
/// data source and forwards the content view's events to the presenter.
final class ContentListViewController: ScreenView, ContentViewDelegate {
    private let presenter: ContentListPresenter
    private let contentView: ContentView

    init(presenter: ContentListPresenter) {
        self.presenter = presenter
        let dataSource = ContentView.DataSource(context: presenter.context, state: Self.content(from: presenter.viewModel))
        contentView = ContentView(dataSource: dataSource)
        contentView.delegate = self
        // The seed's `presenter.$texts.assign(to: \.dataSource.texts, on: self)`.
        presenter.observe { [weak dataSource] viewModel in
            dataSource?.state = Self.content(from: viewModel)
        }
    }

    var boundObjects: [any ScreenBound] { [presenter, contentView.dataSource] }

    /// Downloaded guides arrive after the screen shows: the presenter reports when.
    var reportsReadiness: Bool { presenter.loadsAsynchronously }

    func render() -> Element { contentView.body }

    func handle(_ action: UserAction) throws { try contentView.send(action) }

    private static func content(from viewModel: ContentListViewModel) -> ContentView.Content {
        ContentView.Content(
            texts: viewModel.guides.map { ContentText(id: $0.id, text: $0.title, detail: "\($0.category.title) · \($0.minutes) min") },
            query: viewModel.query, filterTitle: viewModel.category.title, emptyMessage: viewModel.emptyMessage
        )
    }

    // MARK: - ContentViewDelegate

    func contentView(didSelectItemWithID id: String) throws { try presenter.didSelectGuide(id: id) }

    func contentView(didChangeQuery query: String) { presenter.didChangeQuery(query) }

    func contentViewDidTapClearSearch() { presenter.didChangeQuery("") }

    func contentViewDidTapFilter() throws { try presenter.didTapFilter() }
}

// MARK: - Category filter

/// Builds the category filter sheet.
enum CategoryFilterBuilder {
    static func make(
        selected: GuideCategory, owner: ContentListRouter, context: NavigationContext,
        onSelect: @escaping (GuideCategory) throws -> Void
    ) -> Screen {
        let view = CategoryFilterView(selected: selected)
        view.tapHandler = onSelect
        view.closeHandler = { [weak owner] in try owner?.dismissFilter() }
        return Screen(name: "CategoryFilter", view: view, owner: owner, context: context)
    }
}

/// A sheet of categories. It has nothing to present, so it reports taps through handlers (the
/// seed's `var tapHandler: (() -> Void)?`) rather than through a presenter.
final class CategoryFilterView: ScreenView {
    private let selected: GuideCategory
    var tapHandler: ((GuideCategory) throws -> Void)?
    var closeHandler: (() throws -> Void)?

    init(selected: GuideCategory) {
        self.selected = selected
    }

    func render() -> Element {
        .group([
            .text("Show guides about", id: "filter-title"),
            .list("categories", items: GuideCategory.allCases.map {
                .item("category-\($0.rawValue)", title: $0.title, detail: $0 == selected ? "selected" : nil)
            }),
            .button("close-filter", title: "Cancel"),
        ])
    }

    func handle(_ action: UserAction) throws {
        if action.element == "close-filter" {
            try closeHandler?()
        } else if let category = GuideCategory(rawValue: String(action.element.dropFirst("category-".count))) {
            try tapHandler?(category)
        }
    }
}
