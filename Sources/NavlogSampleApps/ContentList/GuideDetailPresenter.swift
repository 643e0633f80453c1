import Foundation
import NavlogRuntime

// MARK: - Guide detail

/// Assembles a guide's detail module; `owner` is the router that pushes it.
enum GuideDetailBuilder {
    static func make(
        guide: Guide, owner: any ScreenOwner, stack: NavigationStack, catalog: GuideCatalog, injection: Injection = .none
    ) -> Screen {
        let router = GuideDetailRouter(context: stack.context, stack: stack, catalog: catalog, injection: injection)
        let presenter = GuideDetailPresenter(context: stack.context, guide: guide, router: router, catalog: catalog)
        let screen = Screen(name: "GuideDetail", view: GuideDetailView(presenter: presenter), owner: owner, context: stack.context)
        // `inject=leak`: the router keeps the screen it routes from strongly, as a VIPER router's
        // `var viewController` without `weak` does. Screen, view, presenter and router then keep
        // one another alive after the screen is popped.
        if injection == .leak { router.retainedScreen = screen }
        return screen
    }
}

/// What a guide's detail shows.
struct GuideDetailViewModel: Codable, Equatable {
    var title: String
    var summary: String
    var meta: String
    var isRead = false
    var relatedTitle: String?
}

/// Shows a guide; reading it, its notes and the next guide of its category are a tap away.
final class GuideDetailPresenter: ViewModelPresenter<GuideDetailViewModel> {
    private let guide: Guide
    private let router: GuideDetailRouter
    private let catalog: GuideCatalog

    init(context: NavigationContext, guide: Guide, router: GuideDetailRouter, catalog: GuideCatalog) {
        self.guide = guide
        self.router = router
        self.catalog = catalog
        super.init(context: context, viewModel: GuideDetailViewModel(
            title: guide.title, summary: guide.summary, meta: "\(guide.category.title) · \(guide.minutes) min read",
            relatedTitle: catalog.related(to: guide)?.title
        ))
    }

    func didSetRead(_ isRead: Bool) { updateViewModel { $0.isRead = isRead } }

    func didTapNotes() throws { try router.showNotes(for: guide) }

    func didTapRelated() throws {
        guard let related = catalog.related(to: guide) else { return }
        try router.showDetail(for: related)
    }
}

/// The guide, a read toggle, notes and the related guide.
final class GuideDetailView: ScreenView {
    private let presenter: GuideDetailPresenter

    init(presenter: GuideDetailPresenter) {
        self.presenter = presenter
    }

    var boundObjects: [any ScreenBound] { [presenter] }

    func render() -> Element {
        let model = presenter.viewModel
        var children: [Element] = [
            .text(model.title, id: "guide-title"),
            .text(model.meta, id: "guide-meta"),
            .text(model.summary, id: "guide-summary"),
            .toggle("toggle-read", title: "Mark as read", isOn: model.isRead),
            .button("open-notes", title: "My notes"),
        ]
        if let related = model.relatedTitle { children.append(.button("open-related", title: "Next: \(related)")) }
        return .group(children)
    }

    func handle(_ action: UserAction) throws {
        switch action.element {
        case "toggle-read": presenter.didSetRead(action.isOn(toggling: presenter.viewModel.isRead))
        case "open-notes": try presenter.didTapNotes()
        case "open-related": try presenter.didTapRelated()
        default: break
        }
    }
}

/// A guide's transitions: its notes and the next related guide, both pushed.
final class GuideDetailRouter: Router {
    private let catalog: GuideCatalog
    private let injection: Injection
    private weak var notesScreen: Screen?
    /// The screen this router leaves from, held strongly; only `inject=leak` sets it.
    var retainedScreen: Screen?

    init(context: NavigationContext, stack: NavigationStack, catalog: GuideCatalog, injection: Injection = .none) {
        self.catalog = catalog
        self.injection = injection
        super.init(context: context, stack: stack)
    }

    func showDetail(for guide: Guide) throws {
        guard let stack else { return }
        try stack.push(GuideDetailBuilder.make(guide: guide, owner: self, stack: stack, catalog: catalog, injection: injection))
    }

    func showNotes(for guide: Guide) throws {
        guard let stack else { return }
        let presenter = GuideNotesPresenter(context: context, guide: guide, notes: catalog.notes, router: self)
        let screen = Screen(name: "GuideNotes", view: GuideNotesView(presenter: presenter), owner: self, context: context)
        notesScreen = screen
        try stack.push(screen)
    }

    /// Pops the notes screen when it is on top.
    func closeNotes() throws {
        guard let stack, let notesScreen, stack.topScreen === notesScreen else { return }
        try stack.pop()
    }
}

// MARK: - Notes

/// What the notes editor shows.
struct GuideNotesViewModel: Codable, Equatable {
    var guideTitle: String
    var text: String
    var isSaved: Bool
}

/// Edits the reader's note on one guide and saves it into the shared notes.
final class GuideNotesPresenter: ViewModelPresenter<GuideNotesViewModel> {
    private let guide: Guide
    private let notes: GuideNotes
    private weak var router: GuideDetailRouter?

    init(context: NavigationContext, guide: Guide, notes: GuideNotes, router: GuideDetailRouter) {
        self.guide = guide
        self.notes = notes
        self.router = router
        let saved = notes.note(for: guide.id)
        super.init(context: context, viewModel: GuideNotesViewModel(guideTitle: guide.title, text: saved ?? "", isSaved: saved != nil))
    }

    func didEnterText(_ text: String) {
        updateViewModel {
            $0.text = text
            $0.isSaved = false
        }
    }

    func didTapSave() throws {
        notes.setNote(viewModel.text.trimmingCharacters(in: .whitespacesAndNewlines), for: guide.id)
        updateViewModel { $0.isSaved = true }
        try router?.closeNotes()
    }
}

/// A note field and a save button.
final class GuideNotesView: ScreenView {
    private let presenter: GuideNotesPresenter

    init(presenter: GuideNotesPresenter) {
        self.presenter = presenter
    }

    var boundObjects: [any ScreenBound] { [presenter] }

    func render() -> Element {
        let model = presenter.viewModel
        return .group([
            .text("Notes on \(model.guideTitle)", id: "notes-title"),
            .textField("note-text", placeholder: "What do you want to remember?", value: model.text),
            .button("save-note", title: model.isSaved ? "Saved" : "Save"),
        ])
    }

    func handle(_ action: UserAction) throws {
        switch action.element {
        case "note-text": presenter.didEnterText(action.value ?? "")
        case "save-note": try presenter.didTapSave()
        default: break
        }
    }
}
