import NavlogRuntime
import NavlogTesting
import XCTest

/// A tab app that resolves `app://settings/privacy/advanced` style links.
private final class LinkingCoordinator: Coordinator, DeepLinkHandling {
    var tabs: TabContainer!

    override func didStart() throws {
        let home = NavigationStack(context: context, name: "HomeStack")
        let settings = NavigationStack(context: context, name: "SettingsStack")
        try home.push(Screen(name: "Home", view: ScriptedView(), owner: self, context: context))
        try settings.push(Screen(name: "Settings", view: ScriptedView(), owner: self, context: context))
        tabs = TabContainer(context: context, tabs: [.init(title: "Home", stack: home), .init(title: "Settings", stack: settings)], owner: self)
        try context.window.setRoot(tabs, owner: self)
    }

    func steps(for url: String) throws -> [NavigationStep] {
        guard url.hasPrefix("app://") else { throw DeepLinkUnreachable("unsupported scheme in \(url)") }
        let parts = url.dropFirst("app://".count).split(separator: "/").map(String.init)
        guard let tab = parts.first else { throw DeepLinkUnreachable("no tab in \(url)") }
        var steps: [NavigationStep] = [.dismissAll(in: context.window), .selectTab(tab, in: tabs)]
        if let stack = tabs.tabs.first(where: { $0.title.lowercased() == tab.lowercased() })?.stack {
            steps.append(.popToRoot(stack))
            for name in parts.dropFirst() {
                steps.append(.push(name, on: stack) { [unowned self] in
                    Screen(name: name.capitalized, view: ScriptedView(), owner: self, context: self.context)
                })
            }
        }
        return steps
    }
}

final class DeepLinkTests: XCTestCase {
    func testMultiStepDeepLinkIsOneCauseWithItsSteps() throws {
        let (context, sink) = makeContext()
        let app = LinkingCoordinator(context: context)
        try context.launch(app)
        sink.removeAll()

        try context.openDeepLink("app://settings/privacy/advanced", with: app)
        XCTAssertEqual(context.window.visibleScreen?.id, "Advanced#1")
        XCTAssertEqual(app.tabs.tabs[1].stack.screens.map(\.id), ["Settings#1", "Privacy#1", "Advanced#1"])
        let link = try XCTUnwrap(sink.events.first)
        XCTAssertEqual(link.payload["steps"], [
            "dismiss all modals", "select tab settings", "pop SettingsStack#1 to root", "push privacy", "push advanced",
        ])
        // Only Advanced is ready: the link passes through Settings and Privacy, which the user
        // never sees (one intent, one transition), so their first display is still to come.
        assertEvents(sink, [
            "7 deeplink LinkingCoordinator#1 [Home#1] ←1",
            "8 tab.select LinkingCoordinator#1 [Settings#1] ←7",
            "9 screen.push LinkingCoordinator#1 [Privacy#1] ←7",
            "10 screen.push LinkingCoordinator#1 [Advanced#1] ←7",
            "11 screen.ready LinkingCoordinator#1 [Advanced#1] ←7",
        ])

        // Following a second link first unwinds the stack, under the second link's cause.
        try context.openDeepLink("app://settings/about", with: app)
        assertEvents(sink, [
            "12 deeplink LinkingCoordinator#1 [Advanced#1] ←1",
            "13 screen.pop LinkingCoordinator#1 [Advanced#1] ←12",
            "14 screen.pop LinkingCoordinator#1 [Privacy#1] ←12",
            "15 screen.push LinkingCoordinator#1 [About#1] ←12",
            "16 screen.ready LinkingCoordinator#1 [About#1] ←12",
        ])
    }

    func testUnreachableDeepLinkIsReportedBeforeAnythingMoves() throws {
        let (context, sink) = makeContext()
        let app = LinkingCoordinator(context: context)
        try context.launch(app)
        try context.window.present(Screen(name: "Sheet", view: ScriptedView(), owner: app, context: context), owner: app)
        sink.removeAll()

        // The first step (dismiss) would move, but the tab check fails first: nothing moves.
        XCTAssertThrowsError(try context.openDeepLink("app://profile/edit", with: app)) { error in
            XCTAssertEqual(
                "\(error)",
                "deep link app://profile/edit cannot be reached: step 2 (select tab profile): no tab 'profile' in TabContainer#1; tabs: Home, Settings"
            )
        }
        XCTAssertEqual(context.window.visibleScreen?.id, "Sheet#1")
        assertEvents(sink, [
            "9 deeplink LinkingCoordinator#1 [Sheet#1] ←1",
            "10 error LinkingCoordinator#1 ←9",
        ])
    }

    func testALinkTheResolverRejectsIsRecordedWithTheReason() throws {
        let (context, sink) = makeContext()
        let app = LinkingCoordinator(context: context)
        try context.launch(app)
        sink.removeAll()
        XCTAssertThrowsError(try context.openDeepLink("https://example.com", with: app))
        XCTAssertEqual(sink.events.map(\.kind), [.deepLink, .error])
        XCTAssertEqual(sink.events.last?.cause, sink.events.first?.sessionSeq)
        XCTAssertEqual(sink.events.last?.payload["message"], "deep link https://example.com cannot be reached: unsupported scheme in https://example.com")
    }
}
