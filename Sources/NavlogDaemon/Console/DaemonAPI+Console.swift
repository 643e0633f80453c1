import Foundation
import NavlogAnalysis
import NavlogCommandLine
import NavlogEvents
import NavlogHost
import NavlogJournal

// MARK: - The web console's endpoints

extension DaemonAPI {
    /// The console's routes, after the API's in ``routes``: its page, its two assets, the
    /// login form's target, a session's screen with private values redacted, and the report.
    static let consoleRoutes: [Route] = [
        Route("/ui", requiresToken: false, ["GET": { api, request, _ in .response(api.consolePage(request)) }]),
        Route("/ui/console.js", requiresToken: false, ["GET": { api, request, _ in .response(api.consoleAsset(request, ConsoleAssets.script)) }]),
        Route("/ui/console.css", requiresToken: false, ["GET": { api, request, _ in .response(api.consoleAsset(request, ConsoleAssets.style)) }]),
        Route("/ui/login", requiresToken: false, ["POST": { api, request, _ in .response(api.logIn(request)) }]),
        Route("/ui/api/sessions/{id}", ["GET": { api, request, id in api.admit(request) { .now(try api.consoleSession(id, request)) } }]),
        Route("/ui/api/report", ["GET": { api, request, _ in api.deferred(request) { try await api.consoleReport(request) } }]),
    ]

    /// Whether `/ui` is served now; otherwise its routes answer 404 as if they did not exist.
    private func checkConsoleServed(_ request: HTTPRequest) throws {
        guard settings.withLock({ $0.servesConsole }) else { throw APIError.notFound(request.path) }
    }

    // MARK: - Pages

    /// `GET /ui`: the console, or with a token configured and none sent, the login form (401).
    func consolePage(_ request: HTTPRequest) -> HTTPResponse {
        let (serves, allowsActions, hasToken) = settings.withLock { ($0.servesConsole, $0.consoleAllowsActions, $0.token != nil) }
        guard serves else { return APIError.notFound(request.path).response }
        if hasToken, checkToken(request) != nil { return ConsolePages.login(status: 401, problem: nil) }
        let runStart = Event(seq: runStartSeq, wallNanoseconds: 0, monotonicNanoseconds: 0, session: "", sessionSeq: 0, kind: .sessionStart, subject: "")
        return ConsolePages.console(allowsActions: allowsActions, timelineAfter: JournalCursor(after: runStart).description)
    }

    /// `GET /ui/console.js` and `/ui/console.css`: embedded, public (the login page uses them).
    func consoleAsset(_ request: HTTPRequest, _ asset: ConsoleAssets.Asset) -> HTTPResponse {
        guard settings.withLock({ $0.servesConsole }) else { return APIError.notFound(request.path).response }
        return ConsolePages.asset(asset)
    }

    /// `POST /ui/login` with the form's `token=…`: the cookie and a redirect to `/ui`, or the
    /// form again (401) naming what was wrong.
    func logIn(_ request: HTTPRequest) -> HTTPResponse {
        let (serves, token) = settings.withLock { ($0.servesConsole, $0.token) }
        guard serves else { return APIError.notFound(request.path).response }
        guard let token else { return ConsolePages.redirect(to: "/ui", cookie: nil) }
        guard let given = ConsolePages.formValue("token", in: request.body), !given.isEmpty else {
            return ConsolePages.login(status: 401, problem: "Enter the daemon's token (auth.token in navlogd.json).")
        }
        guard ConsoleAccess.isEqualInConstantTime(given, token) else {
            log.warn("console login refused", ["reason": "wrong token"])
            return ConsolePages.login(status: 401, problem: "That is not the daemon's token.")
        }
        return ConsolePages.redirect(to: "/ui", cookie: consoleAccess.setCookieHeader(for: token))
    }

    // MARK: - Data

