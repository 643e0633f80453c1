import Foundation
import Navigation
import NavigationTesting
import XCTest

/// Each seed article's flow, recorded by `navlog run` from `Config/scenarios/` and read back
/// with `navlog show --output json`: the exact sequence (kinds, subjects, screens, causes).
final class SeedScenarioTests: XCTestCase {
    private func recordedTrace(of app: String) throws -> [String] {
        let journal = try CLI.makeTemporaryDirectory(self).appendingPathComponent("journal")
        let run = try CLI.run(["run", "--script", "Config/scenarios/\(app).scenario", "--journal", journal.path, "--label", "ci=true"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertTrue(run.stdout.hasPrefix("Config/scenarios/\(app).scenario: "), run.stdout)
        let show = try CLI.run(["show", journal.path, "--output", "json"])
        XCTAssertEqual(show.status, 0, show.stderr)
        let events = try CLI.events(fromJSONLines: show.stdout)
        XCTAssertEqual(Set(events.map(\.session)), ["s-1"])
        XCTAssertEqual(events.map(\.seq), Array(1...UInt64(events.count)), "a fresh journal numbers from 1")
        XCTAssertEqual(LeakDetector.leaks(in: events), [])
        return events.map(traceLine)
    }

    private func assertTrace(_ app: String, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let actual = try recordedTrace(of: app)
        if actual != expected {
            XCTFail("\(app) recorded a different sequence (Expected: −, Actual: +)\n" + lineDiff(expected: expected, actual: actual), file: file, line: line)
        }
    }

    func testMasterDetail() throws { try assertTrace("master-detail", Self.masterDetail) }
    func testArticles() throws { try assertTrace("articles", Self.articles) }
    func testTabs() throws { try assertTrace("tabs", Self.tabs) }
    func testContentList() throws { try assertTrace("content-list", Self.contentList) }

    func testModalVariantOfMasterDetailRecordsAPresentAndASwipe() throws {
        let directory = try CLI.makeTemporaryDirectory(self)
        let script = directory.appendingPathComponent("modal.scenario")
        try """
            tap open-detail
            expect screen Detail
            dismiss
            expect screen Master
            """.write(to: script, atomically: true, encoding: .utf8)
        let journal = directory.appendingPathComponent("journal").path
        let run = try CLI.run(["run", "master-detail", "--param", "detail_style=modal", "--script", script.path, "--journal", journal])
        XCTAssertEqual(run.status, 0, run.stderr)
        let kinds = try CLI.events(fromJSONLines: try CLI.run(["show", journal, "-o", "json", "--kind", "screen.*"]).stdout).map(\.kind)
        // Master is pushed; Detail is pushed into its own stack, which is presented, then swiped.
        XCTAssertEqual(kinds, [.screenPush, .screenPush, .screenPresent, .screenDismiss])
    }
}

extension SeedScenarioTests {
    static let masterDetail = [
        "1 session.start Session#1",
        "2 coordinator.start AppCoordinator#1 ←1",
        "3 coordinator.coordinate AppCoordinator#1 ←2",
        "4 coordinator.start RootMasterCoordinator#1 ←3",
        "5 presenter.init MasterPresenter#1 ←4",
        "6 screen.push RootMasterCoordinator#1 [Master#1] ←4",
        "7 window.root RootMasterCoordinator#1 [Master#1] ←4",
        "8 action Master#1 [Master#1] ←1",
        "9 coordinator.coordinate RootMasterCoordinator#1 ←8",
        "10 coordinator.start DetailCoordinator#1 ←9",
        "11 presenter.init DetailPresenter#1 ←10",
        "12 screen.push DetailCoordinator#1 [Detail#1] ←10",
        "13 action Detail#1 [Detail#1] ←1",
        "14 presenter.init SharePresenter#1 ←13",
        "15 screen.push DetailCoordinator#1 [Share#1] ←13",
        "16 action Share#1 [Share#1] ←1",
        "17 viewmodel.change SharePresenter#1 [Share#1] ←16",
        "18 action Share#1 [Share#1] ←1",
        "19 viewmodel.change SharePresenter#1 [Share#1] ←18",
        "20 viewmodel.change DetailPresenter#1 [Detail#1] ←18",
        "21 screen.pop DetailCoordinator#1 [Share#1] ←18",
        "22 presenter.deinit SharePresenter#1 ←18",
        "23 action Detail#1 [Detail#1] ←1",
        "24 screen.pop DetailCoordinator#1 [Detail#1] ←23",
        "25 coordinator.finish DetailCoordinator#1 ←24",
        "26 coordinator.deinit DetailCoordinator#1 ←24",
        "27 presenter.deinit DetailPresenter#1 ←1",
        "28 coordinator.finish RootMasterCoordinator#1 ←1",
        "29 coordinator.deinit RootMasterCoordinator#1 ←1",
        "30 coordinator.finish AppCoordinator#1 ←1",
        "31 coordinator.deinit AppCoordinator#1 ←1",
        "32 presenter.deinit MasterPresenter#1 ←1",
        "33 session.end Session#1",
    ]
    static let articles = [
        "1 session.start Session#1",
        "2 coordinator.start ArticlesCoordinator#1 ←1",
        "3 presenter.init ScenePresenter#1 ←2",
        "4 screen.push SceneRouter#1 [Articles#1] ←2",
        "5 window.root ArticlesCoordinator#1 [Articles#1] ←2",
        "6 viewmodel.change SceneModel#1 [Articles#1] ←2",
        "7 viewmodel.change SceneModel#1 [Articles#1] ←2",
        "8 viewmodel.change SceneModel#1 [Articles#1] ←2",
        "9 viewmodel.change SceneModel#1 [Articles#1] ←2",
        "10 viewmodel.change SceneModel#1 [Articles#1] ←2",
        "11 action Articles#1 [Articles#1] ←1",
        "12 presenter.init ArticleDetailPresenter#1 ←11",
        "13 screen.push SceneRouter#1 [ArticleDetail#1] ←11",
        "14 action ArticleDetail#1 [ArticleDetail#1] ←1",
        "15 viewmodel.change ArticleDetailPresenter#1 [ArticleDetail#1] ←14",
        "16 action ArticleDetail#1 [ArticleDetail#1] ←1",
        "17 presenter.init AuthorPresenter#1 ←16",
        "18 screen.push ArticleDetailRouter#1 [Author#1] ←16",
        "19 action Author#1 [Author#1] ←1",
        "20 screen.pop ArticleDetailRouter#1 [Author#1] ←19",
        "21 presenter.deinit AuthorPresenter#1 ←1",
        "22 action ArticleDetail#1 [ArticleDetail#1] ←1",
        "23 screen.pop SceneRouter#1 [ArticleDetail#1] ←22",
        "24 presenter.deinit ArticleDetailPresenter#1 ←1",
        "25 action Articles#1 [Articles#1] ←1",
        "26 presenter.init BookmarksPresenter#1 ←25",
        "27 screen.push SceneRouter#1 [Bookmarks#1] ←25",
        "28 coordinator.finish ArticlesCoordinator#1 ←1",
        "29 coordinator.deinit ArticlesCoordinator#1 ←1",
        "30 presenter.deinit ScenePresenter#1 ←1",
        "31 presenter.deinit BookmarksPresenter#1 ←1",
        "32 session.end Session#1",
    ]
    static let tabs = [
        "1 session.start Session#1",
        "2 coordinator.start MainTabBarCoordinator#1 ←1",
        "3 coordinator.coordinate MainTabBarCoordinator#1 ←2",
        "4 coordinator.start DashboardCoordinator#1 ←3",
        "5 presenter.init DashboardPresenter#1 ←4",
        "6 screen.push DashboardCoordinator#1 [Dashboard#1] ←4",
        "7 coordinator.coordinate MainTabBarCoordinator#1 ←2",
        "8 coordinator.start SettingsCoordinator#1 ←7",
        "9 presenter.init SettingsPresenter#1 ←8",
        "10 screen.push SettingsCoordinator#1 [Settings#1] ←8",
        "11 window.root MainTabBarCoordinator#1 [Dashboard#1] ←2",
        "12 action Dashboard#1 [Dashboard#1] ←1",
        "13 coordinator.coordinate DashboardCoordinator#1 ←12",
        "14 coordinator.start ReportCoordinator#1 ←13",
        "15 presenter.init ReportPresenter#1 ←14",
        "16 screen.push ReportCoordinator#1 [Report#1] ←14",
        "17 action Report#1 [Report#1] ←1",
        "18 viewmodel.change ReportPresenter#1 [Report#1] ←17",
        "19 action Report#1 [Report#1] ←1",
        "20 tab.select MainTabBarCoordinator#1 [Settings#1] ←19",
        "21 action Settings#1 [Settings#1] ←1",
        "22 coordinator.coordinate SettingsCoordinator#1 ←21",
        "23 coordinator.start NotificationsSettingsCoordinator#1 ←22",
        "24 presenter.init NotificationsSettingsPresenter#1 ←23",
        "25 screen.push NotificationsSettingsCoordinator#1 [NotificationsSettings#1] ←23",
        "26 action NotificationsSettings#1 [NotificationsSettings#1] ←1",
        "27 viewmodel.change NotificationsSettingsPresenter#1 [NotificationsSettings#1] ←26",
        "28 viewmodel.change SettingsPresenter#1 [Settings#1] ←26",
        "29 action NotificationsSettings#1 [NotificationsSettings#1] ←1",
        "30 screen.pop NotificationsSettingsCoordinator#1 [NotificationsSettings#1] ←29",
        "31 coordinator.finish NotificationsSettingsCoordinator#1 ←30",
        "32 coordinator.deinit NotificationsSettingsCoordinator#1 ←29",
        "33 presenter.deinit NotificationsSettingsPresenter#1 ←29",
        "34 action Settings#1 [Settings#1] ←1",
        "35 tab.select MainTabBarCoordinator#1 [Report#1] ←34",
        "36 action Report#1 [Report#1] ←1",
        "37 screen.pop ReportCoordinator#1 [Report#1] ←36",
        "38 coordinator.finish ReportCoordinator#1 ←37",
        "39 coordinator.deinit ReportCoordinator#1 ←36",
        "40 presenter.deinit ReportPresenter#1 ←36",
        "41 deeplink MainTabBarCoordinator#1 [Dashboard#1] ←1",
        "42 tab.select MainTabBarCoordinator#1 [Settings#1] ←41",
        "43 coordinator.coordinate SettingsCoordinator#1 ←41",
        "44 coordinator.start ProfileCoordinator#1 ←43",
        "45 presenter.init ProfilePresenter#1 ←44",
        "46 screen.push ProfileCoordinator#1 [Profile#1] ←44",
        "47 action Profile#1 [Profile#1] ←1",
        "48 screen.pop ProfileCoordinator#1 [Profile#1] ←47",
        "49 coordinator.finish ProfileCoordinator#1 ←48",
        "50 coordinator.deinit ProfileCoordinator#1 ←48",
        "51 presenter.deinit ProfilePresenter#1 ←1",
        "52 coordinator.finish SettingsCoordinator#1 ←1",
        "53 coordinator.finish DashboardCoordinator#1 ←1",
        "54 coordinator.deinit DashboardCoordinator#1 ←1",
        "55 coordinator.deinit SettingsCoordinator#1 ←1",
        "56 coordinator.finish MainTabBarCoordinator#1 ←1",
        "57 coordinator.deinit MainTabBarCoordinator#1 ←1",
        "58 presenter.deinit DashboardPresenter#1 ←1",
        "59 presenter.deinit SettingsPresenter#1 ←1",
        "60 session.end Session#1",
    ]
    static let contentList = [
        "1 session.start Session#1",
        "2 coordinator.start ContentListCoordinator#1 ←1",
        "3 presenter.init ContentListPresenter#1 ←2",
        "4 screen.push ContentListRouter#1 [ContentList#1] ←2",
        "5 window.root ContentListCoordinator#1 [ContentList#1] ←2",
        "6 action ContentList#1 [ContentList#1] ←1",
        "7 viewmodel.change ContentListPresenter#1 [ContentList#1] ←6",
        "8 viewmodel.change DataSource#1 [ContentList#1] ←6",
        "9 action ContentList#1 [ContentList#1] ←1",
        "10 presenter.init GuideDetailPresenter#1 ←9",
        "11 screen.push ContentListRouter#1 [GuideDetail#1] ←9",
        "12 action GuideDetail#1 [GuideDetail#1] ←1",
        "13 screen.pop ContentListRouter#1 [GuideDetail#1] ←12",
        "14 presenter.deinit GuideDetailPresenter#1 ←1",
        "15 action ContentList#1 [ContentList#1] ←1",
        "16 viewmodel.change ContentListPresenter#1 [ContentList#1] ←15",
        "17 viewmodel.change DataSource#1 [ContentList#1] ←15",
        "18 action ContentList#1 [ContentList#1] ←1",
        "19 screen.present ContentListRouter#1 [CategoryFilter#1] ←18",
        "20 action CategoryFilter#1 [CategoryFilter#1] ←1",
        "21 viewmodel.change ContentListPresenter#1 [ContentList#1] ←20",
        "22 viewmodel.change DataSource#1 [ContentList#1] ←20",
        "23 screen.dismiss ContentListRouter#1 [CategoryFilter#1] ←20",
        "24 action ContentList#1 [ContentList#1] ←1",
        "25 presenter.init GuideDetailPresenter#2 ←24",
        "26 screen.push ContentListRouter#1 [GuideDetail#2] ←24",
        "27 action GuideDetail#2 [GuideDetail#2] ←1",
        "28 presenter.init GuideNotesPresenter#1 ←27",
        "29 screen.push GuideDetailRouter#2 [GuideNotes#1] ←27",
        "30 action GuideNotes#1 [GuideNotes#1] ←1",
        "31 viewmodel.change GuideNotesPresenter#1 [GuideNotes#1] ←30",
        "32 action GuideNotes#1 [GuideNotes#1] ←1",
        "33 viewmodel.change GuideNotesPresenter#1 [GuideNotes#1] ←32",
        "34 screen.pop GuideDetailRouter#2 [GuideNotes#1] ←32",
        "35 presenter.deinit GuideNotesPresenter#1 ←32",
        "36 coordinator.finish ContentListCoordinator#1 ←1",
        "37 coordinator.deinit ContentListCoordinator#1 ←1",
        "38 presenter.deinit ContentListPresenter#1 ←1",
        "39 presenter.deinit GuideDetailPresenter#2 ←1",
        "40 session.end Session#1",
    ]
}
