@testable import NavlogAnalysis
import XCTest

final class TransitionTests: XCTestCase {
    func testPushesAndUserBacksAreTransitionsByType() {
        var script = SessionScript()
        script.launch()
        script.wait(100)
        let tap = script.action("detail", on: "Home#1")
        script.push("Detail#1", cause: tap)
        script.wait(50)
        script.pop("Detail#1", to: "Home#1", by: "user_back")  // top level: cause is session.start
        script.wait(10)
        let again = script.action("detail", on: "Home#1")
        script.push("Detail#2", cause: again)
        script.end()
        let report = makeReport([script])

        // Home → Detail twice (two instances, one type), Detail → Home once.
        XCTAssertEqual(transitionList(report), ["Home>Detail:2", "Detail>Home:1"])
        // Home leaves only for Detail: share 2/2; Detail leaves only for Home: 1/1.
        XCTAssertEqual(report.transitions.map(\.share), [1, 1])
        XCTAssertEqual(report.screens.map(\.screen), ["Detail", "Home"])
        XCTAssertEqual(report.screens.map(\.visits), [2, 2])
        XCTAssertEqual(report.screens.first { $0.screen == "Home" }?.entries, 1)
        XCTAssertEqual(report.screens.first { $0.screen == "Detail" }?.exits, 1)
    }

    func testEventsSharingACauseAreOneTransition() {
        var script = SessionScript()
        script.launch()
        let a = script.action("next", on: "Home#1")
        script.push("List#1", cause: a)
        let b = script.action("next", on: "List#1")
        script.push("Detail#1", cause: b)
        // popToRoot: two pops caused by one action, with a coordinator finish between them.
        let home = script.action("home", on: "Detail#1")
        let pop = script.pop("Detail#1", to: "List#1", cause: home)
        script.record(.coordinatorFinish, subject: "DetailCoordinator#1", cause: pop)
        script.pop("List#1", to: "Home#1", cause: home)
        script.end()
        let report = makeReport([script])

        // Detail → Home, not Detail → List → Home.
        XCTAssertEqual(transitionList(report), ["Detail>Home:1", "Home>List:1", "List>Detail:1"])
        XCTAssertEqual(report.paths.sessionPaths.first?.screens, ["Home", "List", "Detail", "Home"])
    }

    func testAnIntentsWholeCausalChainIsOneTransition() {
        // A deep link selects a tab (caused by the link) and pushes through a child
        // coordinator (caused by its start, caused by a coordinate, caused by the link).
        var script = SessionScript(app: "tabs")
        let launch = script.record(.coordinatorStart, subject: "TabCoordinator#1")
        script.push("Home#1", on: "HomeStack#1", cause: launch)
        script.push("Settings#1", on: "SettingsStack#1", cause: launch)
        script.root("TabContainer#1", showing: "Home#1", cause: launch)
        let link = script.record(.deepLink, subject: "TabCoordinator#1", screen: "Home#1", payload: ["url": "app://settings/profile"])
        script.selectTab("Settings", showing: "Settings#1", cause: link)
        let coordinate = script.record(.coordinatorCoordinate, subject: "SettingsCoordinator#1", cause: link, payload: ["child": "ProfileCoordinator#1"])
        let start = script.record(.coordinatorStart, subject: "ProfileCoordinator#1", cause: coordinate, parent: "SettingsCoordinator#1")
        script.push("Profile#1", on: "SettingsStack#1", cause: start)
        script.end()
        let report = makeReport([script])

        // Home → Profile: Settings was never what the user looked at.
        XCTAssertEqual(transitionList(report), ["Home>Profile:1"])
        XCTAssertEqual(report.paths.sessionPaths.first?.screens, ["Home", "Profile"])
    }

