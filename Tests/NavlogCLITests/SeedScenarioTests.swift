import Foundation
import NavlogEvents
import NavlogTesting
import NavlogTestSupport
import XCTest

/// Each seed article's flow, recorded by `navlog run` from `Config/scenarios/` and read back
/// with `navlog show --output json`: the exact sequence (kinds, subjects, screens, causes).
final class SeedScenarioTests: XCTestCase {
    private func recordedTrace(of app: String) throws -> [String] {
        let journal = URL(fileURLWithPath: makeTemporaryDirectory(self)).appendingPathComponent("journal")
        let run = try Product.navlog.run(["run", "--script", "Config/scenarios/\(app).scenario", "--journal", journal.path, "--label", "ci=true"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertTrue(run.stdout.hasPrefix("Config/scenarios/\(app).scenario: "), run.stdout)
        let show = try Product.navlog.run(["show", journal.path, "--output", "json"])
        XCTAssertEqual(show.status, 0, show.stderr)
        let events = try [Event](jsonLines: show.stdout)
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
        let directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
        let script = directory.appendingPathComponent("modal.scenario")
        try """
            tap open-detail
            expect screen Detail
            dismiss
            expect screen Master
            """.write(to: script, atomically: true, encoding: .utf8)
        let journal = directory.appendingPathComponent("journal").path
        let run = try Product.navlog.run(["run", "master-detail", "--param", "detail_style=modal", "--script", script.path, "--journal", journal])
        XCTAssertEqual(run.status, 0, run.stderr)
        let kinds = try [Event](jsonLines: try Product.navlog.run(["show", journal, "-o", "json", "--kind", "screen.*"]).stdout).map(\.kind)
        // Master is pushed (and ready); Detail is pushed into its own stack, which is presented
        // (Detail is ready when the sheet shows it), then swiped.
        XCTAssertEqual(kinds, [.screenPush, .screenReady, .screenPush, .screenPresent, .screenReady, .screenDismiss])
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
        "8 screen.ready RootMasterCoordinator#1 [Master#1] ←2",
        "9 action Master#1 [Master#1] ←1",
        "10 coordinator.coordinate RootMasterCoordinator#1 ←9",
        "11 coordinator.start DetailCoordinator#1 ←10",
        "12 presenter.init DetailPresenter#1 ←11",
        "13 screen.push DetailCoordinator#1 [Detail#1] ←11",
        "14 screen.ready DetailCoordinator#1 [Detail#1] ←9",
        "15 action Detail#1 [Detail#1] ←1",
        "16 presenter.init SharePresenter#1 ←15",
        "17 screen.push DetailCoordinator#1 [Share#1] ←15",
        "18 screen.ready DetailCoordinator#1 [Share#1] ←15",
        "19 action Share#1 [Share#1] ←1",
        "20 viewmodel.change SharePresenter#1 [Share#1] ←19",
        "21 action Share#1 [Share#1] ←1",
        "22 viewmodel.change SharePresenter#1 [Share#1] ←21",
        "23 viewmodel.change DetailPresenter#1 [Detail#1] ←21",
        "24 screen.pop DetailCoordinator#1 [Share#1] ←21",
        "25 presenter.deinit SharePresenter#1 ←21",
        "26 action Detail#1 [Detail#1] ←1",
        "27 screen.pop DetailCoordinator#1 [Detail#1] ←26",
        "28 coordinator.finish DetailCoordinator#1 ←27",
        "29 coordinator.deinit DetailCoordinator#1 ←27",
        "30 presenter.deinit DetailPresenter#1 ←1",
        "31 coordinator.finish RootMasterCoordinator#1 ←1",
        "32 coordinator.deinit RootMasterCoordinator#1 ←1",
        "33 coordinator.finish AppCoordinator#1 ←1",
        "34 coordinator.deinit AppCoordinator#1 ←1",
        "35 presenter.deinit MasterPresenter#1 ←1",
        "36 session.end Session#1",
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
        "11 screen.ready SceneRouter#1 [Articles#1] ←2",
        "12 action Articles#1 [Articles#1] ←1",
        "13 presenter.init ArticleDetailPresenter#1 ←12",
        "14 screen.push SceneRouter#1 [ArticleDetail#1] ←12",
        "15 screen.ready SceneRouter#1 [ArticleDetail#1] ←12",
        "16 action ArticleDetail#1 [ArticleDetail#1] ←1",
        "17 viewmodel.change ArticleDetailPresenter#1 [ArticleDetail#1] ←16",
        "18 action ArticleDetail#1 [ArticleDetail#1] ←1",
        "19 presenter.init AuthorPresenter#1 ←18",
        "20 screen.push ArticleDetailRouter#1 [Author#1] ←18",
        "21 screen.ready ArticleDetailRouter#1 [Author#1] ←18",
        "22 action Author#1 [Author#1] ←1",
        "23 screen.pop ArticleDetailRouter#1 [Author#1] ←22",
        "24 presenter.deinit AuthorPresenter#1 ←1",
        "25 action ArticleDetail#1 [ArticleDetail#1] ←1",
        "26 screen.pop SceneRouter#1 [ArticleDetail#1] ←25",
        "27 presenter.deinit ArticleDetailPresenter#1 ←1",
        "28 action Articles#1 [Articles#1] ←1",
        "29 presenter.init BookmarksPresenter#1 ←28",
        "30 screen.push SceneRouter#1 [Bookmarks#1] ←28",
        "31 screen.ready SceneRouter#1 [Bookmarks#1] ←28",
        "32 coordinator.finish ArticlesCoordinator#1 ←1",
        "33 coordinator.deinit ArticlesCoordinator#1 ←1",
        "34 presenter.deinit ScenePresenter#1 ←1",
        "35 presenter.deinit BookmarksPresenter#1 ←1",
        "36 session.end Session#1",
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
        "12 screen.ready DashboardCoordinator#1 [Dashboard#1] ←2",
        "13 action Dashboard#1 [Dashboard#1] ←1",
        "14 coordinator.coordinate DashboardCoordinator#1 ←13",
        "15 coordinator.start ReportCoordinator#1 ←14",
        "16 presenter.init ReportPresenter#1 ←15",
        "17 screen.push ReportCoordinator#1 [Report#1] ←15",
        "18 screen.ready ReportCoordinator#1 [Report#1] ←13",
        "19 action Report#1 [Report#1] ←1",
        "20 viewmodel.change ReportPresenter#1 [Report#1] ←19",
        "21 action Report#1 [Report#1] ←1",
        "22 tab.select MainTabBarCoordinator#1 [Settings#1] ←21",
        "23 screen.ready SettingsCoordinator#1 [Settings#1] ←21",
        "24 action Settings#1 [Settings#1] ←1",
        "25 coordinator.coordinate SettingsCoordinator#1 ←24",
        "26 coordinator.start NotificationsSettingsCoordinator#1 ←25",
        "27 presenter.init NotificationsSettingsPresenter#1 ←26",
        "28 screen.push NotificationsSettingsCoordinator#1 [NotificationsSettings#1] ←26",
        "29 screen.ready NotificationsSettingsCoordinator#1 [NotificationsSettings#1] ←24",
        "30 action NotificationsSettings#1 [NotificationsSettings#1] ←1",
        "31 viewmodel.change NotificationsSettingsPresenter#1 [NotificationsSettings#1] ←30",
        "32 viewmodel.change SettingsPresenter#1 [Settings#1] ←30",
        "33 action NotificationsSettings#1 [NotificationsSettings#1] ←1",
        "34 screen.pop NotificationsSettingsCoordinator#1 [NotificationsSettings#1] ←33",
        "35 coordinator.finish NotificationsSettingsCoordinator#1 ←34",
        "36 coordinator.deinit NotificationsSettingsCoordinator#1 ←33",
        "37 presenter.deinit NotificationsSettingsPresenter#1 ←33",
        "38 action Settings#1 [Settings#1] ←1",
        "39 tab.select MainTabBarCoordinator#1 [Report#1] ←38",
        "40 action Report#1 [Report#1] ←1",
        "41 screen.pop ReportCoordinator#1 [Report#1] ←40",
        "42 coordinator.finish ReportCoordinator#1 ←41",
        "43 coordinator.deinit ReportCoordinator#1 ←40",
        "44 presenter.deinit ReportPresenter#1 ←40",
        "45 deeplink MainTabBarCoordinator#1 [Dashboard#1] ←1",
        "46 tab.select MainTabBarCoordinator#1 [Settings#1] ←45",
        "47 coordinator.coordinate SettingsCoordinator#1 ←45",
        "48 coordinator.start ProfileCoordinator#1 ←47",
        "49 presenter.init ProfilePresenter#1 ←48",
        "50 screen.push ProfileCoordinator#1 [Profile#1] ←48",
        "51 screen.ready ProfileCoordinator#1 [Profile#1] ←45",
        "52 action Profile#1 [Profile#1] ←1",
        "53 screen.pop ProfileCoordinator#1 [Profile#1] ←52",
        "54 coordinator.finish ProfileCoordinator#1 ←53",
        "55 coordinator.deinit ProfileCoordinator#1 ←53",
        "56 presenter.deinit ProfilePresenter#1 ←1",
        "57 coordinator.finish SettingsCoordinator#1 ←1",
        "58 coordinator.finish DashboardCoordinator#1 ←1",
        "59 coordinator.deinit DashboardCoordinator#1 ←1",
        "60 coordinator.deinit SettingsCoordinator#1 ←1",
        "61 coordinator.finish MainTabBarCoordinator#1 ←1",
        "62 coordinator.deinit MainTabBarCoordinator#1 ←1",
        "63 presenter.deinit DashboardPresenter#1 ←1",
        "64 presenter.deinit SettingsPresenter#1 ←1",
        "65 session.end Session#1",
    ]
    static let contentList = [
        "1 session.start Session#1",
        "2 coordinator.start ContentListCoordinator#1 ←1",
        "3 presenter.init ContentListPresenter#1 ←2",
        "4 screen.push ContentListRouter#1 [ContentList#1] ←2",
        "5 window.root ContentListCoordinator#1 [ContentList#1] ←2",
        "6 screen.ready ContentListRouter#1 [ContentList#1] ←2",
        "7 action ContentList#1 [ContentList#1] ←1",
        "8 viewmodel.change ContentListPresenter#1 [ContentList#1] ←7",
        "9 viewmodel.change DataSource#1 [ContentList#1] ←7",
        "10 action ContentList#1 [ContentList#1] ←1",
        "11 presenter.init GuideDetailPresenter#1 ←10",
        "12 screen.push ContentListRouter#1 [GuideDetail#1] ←10",
        "13 screen.ready ContentListRouter#1 [GuideDetail#1] ←10",
        "14 action GuideDetail#1 [GuideDetail#1] ←1",
        "15 screen.pop ContentListRouter#1 [GuideDetail#1] ←14",
        "16 presenter.deinit GuideDetailPresenter#1 ←1",
        "17 action ContentList#1 [ContentList#1] ←1",
        "18 viewmodel.change ContentListPresenter#1 [ContentList#1] ←17",
        "19 viewmodel.change DataSource#1 [ContentList#1] ←17",
        "20 action ContentList#1 [ContentList#1] ←1",
        "21 screen.present ContentListRouter#1 [CategoryFilter#1] ←20",
        "22 screen.ready ContentListRouter#1 [CategoryFilter#1] ←20",
        "23 action CategoryFilter#1 [CategoryFilter#1] ←1",
        "24 viewmodel.change ContentListPresenter#1 [ContentList#1] ←23",
        "25 viewmodel.change DataSource#1 [ContentList#1] ←23",
        "26 screen.dismiss ContentListRouter#1 [CategoryFilter#1] ←23",
        "27 action ContentList#1 [ContentList#1] ←1",
        "28 presenter.init GuideDetailPresenter#2 ←27",
        "29 screen.push ContentListRouter#1 [GuideDetail#2] ←27",
        "30 screen.ready ContentListRouter#1 [GuideDetail#2] ←27",
        "31 action GuideDetail#2 [GuideDetail#2] ←1",
        "32 presenter.init GuideNotesPresenter#1 ←31",
        "33 screen.push GuideDetailRouter#2 [GuideNotes#1] ←31",
        "34 screen.ready GuideDetailRouter#2 [GuideNotes#1] ←31",
        "35 action GuideNotes#1 [GuideNotes#1] ←1",
        "36 viewmodel.change GuideNotesPresenter#1 [GuideNotes#1] ←35",
        "37 action GuideNotes#1 [GuideNotes#1] ←1",
        "38 viewmodel.change GuideNotesPresenter#1 [GuideNotes#1] ←37",
        "39 screen.pop GuideDetailRouter#2 [GuideNotes#1] ←37",
        "40 presenter.deinit GuideNotesPresenter#1 ←37",
        "41 coordinator.finish ContentListCoordinator#1 ←1",
        "42 coordinator.deinit ContentListCoordinator#1 ←1",
        "43 presenter.deinit ContentListPresenter#1 ←1",
        "44 presenter.deinit GuideDetailPresenter#2 ←1",
        "45 session.end Session#1",
    ]
}
