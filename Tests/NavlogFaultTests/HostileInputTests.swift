import Foundation
import NavlogDaemon
import NavlogEvents
import NavlogHost
import NavlogTestSupport
import NavlogTesting
import XCTest

/// Hostile input to `navlogd`: mutated configuration files, and mutated request bodies and
/// paths sent to a running daemon. Bad input is refused (config: key path; HTTP: 4xx with a
/// JSON error); nothing crashes and the daemon keeps serving.
final class HostileInputTests: XCTestCase {
    func testMutatedConfigurationsAreAcceptedOrRefusedWithAKeyPath() {
        let seed = Array(DaemonConfiguration.defaultText.utf8)
        let other = Array(#"{"privacy": {"mode": "remove", "redact": ["ProfileViewModel.name", "action.value:*"]}, "testing": {"wall_clock_offset_s": -5}}"#.utf8)
        var mutator = Mutator(seed: 7)
        var refused = 0
        for index in 0..<3000 {
            let input = mutator.mutate(index % 5 == 0 ? other : seed, splicing: [seed, other])
            do {
                _ = try DaemonConfiguration(parsing: String(decoding: input, as: UTF8.self), catalog: AppCatalog.sampleSignatures)
            } catch let error as ConfigurationError {
                refused += 1
                XCTAssertFalse(error.message.isEmpty)
            } catch {
                XCTFail("not a ConfigurationError: \(error)")
            }
        }
        XCTAssertGreaterThan(refused, 1000)
        FileHandle.standardError.write(Data("fuzz: configurations: 3000 cases, \(refused) refused with a key path, no crash\n".utf8))
    }

    func testMutatedRequestBodiesAndPathsGetA4xxAndTheDaemonKeepsServing() throws {
        let daemon = try DaemonHarness(self, overrides: ["limits": ["max_sessions": 50, "max_body_bytes": 8192, "request_timeout_s": 2]])
        var connection = try DaemonClient(unixSocket: daemon.socketPath, timeoutSeconds: 20)
        var reconnects = 0
        let created = try connection.send("POST", "/v1/sessions", body: Array(#"{"app": "master-detail"}"#.utf8))
        XCTAssertEqual(created.status, 201)
        let bodies: [(path: String, body: [UInt8])] = [
            ("/v1/sessions", #"{"app": "tabs", "parameters": {"start_tab": "settings"}}"#),
            ("/v1/sessions/s-1/actions", #"{"element": "next-day"}"#),
            ("/v1/sessions/s-1/actions", #"{"type": "select_tab", "tab": "Settings"}"#),
            ("/v1/sessions/s-1/actions", #"{"type": "wait", "ms": 1}"#),
            ("/v1/sessions/s-1/actions", #"{"element": "share-recipient", "value": "a@b.c"}"#),
            ("/v1/sessions/s-1/deeplinks", #"{"url": "tabs://settings/profile"}"#),
        ].map { ($0.0, Array($0.1.utf8)) }
        let paths = ["/v1/sessions/s-1/actions", "/v1/sessions/s-1", "/v1/health", "/v1/apps", "/metrics", "/v1/journal/rotate"].map { Array($0.utf8) }
        // No HEAD: the test's client would wait for the body a HEAD answer announces but omits.
        let methods = ["GET", "POST", "DELETE", "PUT", "PATCH"]
        var mutator = Mutator(seed: 11)
        var statuses: [Int: Int] = [:]
        var serverErrors: [String] = []
        for index in 0..<2500 {
            let request: (method: String, path: String, body: [UInt8])
            if index % 3 == 2 {
                var path = String(decoding: mutator.mutate(paths[mutator.below(paths.count)]), as: UTF8.self)
                    .filter { $0.isASCII && !$0.isWhitespace && $0 != "\u{0}" && $0.asciiValue ?? 0 > 32 }
                if !path.hasPrefix("/") { path = "/" + path }
                request = (methods[mutator.below(methods.count)], path, [])
            } else {
                let seed = bodies[mutator.below(bodies.count)]
                request = ("POST", seed.path, mutator.mutate(seed.body, splicing: bodies.map(\.body)))
            }
            guard request.method != "POST" || request.path != "/v1/journal/rotate" || index % 50 == 0 else { continue }
            let reply: (status: Int, body: [UInt8])
            do {
                reply = try connection.send(request.method, request.path, body: request.body)
            } catch {
                // The server may close a connection after refusing a request; the daemon must live on.
                XCTAssertTrue(daemon.process.isRunning, "navlogd died on \(request.method) \(request.path) \(request.body):\n\(daemon.log)")
                guard daemon.process.isRunning else { return }
                reconnects += 1
                connection = try DaemonClient(unixSocket: daemon.socketPath, timeoutSeconds: 20)
                continue
            }
            statuses[reply.status, default: 0] += 1
            if reply.status >= 500 {
                serverErrors.append("\(reply.status) \(request.method) \(request.path) \(String(decoding: request.body, as: UTF8.self)): \(String(decoding: reply.body, as: UTF8.self))")
            }
            if reply.status >= 400 {
                XCTAssertNotNil(try? JSONValue(parsing: Data(reply.body))["error"], "\(reply.status) without a JSON error")
            }
        }
        XCTAssertEqual(serverErrors, [], "5xx answers to client mistakes")
        XCTAssertEqual(try daemon.request("GET", "/v1/health").status, 200)
        XCTAssertEqual(daemon.terminate(), 0, daemon.log)
        let verified = try verifyJournal(daemon.directory + "/journal")
        XCTAssertEqual(verified.status, 0, verified.output)
        let summary = statuses.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " ")
        FileHandle.standardError.write(Data("fuzz: HTTP: 2500 requests (\(summary)), \(reconnects) connections closed by the server, no 5xx, daemon kept serving\n".utf8))
    }

    // MARK: - Methods

    func testInventedMethodsAddNoMetricSeriesAndLeaveMemoryFlat() throws {
        let token = "flood-token-0123456789"
        let daemon = try DaemonHarness(self, overrides: ["auth": ["token": .string(token)]], token: token)
        let port = try XCTUnwrap(daemon.tcpPort)
        let connection = try DaemonClient(port: port, timeoutSeconds: 20)
        let authorized = ["Authorization": "Bearer \(token)"]
        func metricsBytes() throws -> Int {
            let reply = try connection.send("GET", "/metrics", headers: authorized)
            XCTAssertEqual(reply.status, 200)
            return reply.body.count
        }
        // Warm up with the methods and answers of the flood, so that what grows after is the flood's.
        for index in 0..<300 {
            let reply = try connection.send(["GET", "PUT", "DELETE"][index % 3], index % 2 == 0 ? "/v1/apps" : "/v1/health")
            XCTAssertTrue([200, 401, 405].contains(reply.status))
        }
        let metricsBefore = try metricsBytes()
        let residentBefore = try daemon.residentBytes()

        // 3,000 methods of 4 KiB, each new: printable bytes and control bytes (not CR, LF, space or NUL).
        var mutator = Mutator(seed: 19)
        let alphabet = (1...126).map(UInt8.init).filter { ![10, 13, 32].contains($0) }
        var statuses: [Int: Int] = [:]
        for index in 0..<3000 {
            let method = String(decoding: (0..<4096).map { _ in alphabet[mutator.below(alphabet.count)] }, as: UTF8.self)
            let reply = try connection.send(method, index % 2 == 0 ? "/v1/apps" : "/v1/health")
            statuses[reply.status, default: 0] += 1
        }
        XCTAssertEqual(statuses, [401: 1500, 405: 1500], "unauthorized without a token, method not allowed on health")

        let metricsAfter = try metricsBytes()
        let residentAfter = try daemon.residentBytes()
        let metrics = try XCTUnwrap(String(decoding: connection.send("GET", "/metrics", headers: authorized).body, as: UTF8.self))
        let methods = Set(metrics.split(separator: "\n").filter { $0.hasPrefix("navlog_http_requests_total{") }.compactMap { line in
            line.split(separator: "\"").dropFirst().first.map(String.init)
        })
        XCTAssertTrue(methods == ["DELETE", "GET", "PUT", "other"], "\(methods.count) distinct method labels, expected DELETE, GET, PUT and other")
        XCTAssertLessThan(metricsAfter - metricsBefore, 1024, "the flood added series to /metrics")
        XCTAssertLessThan(residentAfter - residentBefore, 4 << 20, "the flood grew the daemon by more than 4 MiB")
        XCTAssertEqual(daemon.terminate(), 0, daemon.log)
        FileHandle.standardError.write(Data(("fuzz: method flood: 3000 invented 4 KiB methods, /metrics \(metricsBefore) → \(metricsAfter) bytes, "
            + "RSS \(residentBefore >> 10) → \(residentAfter >> 10) KiB\n").utf8))
    }
}
