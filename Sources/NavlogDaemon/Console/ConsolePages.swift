import Foundation
import NavlogEvents

/// The web console's responses: its page, the login form, the embedded assets and the report,
/// each with its Content-Security-Policy.
///
/// The console's own pages admit scripts and styles from the daemon only (`'self'`: the two
/// files of ``ConsoleAssets``), so nothing inline runs, nothing loads from elsewhere, and no
/// other site may frame them. The report (``HTMLRenderer``'s page, unchanged) carries one
/// inline `<style>` and `style` attributes on its SVGs; it is served with a policy of its own
/// that admits exactly those by their SHA-256 (``reportPolicy(for:)``) and no script at all.
enum ConsolePages {
    // MARK: - Policies

    /// The policy of every console page and asset.
    static let consolePolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
        "frame-src 'self'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// The policy of a report page: its inline style blocks and style attributes by hash, no
    /// scripts, framed only by the console.
    static func reportPolicy(for html: String) -> String {
        let blocks = inlineTexts(of: html, between: "<style>", and: "</style>")
        let attributes = Set(inlineTexts(of: html, between: " style=\"", and: "\"")).sorted()
        let hashes = (blocks + attributes).map { "'sha256-\(Data(LibCrypto.sha256($0.utf8)).base64EncodedString())'" }
        let styles = hashes.isEmpty ? "'none'" : (attributes.isEmpty ? "" : "'unsafe-hashes' ") + hashes.joined(separator: " ")
        return ["default-src 'none'", "style-src \(styles)", "img-src data:", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'self'"]
            .joined(separator: "; ")
    }

    /// The texts between each `start` and the next `end` in `html`, in order. Attribute values
    /// of the report are escaped (``HTMLRenderer/escape(_:)``), so they hold no `"`.
    static func inlineTexts(of html: String, between start: String, and end: String) -> [String] {
        var texts: [String] = []
        var rest = html[...]
        while let open = rest.range(of: start), let close = rest[open.upperBound...].range(of: end) {
            texts.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return texts
    }

    /// The headers of every console response but the report's: the policy, no sniffing, no
    /// referrer, no caching (the page changes with the settings).
    static func headers(contentType: String, policy: String = consolePolicy) -> [(name: String, value: String)] {
        [("Content-Type", contentType), ("Content-Security-Policy", policy), ("X-Content-Type-Options", "nosniff"),
         ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-store")]
    }

    // MARK: - Responses

    /// The console's single page; the script reads `data-allow-actions` and
    /// `data-timeline-after` (the journal cursor where this run began) from its body.
    static func console(allowsActions: Bool, timelineAfter: String) -> HTTPResponse {
        let page = ConsoleAssets.page.replacingOccurrences(of: "{{ALLOW_ACTIONS}}", with: allowsActions ? "true" : "false")
            .replacingOccurrences(of: "{{TIMELINE_AFTER}}", with: timelineAfter)
        return HTTPResponse(status: 200, headers: headers(contentType: "text/html; charset=utf-8"), body: Array(page.utf8))
    }

    /// The login form, with `problem` (one of the daemon's own sentences, no markup) above it.
    static func login(status: Int, problem: String?) -> HTTPResponse {
        let notice = problem.map { "<p class=\"problem\" role=\"alert\">\($0)</p>" } ?? ""
        let page = ConsoleAssets.loginPage.replacingOccurrences(of: "{{PROBLEM}}", with: notice)
        var all = headers(contentType: "text/html; charset=utf-8")
        all.append(("WWW-Authenticate", "Bearer realm=\"navlogd\""))
        return HTTPResponse(status: status, headers: all, body: Array(page.utf8))
    }

    /// An embedded asset.
    static func asset(_ asset: ConsoleAssets.Asset) -> HTTPResponse {
        HTTPResponse(status: 200, headers: headers(contentType: asset.contentType), body: Array(asset.text.utf8))
    }

    /// A report page under its own policy.
    static func report(_ html: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: headers(contentType: "text/html; charset=utf-8", policy: reportPolicy(for: html)), body: Array(html.utf8))
    }

    /// 303 See Other to `location`, setting `cookie` when given.
    static func redirect(to location: String, cookie: String?) -> HTTPResponse {
        var all = headers(contentType: "text/plain; charset=utf-8")
        all.append(("Location", location))
        if let cookie { all.append(("Set-Cookie", cookie)) }
        return HTTPResponse(status: 303, headers: all, body: Array("see \(location)\n".utf8))
    }

    // MARK: - Forms and text

    /// The value of `name` in an `application/x-www-form-urlencoded` body, decoded; nil when
    /// absent or not valid percent-encoding.
    static func formValue(_ name: String, in body: [UInt8]) -> String? {
        let text = String(decoding: body, as: UTF8.self)
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == name else { continue }
            return parts[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        return nil
    }
}
