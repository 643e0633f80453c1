import NavlogEvents
import NavlogHost
import NavlogJournal
import NavlogRuntime

/// What the API refuses, with its status and a JSON body `{"error": code, "detail": sentence}`.
public struct APIError: Error, Equatable, CustomStringConvertible {
    public var status: Int
    /// A stable machine-readable code, such as `unknown_session`.
    public var code: String
    /// A sentence a client can act on.
    public var detail: String
    public var headers: [String: String] = [:]

    public init(status: Int, code: String, detail: String, headers: [String: String] = [:]) {
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers
    }

    public var description: String { "\(status) \(code): \(detail)" }

    /// The error as an HTTP response.
    public var response: HTTPResponse {
        .json(status, ["error": .string(code), "detail": .string(detail)], headers: headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    // MARK: - Common errors

    static func malformedJSON(_ reason: String) -> APIError {
        APIError(status: 400, code: "malformed_json", detail: "the body is not valid JSON: \(reason)")
    }

    static func invalidField(_ path: String, _ expectation: String, got value: JSONValue?) -> APIError {
        APIError(status: 400, code: "invalid_field",
                 detail: "\(path) must be \(expectation), got \(value.map { ConfigurationReader.describe($0) } ?? "nothing")")
    }

    static func payloadTooLarge(limit: Int) -> APIError {
        APIError(status: 413, code: "payload_too_large", detail: "the body is larger than the limit of \(limit) bytes (limits.max_body_bytes)")
    }

    static func requestTimeout(seconds: Int) -> APIError {
        APIError(status: 408, code: "request_timeout", detail: "the request did not arrive whole within \(seconds) s (limits.request_timeout_s)")
    }

    static let shuttingDown = APIError(status: 503, code: "shutting_down", detail: "navlogd is shutting down; retry on another instance",
                                       headers: ["Retry-After": "1"])

    static let missingToken = APIError(status: 401, code: "unauthorized", detail: "send the configured token as 'Authorization: Bearer TOKEN'",
                                       headers: ["WWW-Authenticate": "Bearer realm=\"navlogd\""])

    static let invalidToken = APIError(status: 401, code: "unauthorized", detail: "the bearer token is not the configured one",
                                       headers: ["WWW-Authenticate": "Bearer realm=\"navlogd\", error=\"invalid_token\""])

    static func notFound(_ path: String) -> APIError {
        APIError(status: 404, code: "not_found", detail: "no endpoint \(path); see docs/openapi.yaml")
    }

    static func methodNotAllowed(_ method: String, _ path: String, allowed: [String]) -> APIError {
        APIError(status: 405, code: "method_not_allowed", detail: "\(method) is not allowed on \(path); allowed: \(allowed.joined(separator: ", "))",
                 headers: ["Allow": allowed.joined(separator: ", ")])
    }

    // MARK: - Mapping library errors

    /// The API's form of an error thrown by the host, the runtime or the journal.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as HostError:
            switch error {
            case .unknownSession: return APIError(status: 404, code: "unknown_session", detail: error.description)
            case .unknownApp: return APIError(status: 422, code: "unknown_app", detail: error.description)
            case .sessionLimit: return APIError(status: 429, code: "session_limit", detail: error.description, headers: ["Retry-After": "5"])
            case .sessionEnded: return APIError(status: 409, code: "session_ended", detail: error.description)
            case .duplicateApp, .notDeepLinkable: return APIError(status: 422, code: "rejected", detail: error.description)
            }
        case let error as AppParameterError:
            return APIError(status: 422, code: "invalid_parameter", detail: error.description)
        case let error as NavigationError:
            let status = error.code == "session_ended" ? 409 : 422
            return APIError(status: status, code: error.code, detail: error.description)
        case let error as JournalError:
            return APIError(status: 500, code: "journal_error", detail: "\(error)")
        case is CancellationError:
            return shuttingDown
        default:
            return APIError(status: 500, code: "internal_error", detail: "\(error)")
        }
    }
}
