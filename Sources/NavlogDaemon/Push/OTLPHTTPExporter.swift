import Foundation
import NavlogEvents
import NavlogExport
import NavlogJournal

/// Sends one batch of spans to an OTLP/HTTP collector and classifies the answer, following the
/// OTLP/HTTP specification's retry rules, with one difference: authentication and routing
/// errors (401, 403, 404, 405, 407) are retried, not dropped, because the journal keeps
/// everything and they are fixed by an operator, not by the data.
///
/// Blocking: used only by the push's own thread. One connection per request
/// (`Connection: close`), so a collector's chunked or keep-alive quirks cannot leave the next
/// response misread.
final class OTLPHTTPExporter {
    /// What became of a request.
    enum Outcome: Equatable {
        /// A 2xx; `rejectedSpans` from `partialSuccess`, with the collector's message.
        case accepted(rejectedSpans: Int, message: String)
        /// A 413: the body is too large.
        case tooLarge
        /// A status that will not change by sending the same body again.
        case rejected(status: Int, message: String)
        /// A connection error, a timeout, or a status worth retrying.
        case failed(String)
    }

    private let settings: DaemonConfiguration.OTLPSettings
    private let deflater: Deflater?

    init(settings: DaemonConfiguration.OTLPSettings) throws {
        self.settings = settings
        deflater = settings.isGzipEnabled ? try Deflater(level: 6, format: .gzip) : nil
    }

    // MARK: - Requests

    /// Returns the body of `spans`: an OTLP/JSON `ExportTraceServiceRequest`, gzip-compressed
    /// when configured.
    func makeBody(_ spans: ArraySlice<SpanLedger.PendingSpan>, labels: (String) -> [String: String]) throws -> [UInt8] {
        var json: [UInt8] = []
        OTLPTraceEncoder.writeRequest(spans: spans.map(\.span), resource: { span in
            OTLPResource(run: span.run, app: span.app, labels: labels(span.run))
        }, to: &json)
        return try deflater?.compressAll(json) ?? json
    }

    /// POSTs `body` to the endpoint; `timeout` bounds each socket read and write.
    func send(_ body: [UInt8], timeout: Duration) -> Outcome {
        let endpoint = settings.endpoint
        var headers = settings.headers
        headers["Content-Type"] = "application/json"
        headers["Connection"] = "close"
        if settings.isGzipEnabled { headers["Content-Encoding"] = "gzip" }
        let reply: (status: Int, body: [UInt8])
        do {
            let address = try Self.resolve(endpoint.host)
            let seconds = Int((timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000 + 999) / 1000)
            let connection = try HTTPClientConnection(host: address, port: endpoint.port, timeoutSeconds: max(1, seconds))
            defer { connection.close() }
            reply = try connection.send("POST", endpoint.path, headers: headers, body: body)
        } catch {
            return .failed("\(error)")
        }
        let message = Self.message(in: reply.body)
        switch reply.status {
        case 200..<300:
            let rejected = Self.partialSuccess(in: reply.body)
            return .accepted(rejectedSpans: rejected.count, message: rejected.message)
        case 413:
            return .tooLarge
        case 401, 403, 404, 405, 407, 408, 429, 502, 503, 504:
            return .failed("HTTP \(reply.status)\(message.isEmpty ? "" : ": \(message)")")
        default:
            return .rejected(status: reply.status, message: message)
        }
    }

    // MARK: - Answers

    /// The `partialSuccess` of an `ExportTraceServiceResponse` in JSON: rejected spans (an int64,
    /// so a string in OTLP/JSON, or a number) and the message.
    static func partialSuccess(in body: [UInt8]) -> (count: Int, message: String) {
        guard !body.isEmpty, let document = try? JSONValue(parsing: Data(body)), let partial = document["partialSuccess"] else { return (0, "") }
        let raw = partial["rejectedSpans"]
        let count = raw?.intValue ?? raw?.stringValue.flatMap { Int64($0) } ?? 0
        return (Int(max(0, count)), partial["errorMessage"]?.stringValue ?? "")
    }

    /// A short excerpt of an error body: the `message` of a JSON `Status`, else the text.
    static func message(in body: [UInt8]) -> String {
        if let document = try? JSONValue(parsing: Data(body)), let message = document["message"]?.stringValue { return message }
        let text = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.unicodeScalars.allSatisfy { $0.value >= 0x20 || $0 == "\n" } ? text : ""
    }

    /// Resolves `host` to an IPv4 address with `getaddrinfo`; numeric addresses pass through.
    static func resolve(_ host: String) throws -> String {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, nil, &hints, &results)
        guard code == 0, let first = results, let address = first.pointee.ai_addr else {
            throw HTTPClientError(detail: "cannot resolve \(host): \(String(cString: gai_strerror(code)))")
        }
        defer { freeaddrinfo(results) }
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        var ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
        guard inet_ntop(AF_INET, &ipv4, &text, socklen_t(text.count)) != nil else {
            throw HTTPClientError(detail: "cannot resolve \(host): no IPv4 address")
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
