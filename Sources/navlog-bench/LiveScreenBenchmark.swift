import Foundation
import NavlogEvents
import NavlogHost
import NavlogSampleApps

/// Memory per live screen: one `articles` session (virtual time, its events discarded) opens
/// an article from the feed, then goes to its author, back to an article, and so on, never
/// back, so every screen it pushes stays live; the resident memory that adds, per 1,000
/// screens.
///
/// The baseline, in the same process, is the floor any app pays: the same screens as plain
/// objects (a view controller holding its view, presenter and router, the presenter holding
/// the view model, a router), with the same view models built from the same strings, in an
/// array. What navlog adds above it is the runtime's bookkeeping: instance names, the bound
/// ids, the stack's entries, the observers of the shared bookmarks, and the JSON snapshot each
/// presenter keeps to tell what changed.
enum LiveScreenBenchmark {
    struct Result {
        var screens: Int
        /// Resident KiB added per 1,000 live screens.
        var navlogKiBPerThousand: Double
        var plainKiBPerThousand: Double
    }

    /// Which side a child process measures.
    enum Side: String {
        case navlog, plain
    }

    /// Measures each side in a fresh child process (this program with `--live-screens-child`),
    /// in alternating turns, and keeps each side's median: in this process, after the other
    /// parts, new objects fill the holes earlier work left in the heap and resident memory
    /// hardly moves.
    static func run(screens: Int, directory: String) throws -> Result {
        var bytes: [Side: [Int]] = [:]
        for _ in 0..<rounds {
            for side in [Side.plain, .navlog] {
                let output = directory + "/live-screens-\(side.rawValue).txt"
                let child = try ChildProcess.measure(CommandLine.arguments[0], ["--live-screens-child", side.rawValue, String(screens)], stdout: output)
                let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
                guard child.status == 0, let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    throw BenchmarkError("the \(side.rawValue) live-screen child exited \(child.status) saying '\(text)'")
                }
                bytes[side, default: []].append(value)
            }
        }
        func perThousand(_ side: Side) -> Double {
            let sorted = bytes[side, default: [0]].sorted()
            return Double(sorted[sorted.count / 2]) / Double(screens) * 1000 / 1024
        }
        return Result(screens: screens, navlogKiBPerThousand: perThousand(.navlog), plainKiBPerThousand: perThousand(.plain))
    }

    static let rounds = 3

    /// The child's part: the resident bytes that `count` live screens of `side` add.
    static func measureInChild(_ side: Side, screens count: Int) throws -> Int {
        switch side {
        case .navlog: try measure { try pushLiveScreens(count) }.bytes
        case .plain: measure { makePlainScreens(count) }.bytes
        }
    }

    /// The resident bytes `build` adds while what it returns is alive (the allocator trimmed
    /// before and after, so freed memory it held back does not count).
    private static func measure<T>(_ build: () throws -> T) rethrows -> (bytes: Int, kept: T) {
        trimMalloc()
        let before = DaemonBenchmark.residentBytes()
        let kept = try build()
        trimMalloc()
        let bytes = DaemonBenchmark.residentBytes() - before
        return (max(0, bytes), kept)
    }

    /// glibc's `malloc_trim(0)`: gives the free memory of every arena back to the system. The
    /// Glibc module does not export it, so it is looked up (and skipped on another libc).
    private static func trimMalloc() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)(0)
    }

    // MARK: - navlog

    /// A session `count` screens deep above the feed, alive until the caller lets go of it.
    private static func pushLiveScreens(_ count: Int) throws -> SessionCore {
        let app = SampleApps.articles
        let session = try SessionCore(
            id: "s-1", app: app, parameters: try app.resolveParameters(["latency_ms": "0"]), sink: NullEventSink(), timeMode: .virtual)
        session.waitUntilIdle()
        for index in 0..<count {
            try session.perform(.action(element: index % 2 == 0 ? "article-swift-concurrency" : "open-author", value: nil))
        }
        guard let stack = session.context.window.topContainer?.activeStack, stack.screens.count == count + 1 else {
            throw BenchmarkError("the articles session is not \(count + 1) screens deep")
        }
        return session
    }

    // MARK: - Baseline

    private struct ArticleModel {
        var articleID: String
        var title: String
        var byline: String
        var body: String
        var isBookmarked: Bool
    }

    private struct AuthorModel {
        var name: String
        var role: String
        var bio: String
        var articles: [(id: String, title: String, detail: String)]
    }

    private final class Router {}

    private final class Presenter<Model> {
        var model: Model
        let router: Router

        init(model: Model, router: Router) {
            self.model = model
            self.router = router
        }
    }

    private final class ViewController {
        let title: String
        let presenter: AnyObject

        init(title: String, presenter: AnyObject) {
            self.title = title
            self.presenter = presenter
        }
    }

    // The texts of the app's first article and its author, shared as the app's catalog shares them.
    private static let article = (
        id: "swift-concurrency", title: "Swift Concurrency Without the Headaches",
        summary: "Actors, isolation and where your navigation code should run.",
        body: "Strict concurrency turns data races into compile errors. Keep navigation state on the main actor, move loading into isolated services, and let the compiler prove the rest. Most warnings disappear once ownership is explicit.",
        minutes: 9
    )
    private static let author = (
        name: "Marta Ruiz", role: "Staff iOS engineer",
        bio: "Marta leads the platform team and has migrated two large apps to strict concurrency."
    )

    private static func makePlainScreens(_ count: Int) -> [ViewController] {
        var stack: [ViewController] = []
        for index in 0..<count {
            let router = Router()
            if index % 2 == 0 {
                let model = ArticleModel(
                    articleID: article.id, title: article.title, byline: "By \(author.name) · \(article.minutes) min read",
                    body: article.body, isBookmarked: false)
                stack.append(ViewController(title: "ArticleDetail#\(index / 2 + 1)", presenter: Presenter(model: model, router: router)))
            } else {
                let model = AuthorModel(
                    name: author.name, role: author.role, bio: author.bio,
                    articles: [(article.id, article.title, article.summary), ("modular-features", "Feature Modules That Scale", "Builders, routers and the boundaries between teams.")])
                stack.append(ViewController(title: "Author#\(index / 2 + 1)", presenter: Presenter(model: model, router: router)))
            }
        }
        return stack
    }
}
