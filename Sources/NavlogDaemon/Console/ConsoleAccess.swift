import NavlogEvents

/// Who may use the web console, and how the daemon tells the console's requests apart.
///
/// Beyond loopback the daemon has a token. A browser cannot send it as a header for a page
/// load, so the console's login form posts it once (`POST /ui/login`) and gets a cookie back:
/// `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's page sends it), valid
/// until the daemon restarts or the token changes. Its value is an HMAC of the token under a
/// key drawn when the process starts, so the cookie is not the token and does not outlive it.
///
/// A request is the console's (a browser's) when it carries an `Origin` or a `Sec-Fetch-Site`
/// header: clients such as curl or `navlog` send neither. Such a request
/// may read; it may change a session only by an action, only with `ui.allow_actions`, and only
/// from the daemon's own pages (``DaemonAPI/refuseConsoleChange(_:template:)``).
struct ConsoleAccess: Sendable {
    /// The cookie's name.
    static let cookieName = "navlog_console"

    private let hmac: HMACSHA256

    init() {
        var generator = SystemRandomNumberGenerator()
        hmac = HMACSHA256(key: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The cookie's value for `token`: 64 hex digits.
    func cookieValue(for token: String) -> String {
        hmac.authenticationCode(for: token.utf8).hexString
    }

    /// The `Set-Cookie` header value that logs a browser in with `token`.
    func setCookieHeader(for token: String) -> String {
        "\(Self.cookieName)=\(cookieValue(for: token)); Path=/; HttpOnly; SameSite=Strict"
    }

    /// Whether `request` carries the console cookie of `token`.
    func admits(_ request: HTTPRequest, token: String) -> Bool {
        guard let header = request.headers["cookie"], let given = Self.cookie(named: Self.cookieName, in: header) else { return false }
        return Self.isEqualInConstantTime(given, cookieValue(for: token))
    }

    // MARK: - Reading requests

    /// The value of cookie `name` in a `Cookie` header (`a=1; b=2`), nil when absent.
    static func cookie(named name: String, in header: String) -> Substring? {
        for pair in header.split(separator: ";") {
            let trimmed = pair.drop { $0 == " " }
            guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
            return trimmed[trimmed.index(after: equals)...]
        }
        return nil
    }

    /// Whether a browser sent `request`: it has an `Origin` or a `Sec-Fetch-Site` header.
    /// Browsers send `Origin` with every request but GET and HEAD, same-origin ones included
    /// (the Fetch standard), and the console cookie only with what it sends from navlogd's
    /// own pages, so a change from a browser always shows itself this way.
    static func isFromBrowser(_ request: HTTPRequest) -> Bool {
        request.headers["origin"] != nil || request.headers["sec-fetch-site"] != nil
    }

    /// Compares a secret given by a client with the expected one in time that depends only on
    /// the lengths, so that timing tells nothing about where they differ.
    static func isEqualInConstantTime(_ given: some StringProtocol, _ expected: String) -> Bool {
        let given = Array(given.utf8)
        let expected = Array(expected.utf8)
        var difference = given.count ^ expected.count
        for index in expected.indices { difference |= Int(expected[index] ^ (index < given.count ? given[index] : 0)) }
        return difference == 0
    }
}