    /// `GET /ui/api/sessions/{id}`: the session as `GET /v1/sessions/{id}` answers it, but
    /// with the visible screen's private values redacted as the journal stores them.
    func consoleSession(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        try checkConsoleServed(request)
        let session = try registry.session(id)
        var state = session.state()
        ConsoleRedaction(redactor: journal.redactor).redact(&state)
        return try Self.sessionResponse(200, session, state: state)
    }

    /// `GET /ui/api/report?window=15m|1h|1d`: the HTML report (``HTMLRenderer``) of the
    /// sessions that started within the window, from this daemon's journal, committed first.
    /// It is served with a policy of its own that admits its inline style by hash.
    func consoleReport(_ request: HTTPRequest) async throws -> HTTPResponse {
        try checkConsoleServed(request)
        let name = request.queryValues("window").last ?? "1h"
        guard let window = ConsoleReportWindow(rawValue: name) else {
            throw APIError.invalidField("window", "one of \(ConsoleReportWindow.allCases.map(\.rawValue).joined(separator: ", "))", got: .string(name))
        }
        try await journal.flush()
        let directory = journal.configuration.directory
        let now = HostClock().now().wall
        let options = ReportOptions(since: now - window.nanoseconds)
        let html = try await Task.detached {
            let analysis = try FlowReport.read(journals: [directory], options: options)
            let header = HTMLReportHeader(version: navlogVersion, journals: [directory], filters: ["last \(window.title)"])
            return analysis.value.rendered(as: .html, title: "navlogd journeys, last \(window.title)", header: header)
        }.value
        return ConsolePages.report(html)
    }
}

/// The windows the journeys page offers.
enum ConsoleReportWindow: String, CaseIterable, Sendable {
    case fifteenMinutes = "15m"
    case hour = "1h"
    case day = "1d"

    var nanoseconds: Int64 {
        switch self {
        case .fifteenMinutes: 15 * 60 * 1_000_000_000
        case .hour: 3600 * 1_000_000_000
        case .day: 86_400 * 1_000_000_000
        }
    }

    /// `15 min`, `hour`, `day`, for titles.
    var title: String {
        switch self {
        case .fifteenMinutes: "15 min"
        case .hour: "hour"
        case .day: "day"
        }
    }
}

// MARK: - What the console may change

extension DaemonAPI {
    /// The 403 for a browser's request that would change something it may not, nil otherwise.
    ///
    /// A browser (``ConsoleAccess/isFromBrowser(_:)``) may read everything its token or cookie
    /// admits. It may post the login form, and perform an action on a session
    /// (`POST /v1/sessions/{id}/actions`) only with `ui.allow_actions` and from the daemon's own
    /// page (`Sec-Fetch-Site: same-origin` when sent). Anything else that changes state, from a
    /// browser, is refused: the console cannot create, end or drive a session behind the
    /// setting's back, and no other site's page can through the user's browser.
    func refuseConsoleChange(_ request: HTTPRequest, template: String) -> APIError? {
        guard request.method != "GET", request.method != "HEAD", ConsoleAccess.isFromBrowser(request) else { return nil }
        if let site = request.headers["sec-fetch-site"], site != "same-origin" {
            return APIError(status: 403, code: "cross_site_request",
                            detail: "\(request.method) \(request.path) came from another site's page (Sec-Fetch-Site: \(site)); navlogd accepts changes only from its own console")
        }
        if template == "/ui/login" { return nil }
        guard template == "/v1/sessions/{id}/actions" else {
            return APIError(status: 403, code: "console_read_only",
                            detail: "the web console may only perform actions (POST /v1/sessions/{id}/actions), not \(request.method) \(template); this request came from a browser")
        }
        guard settings.withLock({ $0.consoleAllowsActions }) else {
            return APIError(status: 403, code: "console_actions_disabled",
                            detail: "the web console may not change sessions: set ui.allow_actions to true in navlogd.json to let it perform actions")
        }
        return nil
    }
}
