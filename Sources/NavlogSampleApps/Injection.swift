import NavlogRuntime

/// A known bug a sample app can be built with, chosen by its `inject` parameter, so that
/// `navlog diff` can be calibrated against regressions whose cause is known
/// (`scripts/calibrate`).
///
/// Each app puts its bugs on a path a random walk takes often, and says where in the
/// parameter's summary:
///
/// | app | `leak` | `double_push` |
/// |---|---|---|
/// | `master-detail` | Detail's coordinator never hears its screen go, so it stays among Master's children | Detail |
/// | `articles` | an article's presenter observes the bookmarks with a strong capture of itself | ArticleDetail |
/// | `tabs` | the Dashboard presenter holds its coordinator strongly | Report |
/// | `content-list` | a guide's router holds the screen it routes from strongly | GuideDetail |
enum Injection: String, CaseIterable, Sendable {
    /// The app as written. Sessions record exactly what they recorded before the parameter
    /// existed: `session.start` leaves `inject` out at this value.
    case none
    /// A coordinator or presenter outlives its screen; the leak detector reports it.
    case leak
    /// One tap shows the same screen twice; the report's smell `double push X` sees it.
    case doublePush = "double_push"

    /// The `inject` parameter of an app, with what `leak` and `double_push` do in it.
    static func parameter(leak: String, doublePush: String) -> AppParameter {
        .choice(
            "inject", allCases.map(\.rawValue), default: Injection.none.rawValue,
            summary: "A known bug built in, to calibrate navlog diff: none (as written); leak: \(leak); double_push: \(doublePush)",
            isOmittedAtDefault: true
        )
    }
}

extension AppParameters {
    /// The bug the app is built with: its `inject` parameter.
    var injection: Injection {
        Injection(rawValue: string("inject")) ?? Injection.none
    }
}
