import Foundation
import NavlogEvents
import NavlogHost
import NavlogRuntime

// MARK: - Sessions

extension DaemonAPI {
    /// `POST /v1/sessions` with `{"app": NAME, "parameters": {…}}`: 201 and the new session.
    func createSession(_ request: HTTPRequest) async throws -> HTTPResponse {
        var body = try RequestBody(request.body)
        let appName = try body.string("app", isRequired: true)!
        let rawParameters = body.value("parameters")
        try body.finish()
        let live = settings.withLock { $0 }
        guard let enabled = live.apps[appName] else {
            throw APIError(status: 422, code: "unknown_app",
                           detail: "app '\(appName)' is not enabled; enabled apps: \(live.appOrder.isEmpty ? "none" : live.appOrder.joined(separator: ", "))")
        }
        let given = try Self.parameterTexts(rawParameters, of: try catalog.app(named: appName))
        let parameters = enabled.parameters.merging(given) { _, client in client }
        let floor = journal.lastRecordedSeq
        let session = try await registry.create(appName: appName, parameters: parameters, attributes: ["origin": "api"])
        metrics.recordSessionCreated()
        try await makeDurable(after: floor)
        let state = session.state()
        return try Self.sessionResponse(201, session, state: state, headers: [("Location", "/v1/sessions/\(session.id)")])
    }

    /// The `parameters` of a create request as the text the app parses, each value of its
    /// parameter's JSON type (docs/openapi.yaml): a string for text and choices, an integer, a
    /// number, or a boolean. A name the app does not declare is left for the app to refuse (422).
    static func parameterTexts(_ raw: JSONValue?, of app: AppDefinition) throws -> [String: String] {
        guard let raw else { return [:] }
        guard case .object(let values) = raw else { throw APIError.invalidField("parameters", "an object", got: raw) }
        var texts: [String: String] = [:]
        for (name, value) in values {
            guard let parameter = app.parameters.first(where: { $0.name == name }) else {
                texts[name] = DaemonConfiguration.parameterText(value) ?? value.serialized()
                continue
            }
            let text: String?
            switch parameter.kind {
            case .string, .choice: text = value.stringValue
            case .integer: text = value.intValue.map { String($0) }
            case .number: text = value.doubleValue.flatMap { $0.isFinite ? String($0) : nil }
            case .boolean: text = value.boolValue.map { String($0) }
            }
            guard let text else {
                throw APIError.invalidField("parameters.\(name)", Self.jsonType(of: parameter.kind), got: value)
            }
            texts[name] = text
        }
        return texts
    }

    /// What a parameter of `kind` must be in JSON, for errors.
    private static func jsonType(of kind: AppParameter.Kind) -> String {
        switch kind {
        case .string: "a string"
        case .choice(let options): "a string, one of \(options.joined(separator: ", "))"
        case .integer: "an integer"
        case .number: "a number"
        case .boolean: "true or false"
        }
    }

    /// `GET /v1/sessions`: the live sessions with their app and idle time.
    func listSessions() async throws -> HTTPResponse {
        var sessions: [JSONValue] = []
        for session in await registry.all {
            let idle = session.lastActivity.duration(to: .now)
            let summary = session.summary()
            sessions.append([
                "id": .string(session.id), "app": .string(session.appName),
                "idle_seconds": .int(idle.components.seconds),
                "run": .string(journal.runID), "started_at": .string(Event.formatTime(session.startedWallNanoseconds)),
                "events": .int(Int64(summary.eventCount)), "screen": summary.screen.map(JSONValue.string) ?? .null,
                "last_action": summary.lastCommand.map(JSONValue.string) ?? .null,
            ])
        }
        return .json(200, ["sessions": .array(sessions)])
    }

    /// `GET /v1/sessions/{id}`: the navigation state and the visible screen's rendering.
    func describeSession(_ id: String) throws -> HTTPResponse {
        let session = try registry.session(id)
        return try Self.sessionResponse(200, session, state: session.state())
    }