    func testModalsAndTheirStacks() {
        var script = SessionScript()
        script.launch()
        // A sheet holding its own stack: Compose pushed before presenting.
        let tap = script.action("compose", on: "Home#1")
        script.push("Compose#1", on: "NavigationStack#2", cause: tap)
        script.present("NavigationStack#2", showing: "Compose#1", cause: tap)
        let next = script.action("attach", on: "Compose#1")
        script.push("Attach#1", on: "NavigationStack#2", cause: next)
        // A back inside the modal pops its stack; the root's top is not affected.
        script.pop("Attach#1", to: "Compose#1", from: "NavigationStack#2", by: "user_back")
        // A swipe-down removes the modal and shows Home again.
        script.dismiss("NavigationStack#2", removed: ["Compose#1"], to: "Home#1", by: "user_swipe")
        script.end()
        let report = makeReport([script])

        XCTAssertEqual(report.paths.sessionPaths.first?.screens, ["Home", "Compose", "Attach", "Compose", "Home"])
        // Compose leaves twice: once to Attach, once to Home, so each has share 1/2.
        XCTAssertEqual(report.transitions.filter { $0.from == "Compose" }.map(\.share), [0.5, 0.5])
    }

    func testTabsKeepTheirStacks() {
        var script = SessionScript(app: "tabs")
        let start = script.record(.coordinatorStart, subject: "TabCoordinator#1")
        script.push("Dashboard#1", on: "DashboardStack#1", cause: start)
        script.push("Settings#1", on: "SettingsStack#1", cause: start)
        script.root("TabContainer#1", showing: "Dashboard#1", cause: start)
        script.selectTab("Settings", showing: "Settings#1")
        let tap = script.action("notifications", on: "Settings#1")
        script.push("Notifications#1", on: "SettingsStack#1", cause: tap)
        script.selectTab("Dashboard", showing: "Dashboard#1")
        // A push onto the hidden Settings stack changes nothing the user sees.
        script.push("About#1", on: "SettingsStack#1")
        script.selectTab("Settings", showing: "About#1")
        script.end()
        let report = makeReport([script])

        XCTAssertEqual(report.paths.sessionPaths.first?.screens, ["Dashboard", "Settings", "Notifications", "Dashboard", "About"])
    }

    func testSessionsWithoutEndAreReportedAtFinish() {
        var script = SessionScript()
        script.launch()
        script.wait(30)
        script.record(.action, subject: "Home#1", screen: "Home#1")
        let report = makeReport([script])
        XCTAssertEqual(report.summary.sessions, 1)
        XCTAssertEqual(report.summary.completeSessions, 0)
        XCTAssertEqual(report.summary.events, 5)
        // The open visit is closed at the last event and cut off (censored): no dwell sample.
        XCTAssertEqual(report.dwell.map { "\($0.screen):\($0.summary.count)+\($0.censored)" }, ["Home:0+1"])
    }

    func testSessionsOfOneNameInSeveralRunsStayApartWhileOpenTogether() {
        // s-1 of r-1 and s-1 of r-2 interleave; s-1 of r-3 starts after r-1's has ended and
        // stays open to the end.
        func script(run: String, detail: String) -> SessionScript {
            var script = SessionScript("s-1", run: run)
            script.launch()
            script.wait(100)
            let tap = script.action("go", on: "Home#1")
            script.push(detail, cause: tap)
            return script
        }
        var first = script(run: "r-1", detail: "Detail#1")
        first.end()
        var second = script(run: "r-2", detail: "Settings#1")
        second.end()
        let third = script(run: "r-3", detail: "About#1")
        var builder = ReportBuilder()
        for index in 0..<max(first.events.count, second.events.count) {
            if index < first.events.count { builder.consume(first.events[index]) }
            if index < second.events.count { builder.consume(second.events[index]) }
        }
        for event in third.events { builder.consume(event) }
        let report = builder.finish()
        XCTAssertEqual(report.summary.sessions, 3)
        XCTAssertEqual(report.summary.completeSessions, 2)
        XCTAssertEqual(report.summary.events, first.events.count + second.events.count + third.events.count)
        XCTAssertEqual(transitionList(report), ["Home>About:1", "Home>Detail:1", "Home>Settings:1"])
    }
}
