import Foundation
import NavlogEvents
import NavlogJournal
import Synchronization

/// The per-client limits of `POST /v1/ingest`, a client being a `source`: events per second
/// (a token bucket holding one second's worth, which a large batch may overdraw; the client
/// then waits until it is paid back) and open sessions (started, not ended, and started less
/// than the idle session timeout ago, so a client that vanished frees its share). Only
/// `session.start` and `session.end` events are looked at one by one: the rest cost nothing here.
///
/// A client names itself, so a client naming a new source in each request escapes both; the
/// open sessions of all sources together are capped as well (`ingest.max_open_sessions_total`),
/// since each is remembered here until it ends or goes idle (about 75 bytes each, measured:
/// 300,000 sessions opened under 300 sources grew navlogd by 43 MB, against 21 MB when they
/// also ended).
///
/// A client is remembered only while it differs from one never seen: a source whose bucket has
/// filled up again and whose sessions all ended or went idle is forgotten, so a client naming a
/// new source in every request does not grow the daemon.
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
        /// Open sessions of all sources together.
        var maximumOpenSessionsTotal: Int
        var idleNanoseconds: UInt64
    }

    private struct Client {
        var tokens: Double
        var refilledNanoseconds: UInt64
        /// Open sessions, with the monotonic time each started.
        var open: [SessionIdentity: UInt64] = [:]

        /// Adds the tokens earned since the last refill, up to a second's worth.
        mutating func refill(now: UInt64, rate: Double) {
            let elapsed = Double(now &- refilledNanoseconds) / 1e9
            tokens = min(rate, tokens + elapsed * rate)
            refilledNanoseconds = now
        }

        /// Whether, at `now`, the client is as one never seen: a full bucket, and no session
        /// open that is not idle.
        func isLikeNew(now: UInt64, rate: Double, idleNanoseconds: UInt64) -> Bool {
            var client = self
            client.refill(now: now, rate: rate)
            return client.tokens >= rate && open.values.allSatisfy { now &- $0 >= idleNanoseconds }
        }
    }

    private struct State {
        var clients: [String: Client] = [:]
        /// Requests to take before the clients are swept again.
        var requestsUntilSweep = 64
        /// The sessions in the clients' `open` tables, idle ones not yet let go included.
        var openTotal = 0
        /// When every client's idle sessions were last let go, to check the cap on all open
        /// sessions: at most once a second, as it looks at every session.
        var prunedAllNanoseconds: UInt64?

        /// Lets go of the idle sessions of every client but `kept` (the one being admitted, which
        /// is written back afterwards), and of clients that are as new.
        mutating func pruneAll(now: UInt64, rate: Double, idleNanoseconds: UInt64, except kept: String? = nil) {
            for (source, var client) in clients where source != kept {
                let before = client.open.count
                client.open = client.open.filter { now &- $0.value < idleNanoseconds }
                openTotal -= before - client.open.count
                if client.isLikeNew(now: now, rate: rate, idleNanoseconds: idleNanoseconds) {
                    clients[source] = nil
                } else if client.open.count < before {
                    clients[source] = client
                }
            }
            prunedAllNanoseconds = now
        }
    }

    private let state = Mutex(State())

    /// Sources remembered now.
    var sourceCount: Int { state.withLock { $0.clients.count } }

    /// Sessions counted open now, over all sources (idle ones not yet let go included).
    var openSessionCount: Int { state.withLock { $0.openTotal } }

    /// Takes `events` from `source` at monotonic time `now`, or refuses them all.
    func admit(_ events: [Event], source: String, now: UInt64, limits: Limits) -> Refusal? {
        let rate = Double(limits.eventsPerSecond)
        return state.withLock { state in
            // Sweeping costs a look at every client, so the next one waits for as many requests
            // as clients were left (and at least 64): a constant share of each request.
            state.requestsUntilSweep -= 1
            if state.requestsUntilSweep <= 0 {
                state.pruneAll(now: now, rate: rate, idleNanoseconds: limits.idleNanoseconds)
                state.requestsUntilSweep = max(64, state.clients.count)
            }
            var client = state.clients[source] ?? Client(tokens: rate, refilledNanoseconds: now)
            client.refill(now: now, rate: rate)
            defer { state.clients[source] = client }
            if client.tokens <= 0 {
                let wait = max(1, Int((-client.tokens / rate).rounded(.up)))
                return Refusal(limit: "rate", retryAfterSeconds: wait,
                               detail: "source '\(source)' is over ingest.events_per_second (\(limits.eventsPerSecond)); retry after \(wait) s")
            }
            if client.open.contains(where: { now &- $0.value >= limits.idleNanoseconds }) {
                let before = client.open.count
                client.open = client.open.filter { now &- $0.value < limits.idleNanoseconds }
                state.openTotal -= before - client.open.count
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
            if opened > 0, state.openTotal - closed + opened > limits.maximumOpenSessionsTotal {
                // Other clients' idle sessions may be what fills the cap: let them go first (this
                // client's were just let go, and its entry is written back by the `defer`).
                if state.prunedAllNanoseconds.map({ now &- $0 >= 1_000_000_000 }) ?? true {
                    state.pruneAll(now: now, rate: rate, idleNanoseconds: limits.idleNanoseconds, except: source)
                }
                if state.openTotal - closed + opened > limits.maximumOpenSessionsTotal {
                    return Refusal(limit: "sessions_total", retryAfterSeconds: 1,
                                   detail: "the ingest clients have \(state.openTotal) open sessions together and this request opens \(opened) more, "
                                       + "past ingest.max_open_sessions_total (\(limits.maximumOpenSessionsTotal)); end sessions or retry later")
                }
            }
            client.tokens -= Double(events.count)
            for (identity, ended) in touched {
                if ended {
                    if client.open.removeValue(forKey: identity) != nil { state.openTotal -= 1 }
                } else if client.open[identity] == nil {
                    client.open[identity] = now
                    state.openTotal += 1
                }
            }
            return nil
        }
    }
}
