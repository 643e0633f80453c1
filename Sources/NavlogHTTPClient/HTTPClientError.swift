import CCurl

/// A request that failed before a whole answer arrived: libcurl's result code and message,
/// and the request at fault.
///
/// Its description is one sentence an operator can act on:
/// `POST https://127.0.0.1:4318/v1/traces failed: SSL certificate problem: self-signed certificate
/// (curl error 60); check the server's certificate, or give the CA file that signed it`.
/// The codes are [libcurl's](https://curl.se/libcurl/c/libcurl-errors.html).
public struct HTTPClientError: Error, Equatable, CustomStringConvertible {
    /// The `CURLcode`, such as 7 (could not connect) or 28 (timed out).
    public var code: Int
    /// libcurl's message: the error buffer when it says something, else `curl_easy_strerror`.
    public var message: String
    public var method: String
    public var url: String
    /// The Unix socket the request went to, if any.
    public var unixSocketPath: String?

    public init(code: Int, message: String, method: String, url: String, unixSocketPath: String? = nil) {
        self.code = code
        self.message = message
        self.method = method
        self.url = url
        self.unixSocketPath = unixSocketPath
    }

    init(_ code: CURLcode, errorBuffer: UnsafePointer<CChar>?, request: HTTPRequest) {
        let detail = errorBuffer.map { String(cString: $0) } ?? ""
        self.init(
            code: Int(code.rawValue), message: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail,
            method: request.method, url: request.url, unixSocketPath: request.unixSocketPath
        )
    }

    /// Whether no connection could be made: the host did not resolve, or nothing listens there.
    public var isConnectionFailure: Bool {
        code == Int(CURLE_COULDNT_RESOLVE_HOST.rawValue) || code == Int(CURLE_COULDNT_CONNECT.rawValue)
    }

    /// Whether the request took longer than its timeout.
    public var isTimeout: Bool { code == Int(CURLE_OPERATION_TIMEDOUT.rawValue) }

    /// Whether the server's certificate could not be verified, or the CA file could not be used.
    public var isCertificateProblem: Bool {
        code == Int(CURLE_PEER_FAILED_VERIFICATION.rawValue) || code == Int(CURLE_SSL_CACERT_BADFILE.rawValue)
    }

    public var description: String {
        let target = unixSocketPath.map { "\(url) over the Unix socket \($0)" } ?? url
        return "\(method) \(target) failed: \(message) (curl error \(code)); \(advice)"
    }

    /// What to do about the error, by its code.
    private var advice: String {
        switch UInt32(truncatingIfNeeded: code) {
        case CURLE_UNSUPPORTED_PROTOCOL.rawValue: return "use an http:// or https:// URL"
        case CURLE_URL_MALFORMAT.rawValue: return "check the URL"
        case CURLE_COULDNT_RESOLVE_HOST.rawValue: return "check the host name"
        case CURLE_COULDNT_CONNECT.rawValue:
            return unixSocketPath == nil ? "check that the server runs and listens at that address" : "check that the server runs and listens on that socket"
        case CURLE_OPERATION_TIMEDOUT.rawValue: return "the server did not answer in time; check that it is not overloaded, or allow a longer timeout"
        case CURLE_SSL_CONNECT_ERROR.rawValue: return "check that the server speaks TLS at that address"
        case CURLE_PEER_FAILED_VERIFICATION.rawValue: return "check the server's certificate, or give the CA file that signed it"
        case CURLE_SSL_CACERT_BADFILE.rawValue: return "check that the CA file is a readable PEM certificate"
        case CURLE_GOT_NOTHING.rawValue: return "the server closed the connection without answering"
        case CURLE_SEND_ERROR.rawValue, CURLE_RECV_ERROR.rawValue: return "the connection broke; try again"
        default: return "see https://curl.se/libcurl/c/libcurl-errors.html"
        }
    }
}
