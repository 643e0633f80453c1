import Foundation
import NavlogEvents
import NavlogJournal
import Synchronization

/// One `/v1/events` client: a bounded buffer of the events it asked for, written out as
/// NDJSON or Server-Sent Events when its connection can take them.
///
/// Every event goes out with its `cursor`; in SSE that is also the event's `id:`, so a browser's
/// `EventSource` resumes after it by itself (`Last-Event-ID`).
///
/// The sink side (``offer(_:)``) only filters and appends under a lock; formatting happens on
/// the server's thread in ``read(into:)``. When the buffer is full newer events are dropped,
/// counted, and reported in the stream as one `stream.dropped` line before the next event.
public final class EventSubscription: HTTPStreamSource {
    /// How events are written.
    public enum Format: String, Sendable {
        case ndjson
        case sse
    }

    public let format: Format
    public let sessions: Set<String>?
    public let kinds: Set<EventKind>?
    public let capacity: Int
    /// Whether each event carries `text`, its lines as `navlog show` prints them, in place of
    /// its `payload` (`text=true`, which the web console's timeline asks for: the lines say
    /// what it shows, and the payload, a view model's whole snapshot, would only cost).
    public let addsText: Bool
    /// At most this many live events a second reach the subscriber (`max_rate`; a tenth of a
    /// second's worth may come at once); the others are skipped, counted, and reported in the stream as
    /// one `stream.skipped` line before the next event. A console page asks for it: nobody
    /// reads a thousand events a second, and formatting them is what watching costs the daemon.
    public let maximumRate: Int?
    /// How `text` is formatted: without the session, which the subscriber chose.
    private static let textFormatter = EventTextFormatter(showsTime: true, showsSession: false)
    /// How long a `text=true` stream (a console page's) lets events gather before it wakes its
    /// connection: a page shows them no sooner than a person can see, and each wake costs the
    /// daemon a resumed connection and a send.
    static let textBatchMilliseconds = 50

    private struct State {
        var replay: [Event] = []
        var live: [Event] = []
        var liveStart = 0
        var isReplaying = false
        /// The highest seq replayed; live events up to it are duplicates.
        var replayedThrough: UInt64 = 0
        var pending: [UInt8] = []
        var pendingStart = 0
        var dropped: UInt64 = 0
        /// Live events skipped by ``maximumRate`` since the last notice.
        var skipped: UInt64 = 0
        /// Events the rate lets through now, and when it was last topped up (monotonic ns).
        var allowance = 0.0
        var allowanceTime: UInt64 = 0
        var isFinished = false
        var isDetached = false
        var wake: (@Sendable () -> Void)?
        var replayWaiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())
    private let droppedTotal = Atomic<UInt64>(0)

    public init(format: Format, sessions: Set<String>?, kinds: Set<EventKind>?, capacity: Int, addsText: Bool = false, maximumRate: Int? = nil) {
        self.format = format
        self.sessions = sessions
        self.kinds = kinds
        self.capacity = max(1, capacity)
        self.addsText = addsText
        self.maximumRate = maximumRate.map { max(1, $0) }
        if let rate = self.maximumRate { state.withLock { $0.allowance = Self.burst(rate: rate) } }
    }

    /// Whether `event` passes the subscriber's filter.
    func matches(_ event: Event) -> Bool {
        (sessions?.contains(event.session) ?? true) && matchesKind(event)
    }

    /// Whether `event` passes the subscriber's filter on kinds (the broadcaster routes by session).
    func matchesKind(_ event: Event) -> Bool {
        kinds?.contains(event.kind) ?? true
    }

    // MARK: - Producing

