import Foundation
import Synchronization

/// One client connection from accept to close, with the deadline of the request it awaits.
///
/// A connection has ``MicroHTTPDaemon/Settings/requestTimeoutSeconds`` to deliver each complete
/// request, counted from when it opened or its previous answer was sent. libmicrohttpd's own
/// timeout only measures idleness, so a client that trickles a header line every few seconds
/// would otherwise hold its connection (and a slot of the connection limit) for ever.
///
/// The deadline is armed when the connection opens and after each answer, cleared when a
/// request has arrived whole; ``MicroHTTPDaemon`` checks the armed ones a few times a second
/// and shuts down the sockets that are late.
final class HTTPConnectionContext: Sendable {
    /// The connection's socket, owned by libmicrohttpd: only ever shut down here, never closed.
    let descriptor: Int32
    /// Monotonic nanoseconds by which the awaited request must be complete; ``notAwaiting``
    /// while none is awaited, ``expired`` once the deadline has passed and the socket was shut.
    private let deadline: Atomic<UInt64>

    static let notAwaiting: UInt64 = 0
    static let expired: UInt64 = .max

    init(descriptor: Int32, deadline: UInt64) {
        self.descriptor = descriptor
        self.deadline = Atomic(deadline)
    }

    /// Starts the wait for the next request: it must be complete by `deadline`. A connection
    /// already late stays late.
    func awaitRequest(by deadline: UInt64) {
        var current = self.deadline.load(ordering: .relaxed)
        while current != Self.expired {
            let (exchanged, original) = self.deadline.compareExchange(expected: current, desired: deadline, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// Ends the wait: the request is complete (or answered before it was). Returns false when
    /// the deadline had already passed and the socket was shut down: the request must not be
    /// acted on.
    func requestArrived() -> Bool {
        let current = deadline.load(ordering: .relaxed)
        guard current != Self.expired else { return false }
        // Only the checker changes the deadline meanwhile, and only to `expired`.
        return deadline.compareExchange(expected: current, desired: Self.notAwaiting, ordering: .relaxed).exchanged
    }

    /// Marks the connection late if its deadline is before `now`; returns whether it did (the
    /// caller then shuts the socket down, once).
    func expireIfLate(now: UInt64) -> Bool {
        let current = deadline.load(ordering: .relaxed)
        guard current != Self.notAwaiting, current != Self.expired, current <= now else { return false }
        return deadline.compareExchange(expected: current, desired: Self.expired, ordering: .relaxed).exchanged
    }
}
