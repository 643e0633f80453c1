import Foundation
import NavlogEvents
import NavlogExport
import NavlogHTTPClient
import NavlogJournal

/// Sends one batch of spans to an OTLP/HTTP collector and classifies the answer, following the
/// OTLP/HTTP specification's retry rules, with one difference: authentication and routing
/// errors (401, 403, 404, 405, 407) are retried, not dropped, because the journal keeps
/// everything and they are fixed by an operator, not by the data.
///
/// Blocking: used only by the push's own thread. Requests go through one libcurl client
/// (``HTTPClient``), which keeps its connection, and for https its TLS session, between
/// batches, and reads chunked answers.
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
    private let client: HTTPClient

    init(settings: DaemonConfiguration.OTLPSettings) throws {
        self.settings = settings
        deflater = settings.isGzipEnabled ? try Deflater(level: 6, format: .gzip) : nil
        client = try HTTPClient()
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

    /// POSTs `body` to the endpoint; `timeout` bounds the whole request, connecting included.
    func send(_ body: [UInt8], timeout: Duration) -> Outcome {
        var headers = settings.headers
        headers["Content-Type"] = "application/json"
        if settings.isGzipEnabled { headers["Content-Encoding"] = "gzip" }
        let request = NavlogHTTPClient.HTTPRequest(method: "POST", url: settings.endpoint.description, headers: headers, body: body, timeout: timeout,
                                  certificateAuthorityFile: settings.certificateAuthorityFile)
        let reply: NavlogHTTPClient.HTTPResponse
        do {
            reply = try client.send(request)
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
}
