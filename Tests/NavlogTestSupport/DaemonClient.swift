import Foundation
import NavlogHTTPClient

/// A keep-alive client of a test daemon, over its Unix socket or its TCP port on loopback,
/// through ``HTTPClient`` (libcurl): the client `navlog sessions` and the OTLP push use.
public final class DaemonClient {
    private let client: HTTPClient
    private let base: String
    private let unixSocketPath: String?
    private let timeout: Duration

    /// A client of the daemon listening on the Unix socket at `path`; each request may take
    /// `timeoutSeconds` at most.
    public init(unixSocket path: String, timeoutSeconds: Int = 30) throws {
        client = try HTTPClient()
        base = "http://localhost"
        unixSocketPath = path
        timeout = .seconds(timeoutSeconds)
    }

    /// A client of the daemon listening on `127.0.0.1:port`.
    public init(port: Int, timeoutSeconds: Int = 30) throws {
        client = try HTTPClient()
        base = "http://127.0.0.1:\(port)"
        unixSocketPath = nil
        timeout = .seconds(timeoutSeconds)
    }

    /// Sends one request and reads its answer; throws ``HTTPClientError`` when none came.
    public func send(_ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = []) throws -> (status: Int, body: [UInt8]) {
        let response = try client.send(HTTPRequest(method: method, url: base + path, headers: headers, body: body, timeout: timeout,
                                                   unixSocketPath: unixSocketPath))
        return (response.status, response.body)
    }
}
