import Foundation
import NavlogEvents
import NavlogJournal
import Synchronization

/// The per-client limits of `POST /v1/ingest`, a client being a `source`: events per second
/// (a token bucket holding one second's worth, which a large batch may overdraw; the client
/// then waits until it is paid back) and open sessions (started, not ended, and started less
/// than the idle session timeout ago, so a client that vanished frees its share). Only
/// `session.start` and `session.end` events are looked at one by one: the rest cost nothing here.
final class IngestLimiter: Sendable {
    /// Why a request was refused, and when to come back.
    struct Refusal: Equatable {
        /// `rate` or `sessions`, the metrics label.
        var limit: String
        var retryAfterSeconds: Int
        var detail: String
    }

    /// The limits in force (SIGHUP may change them).
    struct Limits: Equatable {
        var eventsPerSecond: Int
        var maximumOpenSessions: Int
        var idleNanoseconds: UInt64
    }

    private struct Client {
        var tokens: Double
        var refilledNanoseconds: UInt64
        /// Open sessions, with the monotonic time each started.
        var open: [SessionIdentity: UInt64] = [:]
    }

    private let clients = Mutex([String: Client]())

    /// Takes `events` from `source` at monotonic time `now`, or refuses them all.
    func admit(_ events: [Event], source: String, now: UInt64, limits: Limits) -> Refusal? {
        let rate = Double(limits.eventsPerSecond)
        return clients.withLock { clients in
            var client = clients[source] ?? Client(tokens: rate, refilledNanoseconds: now)
            let elapsed = Double(now &- client.refilledNanoseconds) / 1e9
            client.tokens = min(rate, client.tokens + elapsed * rate)
            client.refilledNanoseconds = now
            defer { clients[source] = client }
            if client.tokens <= 0 {
                let wait = max(1, Int((-client.tokens / rate).rounded(.up)))
                return Refusal(limit: "rate", retryAfterSeconds: wait,
                               detail: "source '\(source)' is over ingest.events_per_second (\(limits.eventsPerSecond)); retry after \(wait) s")
            }
            if client.open.contains(where: { now &- $0.value >= limits.idleNanoseconds }) {
                client.open = client.open.filter { now &- $0.value < limits.idleNanoseconds }
            }
            var touched: [SessionIdentity: Bool] = [:]  // session -> ended in this batch
            for event in events where event.kind == .sessionStart || event.kind == .sessionEnd {
                let identity = SessionIdentity(run: event.run, session: event.session)
                if event.kind == .sessionEnd { touched[identity] = true } else if touched[identity] == nil { touched[identity] = false }
            }
            let opened = touched.filter { !$0.value && client.open[$0.key] == nil }.count
            let closed = touched.filter { $0.value && client.open[$0.key] != nil }.count
            if opened > 0, client.open.count - closed + opened > limits.maximumOpenSessions {
                return Refusal(limit: "sessions", retryAfterSeconds: 1,
                               detail: "source '\(source)' has \(client.open.count) open sessions and this request opens \(opened) more, "
                                   + "past ingest.max_open_sessions (\(limits.maximumOpenSessions)); end sessions or retry later")
            }
            client.tokens -= Double(events.count)
            for (identity, ended) in touched {
                if ended { client.open[identity] = nil } else if client.open[identity] == nil { client.open[identity] = now }
            }
            return nil
        }
    }
}
