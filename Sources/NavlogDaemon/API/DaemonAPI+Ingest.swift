import Foundation
import NavlogEvents
import NavlogJournal

// MARK: - Ingest

extension DaemonAPI {
    /// `POST /v1/ingest?source=NAME[&atomic=true]`: journals events recorded elsewhere.
    ///
    /// The body is NDJSON events (`navlog show -o json`), optionally `Content-Encoding: gzip`.
    /// Each line is taken or refused alone (with `atomic=true`, one refused line refuses the
    /// request, 422, and nothing is journaled). An `Idempotency-Key` already committed is
    /// answered with the original answer and journals nothing. Under `flush_per_request` the
    /// answer waits for the commit of the events and their key.
    func ingest(_ request: HTTPRequest) throws -> Answer {
        let live = settings.withLock { (ingest: $0.ingest, idleSeconds: $0.idleSessionTimeoutSeconds) }
        let source = try Self.ingestSource(request)
        let isAtomic = try Self.flag("atomic", of: request)
        let key = try Self.idempotencyKey(request)
        guard !request.body.isEmpty else {
            throw APIError(status: 400, code: "missing_body", detail: "the request needs a body: NDJSON events, one a line (optionally gzipped)")
        }
        let now = journal.configuration.clock.now()
        if let key {
            let window = Int64(live.ingest.idempotencyWindowSeconds) * 1_000_000_000
            switch ingestState.keys.acquire(key, now: now.wall, window: window) {
            case .acquired:
                // Held now; a key the budget made the store keep as a digest is in the journal.
                if let receipt = ingestState.receiptOfDigestedKey(key, now: now.wall, window: window, log: log) {
                    ingestState.keys.release(key)
                    metrics.ingest.recordDuplicate(IngestKeyStore.acceptedCount(of: receipt.answer))
                    return .now(Self.replayed(receipt.answer))
                }
            case .inFlight:
                throw Self.keyInUse(key)
            case .committed(let answer, let accepted):
                metrics.ingest.recordDuplicate(accepted)
                return .now(Self.replayed(answer))
            }
        }
        do {
            let body = try Self.inflatedBody(request, limit: live.ingest.maximumInflatedBytes)
            let batch = IngestBatch(body: body, ownRun: journal.runID, maximumLineBytes: live.ingest.maximumLineBytes)
            if isAtomic, let first = batch.refusals.first {
                metrics.ingest.record(accepted: 0, refused: batch.events.count + batch.refusals.count)
                throw APIError(status: 422, code: "refused_line",
                               detail: "line \(first.line): \(first.reason); atomic=true, so nothing was journaled (\(batch.refusals.count) lines refused)")
            }
            let limits = IngestLimiter.Limits(eventsPerSecond: live.ingest.eventsPerSecond, maximumOpenSessions: live.ingest.maximumOpenSessions,
                                              maximumOpenSessionsTotal: live.ingest.maximumOpenSessionsTotal,
                                              idleNanoseconds: UInt64(live.idleSeconds) * 1_000_000_000)
            if let refusal = ingestState.limiter.admit(batch.events, source: source, now: now.monotonic, limits: limits) {
                metrics.ingest.recordLimited(refusal.limit)
                throw APIError(status: 429, code: "ingest_limit", detail: refusal.detail, headers: ["Retry-After": String(refusal.retryAfterSeconds)])
            }
            let answer = batch.answer().serialized()
            let receipt = key.map { IngestReceipt(key: $0, committedNanoseconds: now.wall, answer: answer) }
            let seqs: ClosedRange<UInt64>?
            do {
                seqs = try journal.recordForeign(batch.events, runLabels: ["source": source], receipt: batch.events.isEmpty ? nil : receipt)
            } catch {
                throw APIError(status: 503, code: "journal_unavailable", detail: "the events were not journaled: \(error)", headers: ["Retry-After": "1"])
            }
            metrics.ingest.record(accepted: batch.events.count, refused: batch.refusals.count)
            let accepted = batch.events.count
            let budget = live.ingest.idempotencyMaximumBytes
            let finish: @Sendable () -> HTTPResponse = { [ingestState] in
                // A key is remembered with the events it covers. One whose request journaled
                // nothing (every line refused) is let go: its receipt is not in the journal
                // either, and a retry of the same body is answered the same anew.
                if let key {
                    if accepted > 0 {
                        ingestState.keys.commit(key, answer: answer, accepted: accepted, now: now.wall, budget: budget)
                    } else {
                        ingestState.keys.release(key)
                    }
                }
                return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array((answer + "\n").utf8))
            }
            guard flushesPerRequest, let seqs else { return .now(finish()) }
            return .later { [self] in
                do {
                    // Its own seqs only: the events and the receipt commit together, so the key
                    // is released only when they were lost, never when another request's were.
                    try await makeDurable(covering: seqs)
                } catch {
                    if let key { ingestState.keys.release(key) }
                    throw error
                }
                return finish()
            }
        } catch {
            if let key { ingestState.keys.release(key) }
            throw error
        }
    }

    // MARK: - Reading the request

    /// The `source` query argument: 1 to 64 letters, digits, `.`, `_` or `-`.
    static func ingestSource(_ request: HTTPRequest) throws -> String {
        guard let source = request.query.last(where: { $0.name == "source" })?.value else {
            throw APIError(status: 400, code: "missing_source", detail: "name the client with the query argument source=NAME (letters, digits, '.', '_', '-')")
        }
        guard (1...64).contains(source.utf8.count), source.utf8.allSatisfy(Self.isNameByte) else {
            throw APIError.invalidField("source", "1 to 64 letters, digits, '.', '_' or '-'", got: .string(String(source.prefix(80))))
        }
        return source
    }

    /// A boolean query argument: absent, `true` or `false`.
    static func flag(_ name: String, of request: HTTPRequest) throws -> Bool {
        guard let value = request.query.last(where: { $0.name == name })?.value else { return false }
        switch value {
        case "true", "1": return true
        case "false", "0": return false
        default: throw APIError.invalidField(name, "true or false", got: .string(String(value.prefix(80))))
        }
    }

    /// `GET /v1/ingest` with an `Idempotency-Key`: what became of the request sent under it,
    /// for a client that lost the answer and no longer has the events to send again. 200 with
    /// the answer it was given (`Idempotent-Replayed: true`), 409 while it is being answered,
    /// 404 when no request under it committed within the window.
    func ingestKeyStatus(_ request: HTTPRequest) throws -> Answer {
        guard let key = try Self.idempotencyKey(request) else {
            throw APIError(status: 400, code: "missing_idempotency_key",
                           detail: "name the request to look up with the header Idempotency-Key")
        }
        let window = settings.withLock { $0.ingest.idempotencyWindowSeconds }
        let windowNanoseconds = Int64(window) * 1_000_000_000
        let now = journal.configuration.clock.now().wall
        switch ingestState.keys.peek(key, now: now, window: windowNanoseconds) {
        case .committed(let answer, _)?:
            return .now(Self.replayed(answer))
        case .inFlight?, .acquired?:
            throw Self.keyInUse(key)
        case nil:
            if let receipt = ingestState.receiptOfDigestedKey(key, now: now, window: windowNanoseconds, log: log) {
                return .now(Self.replayed(receipt.answer))
            }
            throw APIError(status: 404, code: "unknown_idempotency_key",
                           detail: "no request with Idempotency-Key '\(key)' was journaled within ingest.idempotency_window_s (\(window) s)")
        }
    }

    /// The answer to a request whose `Idempotency-Key` was committed: the answer it was given.
    static func replayed(_ answer: String) -> HTTPResponse {
        var response = HTTPResponse(status: 200, headers: [("Content-Type", "application/json"), ("Idempotent-Replayed", "true")])
        response.body = Array((answer + "\n").utf8)
        return response
    }

    /// 409: a request with `key` is being answered.
    static func keyInUse(_ key: String) -> APIError {
        APIError(status: 409, code: "idempotency_key_in_use",
                 detail: "a request with Idempotency-Key '\(key)' is being answered; retry once it is", headers: ["Retry-After": "1"])
    }

    /// The `Idempotency-Key` header: nil when absent, else 1 to 200 printable ASCII characters
    /// without spaces.
    static func idempotencyKey(_ request: HTTPRequest) throws -> String? {
        guard let key = request.headers["idempotency-key"] else { return nil }
        guard (1...200).contains(key.utf8.count), key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw APIError(status: 400, code: "invalid_idempotency_key",
                           detail: "header Idempotency-Key must be 1 to 200 printable ASCII characters without spaces, got \(key.utf8.count) bytes: '\(String(key.prefix(60)))'")
        }
        return key
    }

    /// The body as sent, or inflated when `Content-Encoding: gzip`; refuses other encodings,
    /// a body that does not inflate (400), and one that inflates past `limit` (413).
    static func inflatedBody(_ request: HTTPRequest, limit: Int) throws -> [UInt8] {
        let encoding = (request.headers["content-encoding"] ?? "identity").trimmingCharacters(in: .whitespaces).lowercased()
        switch encoding {
        case "identity", "":
            return request.body
        case "gzip", "x-gzip":
            let inflated: [UInt8]?
            do {
                inflated = try Inflater(format: .gzip).decompress(request.body, limit: limit, context: "inflating the request body")
            } catch {
                throw APIError(status: 400, code: "bad_gzip", detail: "Content-Encoding: gzip, but the body does not inflate: \(error)")
            }
            guard let inflated else {
                throw APIError(status: 413, code: "payload_too_large", detail: "the body inflates past ingest.max_inflated_bytes (\(limit) bytes); send fewer events per request")
            }
            return inflated
        default:
            throw APIError(status: 415, code: "unsupported_encoding", detail: "header Content-Encoding '\(String(encoding.prefix(60)))' is not gzip or identity")
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2E || byte == 0x5F || byte == 0x2D
    }
}