    /// Takes one live event, numbered: buffers it, or counts it as dropped when the buffer is
    /// full. Returns what wakes the connection, to run outside the journal's lock.
    ///
    /// Only the first event into an empty buffer wakes the connection: until the connection
    /// has taken it, later ones join it and go out in the same write. A `text=true` stream
    /// wakes it ``textBatchMilliseconds`` later, so what arrives meanwhile joins that write.
    /// `isMatched`: the caller has checked ``matches(_:)`` already.
    func offer(_ event: Event, isMatched: Bool = false) -> (@Sendable () -> Void)? {
        guard isMatched || matches(event) else { return nil }
        let wake: (@Sendable () -> Void)? = state.withLock { state in
            guard !state.isFinished, !state.isDetached else { return nil }
            if state.live.count - state.liveStart >= capacity {
                state.dropped += 1
                droppedTotal.add(1, ordering: .relaxed)
                return nil
            }
            if let maximumRate, !Self.takeAllowance(&state, rate: maximumRate) {
                state.skipped += 1
                return nil
            }
            let wasEmpty = state.live.count == state.liveStart
            state.live.append(event)
            return wasEmpty ? state.wake : nil
        }
        guard let wake else { return nil }
        guard addsText else { return wake }
        return { DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Self.textBatchMilliseconds), execute: wake) }
    }

    /// The events a rate lets through at once: a tenth of a second's worth, at least one.
    private static func burst(rate: Int) -> Double { max(1, Double(rate) / 10) }

    /// Tops up the allowance for the time passed (at most ``burst(rate:)``) and takes one event
    /// from it; false when none is left.
    private static func takeAllowance(_ state: inout State, rate: Int) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        if state.allowanceTime > 0 {
            state.allowance = min(burst(rate: rate), state.allowance + Double(now &- state.allowanceTime) * Double(rate) / 1e9)
        }
        state.allowanceTime = now
        guard state.allowance >= 1 else { return false }
        state.allowance -= 1
        return true
    }

    /// Marks the start of a replay from the journal: live events wait behind it.
    func beginReplay() { state.withLock { $0.isReplaying = true } }

    /// Queues replayed events; waits while the replay queue holds more than `capacity`.
    /// Returns false when the client is gone.
    func replay(_ events: [Event]) async -> Bool {
        let (wake, isGone) = state.withLock { state -> ((@Sendable () -> Void)?, Bool) in
            state.replay.append(contentsOf: events)
            if let last = events.last { state.replayedThrough = max(state.replayedThrough, last.seq) }
            return (state.wake, state.isDetached || state.isFinished)
        }
        wake?()
        if isGone { return false }
        await withCheckedContinuation { continuation in
            let isFull = state.withLock { state in
                guard state.replay.count > capacity, !state.isDetached, !state.isFinished else { return false }
                state.replayWaiter = continuation
                return true
            }
            if !isFull { continuation.resume() }
        }
        return state.withLock { !$0.isDetached && !$0.isFinished }
    }

    /// Ends the replay; buffered live events follow, minus those already replayed.
    func endReplay() {
        let wake = state.withLock { state in
            state.isReplaying = false
            return state.wake
        }
        wake?()
    }

    /// Ends the stream once what is buffered has been written.
    func finish() {
        let (wake, waiter) = state.withLock { state in
            state.isFinished = true
            defer { state.replayWaiter = nil }
            return (state.wake, state.replayWaiter)
        }
        waiter?.resume()
        wake?()
    }

    /// Writes a heartbeat when nothing else is waiting, so dead clients are noticed.
    func heartbeat() {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.pending.count == state.pendingStart, state.live.count == state.liveStart, state.replay.isEmpty else { return nil }
            state.pending = Array((format == .sse ? ": heartbeat\n\n" : "\n").utf8)
            state.pendingStart = 0
            return state.wake
        }
        wake?()
    }

    /// Events dropped for this subscriber so far.
    public var droppedCount: UInt64 { droppedTotal.load(ordering: .relaxed) }

    /// Whether the connection is gone or the stream ended.
    var isClosed: Bool { state.withLock { $0.isDetached || $0.isFinished } }

    // MARK: - HTTPStreamSource

    public func attach(wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.wake = wake }
    }

    public func detach() {
        let waiter = state.withLock { state in
            state.isDetached = true
            state.wake = nil
            defer { state.replayWaiter = nil }
            return state.replayWaiter
        }
        waiter?.resume()
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        let (count, waiter) = state.withLock { state -> (Int?, CheckedContinuation<Void, Never>?) in
            if state.pendingStart == state.pending.count { fill(&state) }
            let available = state.pending.count - state.pendingStart
            if available == 0 { return (state.isFinished ? nil : 0, nil) }
            let count = min(available, buffer.count)
            state.pending.withUnsafeBytes { bytes in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[state.pendingStart..<state.pendingStart + count]))
            }
            state.pendingStart += count
            var waiter: CheckedContinuation<Void, Never>?
            if state.replay.count <= capacity / 2, let replayWaiter = state.replayWaiter {
                waiter = replayWaiter
                state.replayWaiter = nil
            }
            return (count, waiter)
        }
        waiter?.resume()
        return count
    }

    /// Formats the next batch of buffered events into `pending`.
    private func fill(_ state: inout State) {
        var output = ""
        if state.dropped > 0 {
            let notice: JSONValue = ["kind": "stream.dropped", "count": .int(Int64(state.dropped)),
                                     "detail": "the client read too slowly; these events are in the journal"]
            write(notice, event: "dropped", to: &output)
            state.dropped = 0
        }
        if state.skipped > 0, state.replay.isEmpty, !state.isReplaying {
            let notice: JSONValue = ["kind": "stream.skipped", "count": .int(Int64(state.skipped)),
                                     "detail": "more than max_rate events a second; these events are in the journal"]
            write(notice, event: "skipped", to: &output)
            state.skipped = 0
        }
        if !state.replay.isEmpty {
            for event in state.replay.prefix(256) { write(event, to: &output) }
            state.replay.removeFirst(min(256, state.replay.count))
        } else if !state.isReplaying {
            let end = min(state.live.count, state.liveStart + 256)
            for event in state.live[state.liveStart..<end] where event.seq > state.replayedThrough { write(event, to: &output) }
            state.liveStart = end
            if state.liveStart == state.live.count {
                state.live.removeAll(keepingCapacity: true)
                state.liveStart = 0
            }
        }
        state.pending = Array(output.utf8)
        state.pendingStart = 0
    }

    /// Writes one event with its cursor, which is also its SSE `id:` (and its `text` in place of
    /// its payload when the subscriber asked for it).
    private func write(_ event: Event, to output: inout String) {
        let cursor = JournalCursor(after: event).description
        var object = event.jsonObject().objectValue ?? [:]
        object["cursor"] = .string(cursor)
        if addsText {
            object["payload"] = nil
            object["text"] = .string(Self.textFormatter.format(event))
        }
        write(.object(object), event: "event", id: cursor, to: &output)
    }

    private func write(_ value: JSONValue, event: String, id: String? = nil, to output: inout String) {
        switch format {
        case .ndjson:
            value.write(to: &output)
            output += "\n"
        case .sse:
            if let id { output += "id: \(id)\n" }
            output += "event: \(event)\ndata: "
            value.write(to: &output)
            output += "\n\n"
        }
    }
}
