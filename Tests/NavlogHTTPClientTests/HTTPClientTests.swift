import Foundation
import NavlogHTTPClient
import XCTest

/// ``HTTPClient`` against test-side servers: chunked answers, Unix sockets, IPv6, redirects,
/// and the errors of an unreachable or silent server.
final class HTTPClientTests: XCTestCase {
    /// The JSON echo of the test server, as a dictionary.
    private func echo(_ response: HTTPResponse) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], String(decoding: response.body, as: UTF8.self))
    }

    func testAChunkedAnswerIsReadWhole() throws {
        let server = try TestServer(self, on: "ipv4")
        let response = try HTTPClient().send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(server.port)/chunked"))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "first," + String(repeating: "second,", count: 1000) + "third")
    }

    func testRequestsSendTheirMethodHeadersAndBodyOnOneConnection() throws {
        let server = try TestServer(self, on: "ipv4")
        let client = try HTTPClient()
        let posted = try echo(client.send(HTTPRequest(method: "POST", url: "http://127.0.0.1:\(server.port)/v1/things?x=1",
                                                       headers: ["Authorization": "Bearer t", "Content-Type": "application/json"],
                                                       body: Array(#"{"a": 1}"#.utf8))))
        XCTAssertEqual(posted["method"] as? String, "POST")
        XCTAssertEqual(posted["path"] as? String, "/v1/things?x=1")
        XCTAssertEqual(posted["body"] as? String, #"{"a": 1}"#)
        let headers = try XCTUnwrap(posted["headers"] as? [String: String])
        XCTAssertEqual(headers["authorization"], "Bearer t")
        XCTAssertEqual(headers["content-type"], "application/json")
        XCTAssertNil(headers["expect"], "no Expect: 100-continue")
        let deleted = try echo(client.send(HTTPRequest(method: "DELETE", url: "http://127.0.0.1:\(server.port)/v1/things/1")))
        XCTAssertEqual(deleted["method"] as? String, "DELETE")
        XCTAssertEqual(deleted["body"] as? String, "")
        XCTAssertNil((deleted["headers"] as? [String: String])?["content-type"], "no form Content-Type invented")
    }

    func testARequestOverAUnixSocket() throws {
        let path = NSTemporaryDirectory() + "http-client-\(UUID().uuidString.prefix(8)).sock"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        _ = try TestServer(self, on: path)
        let response = try HTTPClient().send(HTTPRequest(method: "PUT", url: "http://localhost/v1/over-the-socket", body: Array("hi".utf8),
                                                         unixSocketPath: path))
        XCTAssertEqual(response.status, 200)
        let answer = try echo(response)
        XCTAssertEqual(answer["path"] as? String, "/v1/over-the-socket")
        XCTAssertEqual(answer["method"] as? String, "PUT")
        XCTAssertEqual(answer["body"] as? String, "hi")
    }

    func testAnIPv6LoopbackURL() throws {
        let server = try TestServer(self, on: "ipv6")  // skips when ::1 cannot be bound
        let response = try HTTPClient().send(HTTPRequest(method: "GET", url: "http://[::1]:\(server.port)/v1/six"))
        XCTAssertEqual(try echo(response)["path"] as? String, "/v1/six")
    }

    func testARedirectIsReturnedNotFollowed() throws {
        let server = try TestServer(self, on: "ipv4")
        let response = try HTTPClient().send(HTTPRequest(method: "GET", url: "http://127.0.0.1:\(server.port)/redirect"))
        XCTAssertEqual(response.status, 302)
    }

    func testAnUnreachablePortIsAnErrorNamingTheURL() throws {
        let port: Int
        do {
            let listener = try SilentListener()  // a port that was free, closed again below
            port = listener.port
        }
        let url = "http://127.0.0.1:\(port)/v1/traces"
        XCTAssertThrowsError(try HTTPClient().send(HTTPRequest(method: "POST", url: url, body: [1]))) { error in
            let failure = error as? HTTPClientError
            XCTAssertEqual(failure?.code, 7, "\(error)")
            XCTAssertEqual(failure?.isConnectionFailure, true)
            XCTAssertTrue("\(error)".hasPrefix("POST \(url) failed: "), "\(error)")
            XCTAssertTrue("\(error)".hasSuffix("(curl error 7); check that the server runs and listens at that address"), "\(error)")
        }
        let socket = NSTemporaryDirectory() + "gone-\(UUID().uuidString.prefix(8)).sock"
        XCTAssertThrowsError(try HTTPClient().send(HTTPRequest(method: "GET", url: "http://localhost/v1/sessions", unixSocketPath: socket))) { error in
            XCTAssertEqual((error as? HTTPClientError)?.isConnectionFailure, true, "\(error)")
            XCTAssertTrue("\(error)".hasPrefix("GET http://localhost/v1/sessions over the Unix socket \(socket) failed: "), "\(error)")
        }
    }

    func testTheTimeoutIsHonoured() throws {
        let listener = try SilentListener()
        let url = "http://127.0.0.1:\(listener.port)/v1/slow"
        let started = ContinuousClock.now
        XCTAssertThrowsError(try HTTPClient().send(HTTPRequest(method: "GET", url: url, timeout: .milliseconds(300)))) { error in
            XCTAssertEqual((error as? HTTPClientError)?.isTimeout, true, "\(error)")
            XCTAssertTrue("\(error)".hasPrefix("GET \(url) failed: "), "\(error)")
        }
        let elapsed = ContinuousClock.now - started
        // curl counts its timeout in whole milliseconds from a clock read of its own, a little
        // after ours: it ended 0.29994 s after `started` once, so a millisecond's leeway.
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(299), "the request ended before its 300 ms timeout")
        XCTAssertLessThan(elapsed, .seconds(5), "the 300 ms timeout was not honoured")
    }

    func testOtherSchemesAreRefused() throws {
        XCTAssertThrowsError(try HTTPClient().send(HTTPRequest(method: "GET", url: "file:///etc/passwd"))) { error in
            XCTAssertEqual((error as? HTTPClientError)?.code, 1, "\(error)")
        }
    }
}
