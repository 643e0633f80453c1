import Foundation
import NavlogRuntime

// Seed 000, "MVP + Coordinators in SwiftUI" (Luis Ascorbe): an `AppCoordinator` owns the window
// and hands it to a `RootMasterCoordinator`; `MasterFactory.make(with:)` builds the Master screen
// (view + `MasterPresenter` + `MasterViewModel(date:)`); the navigation link is taken out of the
// view, so the coordinator alone decides whether Detail is pushed or presented modally.

extension SampleApps {
    /// `master-detail`: a day planner. Master shows a date; Detail shows that day's agenda, pushed
    /// or presented as a sheet depending only on `detail_style`.
    public static let masterDetail = AppDefinition(
        name: "master-detail",
        summary: "Seed 000: MVP + Coordinators. Master shows a date; Detail is pushed or presented modally by configuration alone",
        parameters: [
            .choice("detail_style", DetailStyle.allCases.map(\.rawValue), default: DetailStyle.push.rawValue,
                    summary: "How the coordinator shows Detail: push onto the stack, or present as a sheet"),
            .integer("now", in: 0...4_102_444_800, default: 1_796_119_200,
                     summary: "The date Master opens on, in seconds since 1970 (default 2026-12-01 10:00 UTC)"),
            Injection.parameter(
                leak: "Detail's coordinator is not told when its screen goes, so it stays among Master's children (seed 000's bug)",
                doublePush: "a tap on the date shows Detail twice"
            ),
        ]
    ) { context, parameters in
        AppCoordinator(
            context: context,
            window: context.window,
            detailStyle: DetailStyle(rawValue: parameters.string("detail_style")) ?? .push,
            now: Date(timeIntervalSince1970: TimeInterval(parameters.integer("now"))),
            injection: parameters.injection
        )
    }
}

/// How Detail is shown. Only the coordinator reads it; no view knows.
enum DetailStyle: String, CaseIterable, Sendable {
    case push
    case modal
}

// MARK: - AppCoordinator

/// The start of the app's navigation (the seed's `SceneDelegate` creates it with the window).
final class AppCoordinator: Coordinator {
    private weak var window: Window?
    private let detailStyle: DetailStyle
    private let now: Date
    private let injection: Injection

    init(context: NavigationContext, window: Window, detailStyle: DetailStyle, now: Date, injection: Injection = .none) {
        self.window = window
        self.detailStyle = detailStyle
        self.now = now
        self.injection = injection
        super.init(context: context)
    }

    override func didStart() throws {
        let coordinator = RootMasterCoordinator(context: context, window: window, detailStyle: detailStyle, now: now, injection: injection)
        try coordinate(to: coordinator)
    }
}

// MARK: - MasterCoordinator

/// What the Master screen's presenter may ask of its coordinator. The presenter says what the
/// user wants; the coordinator decides how it looks.
protocol MasterCoordinator: Coordinator {
    func showDetail(for date: Date) throws
    func showAbout() throws
}

/// Puts the Master screen, inside a navigation stack, at the window's root and shows Detail and
/// About from it.
final class RootMasterCoordinator: Coordinator, MasterCoordinator {
    private weak var window: Window?
    private let detailStyle: DetailStyle
    private let now: Date
    private let injection: Injection
    /// The seed's `NavigationView { view }`.
    let navigation: NavigationStack
    private weak var aboutScreen: Screen?

    init(context: NavigationContext, window: Window?, detailStyle: DetailStyle, now: Date, injection: Injection = .none) {
        self.window = window
        self.detailStyle = detailStyle
        self.now = now
        self.injection = injection
        self.navigation = NavigationStack(context: context, name: "MasterNavigation")
        super.init(context: context)
    }

    override func didStart() throws {
        let master = MasterFactory.make(with: self, date: now)
        try navigation.push(master)
        try window?.setRoot(navigation, owner: self)
    }

    /// Starts a Detail coordinator for `date`; it shows Detail the way `detail_style` says and is
    /// removed from ``children`` when its screen goes away.
    func showDetail(for date: Date) throws {
        try coordinate(to: makeDetailCoordinator(for: date))
        // `inject=double_push`: the tap is handled twice, and nothing checks that a Detail is
        // already on its way.
        if injection == .doublePush { try coordinate(to: makeDetailCoordinator(for: date)) }
    }

    private func makeDetailCoordinator(for date: Date) -> DetailCoordinator {
        DetailCoordinator(context: context, style: detailStyle, masterNavigation: navigation, date: date, injection: injection)
    }

    /// Pushes the About screen.
    func showAbout() throws {
        let screen = AboutFactory.make(with: self)
        aboutScreen = screen
        try navigation.push(screen)
    }

    /// Closes About, when it is on top.
    func closeAbout() throws {
        guard let aboutScreen, navigation.topScreen === aboutScreen else { return }
        try navigation.pop()
    }
}
