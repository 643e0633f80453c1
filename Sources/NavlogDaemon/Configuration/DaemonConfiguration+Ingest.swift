import Foundation
import NavlogEvents

// MARK: - Ingest settings

extension DaemonConfiguration {
    /// `POST /v1/ingest`: events recorded by apps elsewhere (`ingest` in the JSON).
    public struct IngestSettings: Sendable, Equatable {
        /// Events one client (one `source`) may send per second on average; a request that
        /// finds its client over it is answered 429 with `Retry-After`.
        public var eventsPerSecond = 100_000
        /// Sessions one client may have open (seen, not ended, not idle past
        /// `limits.idle_session_timeout_s`); a request that would open more is answered 429.
        public var maximumOpenSessions = 1000
        /// Sessions all clients together may have open: a client names itself, so one naming a
        /// new source in each request would escape ``maximumOpenSessions``.
        public var maximumOpenSessionsTotal = 100_000
        /// How long an `Idempotency-Key` is remembered, restarts included.
        public var idempotencyWindowSeconds = 86_400
        /// The memory the remembered keys and their answers may take, counted as
        /// ``IngestReceipt/rememberedBytes(key:answer:)``; past it the oldest are forgotten
        /// before their window ends.
        public var idempotencyMaximumBytes = 64 << 20
        /// Largest body after gzip inflation (the body as sent obeys `limits.max_body_bytes`).
        public var maximumInflatedBytes = 16 << 20
        /// Longest NDJSON line; a longer one is refused alone.
        public var maximumLineBytes = 1 << 20

        public init() {}
    }

    mutating func parseIngest(_ value: JSONValue) throws {
        var reader = try ConfigurationReader(value, path: "ingest")
        ingest.eventsPerSecond = try reader.positive("events_per_second", ingest.eventsPerSecond, maximum: 1 << 40)
        ingest.maximumOpenSessions = try reader.positive("max_open_sessions", ingest.maximumOpenSessions, maximum: 10_000_000)
        ingest.maximumOpenSessionsTotal = try reader.positive("max_open_sessions_total", ingest.maximumOpenSessionsTotal, maximum: 100_000_000)
        ingest.idempotencyWindowSeconds = try reader.positive("idempotency_window_s", ingest.idempotencyWindowSeconds, maximum: 365 * 86_400)
        ingest.idempotencyMaximumBytes = try reader.positive("idempotency_max_bytes", ingest.idempotencyMaximumBytes, maximum: 1 << 40)
        ingest.maximumInflatedBytes = try reader.positive("max_inflated_bytes", ingest.maximumInflatedBytes, maximum: 1 << 30)
        ingest.maximumLineBytes = try reader.positive("max_line_bytes", ingest.maximumLineBytes, maximum: 64 << 20)
        try reader.finish()
    }
}
