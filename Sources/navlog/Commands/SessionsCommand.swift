import Foundation
import NavlogEvents
import NavlogHTTPClient

/// `navlog sessions`: the live sessions of a running navlogd, through its API.
struct SessionsCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "sessions",
        abstract: "List the live sessions of a running navlogd.",
        discussion: """
            Asks GET /v1/sessions over the daemon's Unix socket or TCP address. Without --socket \
            or --url it looks, in order, at --config's listen.unix_socket (else its listen.tcp), \
            $NAVLOGD_SOCKET, ./navlogd.sock and /run/navlogd/navlogd.sock (the systemd unit's \
            RuntimeDirectory).
            """,
        options: [
            .value("socket", "PATH", help: "The daemon's Unix socket."),
            .value("config", "FILE", help: "The daemon's configuration file, to take its socket or TCP address from."),
            .value("url", "URL", help: "The daemon's TCP address instead, such as http://127.0.0.1:7878 or http://[::1]:7878."),
            .value("token", "TOKEN", help: "The bearer token, when the daemon requires one (or set NAVLOG_TOKEN)."),
            .value("output", short: "o", "FORMAT", help: "text or json.", default: "text"),
        ]
    )

    let socket: String
    /// Whether `socket` is only the first default, nothing having said where the daemon is.
    let isGuessedSocket: Bool
    /// `http[s]://host:port`, without a path, when `--url` is given.
    let url: String?
    let token: String?
    let format: String

    /// Where the daemon's socket is looked for when neither --socket, --url, --config nor
    /// `NAVLOGD_SOCKET` says: the working directory (navlogd's default), then the systemd unit's.
    static let defaultSockets = ["navlogd.sock", "/run/navlogd/navlogd.sock"]

    init(_ arguments: ParsedArguments) throws {
        var configuredURL: String?
        var configuredSocket: String?
        if let path = arguments.value("config") {
            (configuredSocket, configuredURL) = try Self.listen(inConfig: path)
        }
        let environment = ProcessInfo.processInfo.environment["NAVLOGD_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        let found = Self.defaultSockets.first { FileManager.default.fileExists(atPath: $0) }
        socket = arguments.value("socket") ?? configuredSocket ?? environment ?? found ?? Self.defaultSockets[0]
        isGuessedSocket = arguments.value("socket") == nil && configuredSocket == nil && environment == nil && found == nil
        if arguments.value("url") == nil, arguments.value("socket") == nil, configuredSocket == nil, let configuredURL {
            url = configuredURL
        } else if let text = arguments.value("url") {
            let scheme = text.hasPrefix("https://") ? "https" : "http"
            let address = text.hasPrefix(scheme + "://") ? String(text.dropFirst(scheme.count + 3)) : text
            let trimmed = address.hasSuffix("/") ? String(address.dropLast()) : address
            guard let colon = trimmed.lastIndex(of: ":"), let port = Int(trimmed[trimmed.index(after: colon)...]),
                (1...65535).contains(port), colon != trimmed.startIndex, !trimmed[..<colon].contains("/")
            else {
                throw UsageError("option '--url' must look like http://127.0.0.1:7878, not '\(text)'")
            }
            url = "\(scheme)://\(trimmed[..<colon]):\(port)"
        } else {
            url = nil
        }
        token = arguments.value("token") ?? ProcessInfo.processInfo.environment["NAVLOG_TOKEN"]
        format = try arguments.choice("output", ["text", "json"], default: "text")
    }

    /// The `listen.unix_socket` and `listen.tcp` URL of a navlogd configuration file; a
    /// relative socket path is taken from the working directory, as navlogd started here would.
    static func listen(inConfig path: String) throws -> (socket: String?, url: String?) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
            throw UsageError("option '--config': no such file '\(path)'")
        } catch {
            throw UsageError("option '--config': '\(path)' is not a navlogd configuration: \(error)")
        }
        let listen = json["listen"]
        let socket = listen?["unix_socket"]?.stringValue
        var url: String?
        if let host = listen?["tcp"]?["host"]?.stringValue, let port = listen?["tcp"]?["port"]?.intValue, port > 0 {
            url = "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        }
        guard socket != nil || url != nil else {
            throw UsageError("option '--config': '\(path)' has neither listen.unix_socket nor listen.tcp with a port")
        }
        return (socket, url)
    }

    func run() async throws -> Int32 {
        if url == nil, isGuessedSocket {
            throw CommandFailure("cannot find navlogd: no socket at ./\(Self.defaultSockets[0]) or \(Self.defaultSockets[1]); give --socket, --url, --config or NAVLOGD_SOCKET")
        }
        let place = url ?? "unix socket '\(socket)'"
        var headers: [String: String] = [:]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        let request = HTTPRequest(method: "GET", url: (url ?? "http://localhost") + "/v1/sessions", headers: headers, timeout: .seconds(10),
                                  unixSocketPath: url == nil ? socket : nil)
        let response: HTTPResponse
        do {
            let client = try HTTPClient()
            defer { client.close() }
            response = try client.send(request)
        } catch let error as HTTPClientError where error.isConnectionFailure {
            // curl names a Unix socket's failure as one to localhost port 80: say what happened instead.
            let detail = url != nil ? error.message : FileManager.default.fileExists(atPath: socket) ? "nothing accepts connections on it" : "no such socket"
            throw CommandFailure("cannot reach navlogd at \(place): \(detail)")
        } catch let error as HTTPClientError {
            throw CommandFailure("navlogd at \(place) did not answer: \(error.message) (curl error \(error.code))")
        } catch {
            throw CommandFailure("navlogd at \(place) did not answer: \(error)")
        }
        let body = try? JSONValue(parsing: Data(response.body))
        guard response.status == 200, let sessions = body?["sessions"]?.arrayValue else {
            let detail = body?["detail"]?.stringValue ?? String(decoding: response.body.prefix(200), as: UTF8.self)
            throw CommandFailure("navlogd at \(place) answered \(response.status): \(detail)")
        }
        if format == "json" {
            Output.standardOutput(JSONValue.array(sessions).serialized() + "\n")
            return ExitCode.success
        }
        // Columns as wide as their widest value; the start to the second, in UTC.
        let rows: [[String]] = [["session", "app", "screen", "events", "started", "idle", "last action"]] + sessions.map { session in
            let started = session["started_at"]?.stringValue.map { $0.count > 19 ? String($0.prefix(19)) + "Z" : $0 } ?? "?"
            return [
                session["id"]?.stringValue ?? "?", session["app"]?.stringValue ?? "?", session["screen"]?.stringValue ?? "-",
                session["events"]?.intValue.map(String.init) ?? "?", started,
                session["idle_seconds"]?.doubleValue.map { String(format: "%.0fs", $0) } ?? "?", session["last_action"]?.stringValue ?? "-",
            ]
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var lines = rows.map { row in
            row.enumerated().map { column, value in column == row.count - 1 ? value : value.padding(toLength: widths[column], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }
        let runs = Set(sessions.compactMap { $0["run"]?.stringValue }).sorted()
        lines.append("\(sessions.count) live session(s)" + (runs.isEmpty ? "" : " in run \(runs.joined(separator: ", "))"))
        Output.standardOutput(lines.joined(separator: "\n") + "\n")
        return ExitCode.success
    }
}