    /// `DELETE /v1/sessions/{id}`: ends the session (`session.end` is recorded).
    func endSession(_ id: String) async throws -> HTTPResponse {
        let floor = journal.lastRecordedSeq
        try await registry.end(id, reason: "client")
        metrics.recordSessionsEnded(1, reason: .client)
        try await makeDurable(after: floor)
        return .json(200, ["id": .string(id), "ended": true])
    }

    /// `POST /v1/sessions/{id}/actions`: performs one command; 200 and the state after it.
    ///
    /// Bodies: `{"element": ID, "value"?: TEXT|BOOL}` (the default type `action`),
    /// `{"type": "back"}`, `{"type": "dismiss"}`, `{"type": "select_tab", "tab": TITLE}`,
    /// `{"type": "wait", "ms": N}`.
    func performAction(_ id: String, _ request: HTTPRequest) throws -> Answer {
        let command = try parseCommand(request.body)
        return try run(command, on: try registry.session(id))
    }

    /// `POST /v1/sessions/{id}/deeplinks` with `{"url": URL}`: 200 and the state after it.
    func followDeepLink(_ id: String, _ request: HTTPRequest) throws -> Answer {
        var body = try RequestBody(request.body)
        let url = try body.string("url", isRequired: true)!
        try body.finish()
        return try run(.deepLink(url), on: try registry.session(id))
    }

    /// Runs `command` now, on the caller's thread, and answers 200 with the state after it;
    /// a real-time `wait` and `flush_per_request` durability answer later, after the wait or
    /// the commit, so no server thread is held meanwhile.
    func run(_ command: SessionCommand, on session: Session) throws -> Answer {
        if !session.waits(command) && !flushesPerRequest {
            return .now(try Self.sessionResponse(200, session, state: try session.performNow(command)))
        }
        return .later {
            let floor = self.journal.lastRecordedSeq
            let state = try await session.perform(command)
            try await self.makeDurable(after: floor)
            return try Self.sessionResponse(200, session, state: state)
        }
    }

    /// Reads an actions body into a command; 400 naming the field at fault.
    func parseCommand(_ bytes: [UInt8]) throws -> SessionCommand {
        var body = try RequestBody(bytes)
        let type = try body.string("type") ?? "action"
        let command: SessionCommand
        switch type {
        case "action":
            let element = try body.string("element", isRequired: true)!
            var value: String?
            switch body.value("value") {
            case nil, .null?: value = nil
            case .string(let text)?: value = text
            case .bool(let flag)?: value = String(flag)
            case let other?: throw APIError.invalidField("value", "a string or boolean", got: other)
            }
            command = .action(element: element, value: value)
        case "back": command = .back
        case "dismiss": command = .dismiss
        case "select_tab": command = .selectTab(try body.string("tab", isRequired: true)!)
        case "wait":
            let limit = Int64(settings.withLock { $0.requestTimeoutSeconds }) * 1000 / 2
            guard let raw = body.value("ms"), let milliseconds = raw.intValue, (0...limit).contains(milliseconds) else {
                throw APIError.invalidField("ms", "an integer from 0 to \(limit) (half of limits.request_timeout_s)", got: body.value("ms"))
            }
            command = .wait(nanoseconds: UInt64(milliseconds) * 1_000_000)
        default:
            throw APIError.invalidField("type", "one of action, back, dismiss, select_tab, wait", got: .string(type))
        }
        try body.finish()
        return command
    }

    /// The headers of a JSON answer, built once.
    private static let jsonHeaders: [(name: String, value: String)] = [("Content-Type", "application/json")]

    /// `{"id", "app", "state"}` with the state written once, straight into the body
    /// (``NavigationState/write(to:)``, the state's one serialization).
    static func sessionResponse(_ status: Int, _ session: Session, state: NavigationState,
                                headers: [(name: String, value: String)] = []) throws -> HTTPResponse {
        var body: [UInt8] = []
        body.reserveCapacity(2048)
        body += "{\"app\":".utf8
        JSONValue.writeString(session.appName, to: &body)
        body += ",\"id\":".utf8
        JSONValue.writeString(session.id, to: &body)
        body += ",\"state\":".utf8
        state.write(to: &body)
        body += "}\n".utf8
        return HTTPResponse(status: status, headers: headers.isEmpty ? jsonHeaders : jsonHeaders + headers, body: body)
    }
}
