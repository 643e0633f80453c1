import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NavlogEvents
import NavlogJournal

/// Posts NDJSON batches of events to a navlogd's `POST /v1/ingest`, gzipped, with an
/// `Idempotency-Key`, through `URLSession` (Foundation only: it builds for iOS, macOS and Linux).
///
/// ```swift
/// let client = try IngestClient(url: "http://127.0.0.1:7878", source: "ci-7")
/// switch client.post(ndjson, key: "r-abc-1-1000") { case .accepted(let answer): ... }
/// ```
public final class IngestClient: Sendable {
    /// What became of one post.
    public enum Outcome: Sendable, Equatable {
        /// 200: the daemon journaled the batch (or had, under the same key: `isReplayed`).
        /// `refused` counts the lines it refused, each named in `answer`.
        case accepted(accepted: Int, refused: Int, isReplayed: Bool, answer: String)
        /// Not journaled, try again (connection errors, 409, 429, 5xx), after `retryAfter`
        /// seconds when the daemon said.
        case retry(reason: String, retryAfter: Double?)
        /// 413: the batch is too large; send fewer events per request.
        case tooLarge(reason: String)
        /// Refused for good (400, 401, 403, 404, 415, 422): retrying the same batch cannot help.
        case refused(status: Int, reason: String)
    }

    /// The ingest URL, `…/v1/ingest?source=NAME`.
    public let endpoint: URL
    public let source: String
    private let token: String?
    private let timeout: TimeInterval
    private let session: URLSession

    /// Creates a client of the daemon at `url` (`http[s]://host:port`, a path prefix allowed),
    /// naming itself `source` (the run label `source` of what it sends).
    public init(url: String, source: String, token: String? = nil, timeout: TimeInterval = 30) throws {
        guard var components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", components.host?.isEmpty == false
        else { throw RemoteError.invalidURL(url) }
        guard (1...64).contains(source.utf8.count),
              source.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) })
        else { throw RemoteError.invalidSource(source) }
        var path = components.path
        while path.hasSuffix("/") { path.removeLast() }
        components.path = path + "/v1/ingest"
        components.queryItems = [URLQueryItem(name: "source", value: source)]
        guard let endpoint = components.url else { throw RemoteError.invalidURL(url) }
        self.endpoint = endpoint
        self.source = source
        self.token = token
        self.timeout = timeout
        // URLSession starts libcurl, and libcurl OpenSSL, which would register its atexit
        // cleanup (see LibCrypto.startWithoutExitCleanup()).
        LibCrypto.startWithoutExitCleanup()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = 1
        session = URLSession(configuration: configuration)
    }

    /// Gzips `ndjson` and posts it under `key`; blocks the calling thread until the answer.
    public func post(_ ndjson: [UInt8], key: String) -> Outcome {
        let body: [UInt8]
        do {
            body = try Deflater(level: 6, format: .gzip).compressAll(ndjson)
        } catch {
            return .refused(status: 0, reason: "gzip failed: \(error)")
        }
        var request = URLRequest(url: endpoint, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.httpBody = Data(body)
        request.setValue("application/x-ndjson", forHTTPHeaderField: "Content-Type")
        request.setValue("gzip", forHTTPHeaderField: "Content-Encoding")
        request.setValue(key, forHTTPHeaderField: "Idempotency-Key")
        return send(request)
    }

    /// Asks what became of the batch posted under `key` (`GET /v1/ingest`), for a batch whose
    /// answer was lost and whose events are gone: ``Outcome/accepted(accepted:refused:isReplayed:answer:)``
    /// with the answer it was given when the daemon journaled it, `refused(status: 404, …)` when it
    /// did not (or an older daemon cannot say: 405), else `retry`.
    public func status(key: String) -> Outcome {
        var request = URLRequest(url: endpoint, timeoutInterval: timeout)
        request.httpMethod = "GET"
        request.setValue(key, forHTTPHeaderField: "Idempotency-Key")
        return send(request)
    }

    private func send(_ request: URLRequest) -> Outcome {
        var request = request
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let exchange = Exchange()
        let task = session.dataTask(with: request) { data, response, error in
            exchange.finish(data: data, response: response as? HTTPURLResponse, error: error)
        }
        task.resume()
        return exchange.wait().outcome
    }

    /// Ends the client's connections.
    public func close() {
        session.invalidateAndCancel()
    }
}

/// One request's answer, handed from URLSession's queue to the posting thread.
///
/// `@unchecked Sendable`: `result` is written once under `condition`, then read under it.
private final class Exchange: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: Result?

    struct Result {
        var data: Data?
        var response: HTTPURLResponse?
        var error: (any Error)?

        var outcome: IngestClient.Outcome {
            if let error { return .retry(reason: "no answer: \(error.localizedDescription)", retryAfter: nil) }
            guard let response else { return .retry(reason: "no HTTP answer", retryAfter: nil) }
            let text = data.map { String(decoding: $0, as: UTF8.self) } ?? ""
            let retryAfter = (response.value(forHTTPHeaderField: "Retry-After")).flatMap(Double.init)
            let reason = "HTTP \(response.statusCode): \(text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(500))"
            switch response.statusCode {
            case 200:
                let answer = (try? JSONSerialization.jsonObject(with: data ?? Data())) as? [String: Any]
                let accepted = answer?["accepted"] as? Int ?? 0
                let refused = answer?["refused"] as? Int ?? 0
                return .accepted(accepted: accepted, refused: refused,
                                 isReplayed: response.value(forHTTPHeaderField: "Idempotent-Replayed") == "true", answer: text)
            case 413: return .tooLarge(reason: reason)
            case 408, 409, 425, 429, 500...599: return .retry(reason: reason, retryAfter: retryAfter)
            default: return .refused(status: response.statusCode, reason: reason)
            }
        }
    }

    func finish(data: Data?, response: HTTPURLResponse?, error: (any Error)?) {
        condition.withLock {
            result = Result(data: data, response: response, error: error)
            condition.broadcast()
        }
    }

    func wait() -> Result {
        condition.withLock {
            while result == nil { condition.wait() }
            return result!
        }
    }
}
