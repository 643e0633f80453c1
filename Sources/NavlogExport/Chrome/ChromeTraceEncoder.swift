import NavlogEvents

/// Turns a stream of events into Trace Event Format events, the JSON that Perfetto,
/// chrome://tracing and speedscope load.
///
/// - Each session is a process (`pid`), named `<app> <session> (<run>)`.
/// - Coordinator lifetimes, from `coordinator.start` to `coordinator.deinit`, are the frames:
///   `B`/`E` pairs named after the coordinator type, on threads (`tid` 1, 2, …) laid out so
///   that frames on one thread nest, a child on its parent's thread when it fits.
/// - A coordinator that finished but was never deallocated is a leaked frame: it is closed at
///   the session's end, named `<Type> (leaked)` and has `"leaked": true` in its args. One that
///   neither finished nor went away is closed there too, with `"unfinished": true`.
/// - Actions, deep links and errors are instant events (`ph: "i"`) on thread 0, `actions`.
///
/// Instants come out as they are read; frames when their session ends (a session's frames are
/// the only state kept). Write ``documentPrefix``, the events separated by commas, then
/// ``documentSuffix``; ``writeDocument(events:)`` does it for a finished list.
///
/// Times (`ts`) are wall-clock microseconds since the Unix epoch, with nanosecond fractions.
public struct ChromeTraceEncoder: Sendable {
    private var sessions: [SessionKey: ChromeSession] = [:]
    private var nextProcessID = 1

    public init() {}

    /// The start of the JSON object, up to the opening of `traceEvents`.
    public static let documentPrefix = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n"
    /// The end of the JSON object, after the last event.
    public static let documentSuffix = "\n]}\n"

    /// Returns a whole document holding `events`.
    public static func writeDocument(events: [JSONValue]) -> String {
        documentPrefix + events.map { $0.serialized() }.joined(separator: ",\n") + documentSuffix
    }

    /// The number of sessions read but not ended.
    public var openSessionCount: Int { sessions.count }

    // MARK: - Feeding events

    /// Applies `event` (each session's events in order) and returns the trace events it
    /// completes: metadata and instants at once, a session's frames at its `session.end`.
    public mutating func consume(_ event: Event) -> [JSONValue] {
        var output: [JSONValue] = []
        consume(event) { output.append($0) }
        return output
    }

    /// Applies `event` and hands `write` each trace event it completes as it is made, so that
    /// a long session's frames are never all in memory as JSON at once.
    public mutating func consume(_ event: Event, write: (JSONValue) -> Void) {
        let key = SessionKey(run: event.run, session: event.session)
        if sessions[key] == nil {
            sessions[key] = ChromeSession(processID: nextProcessID, run: event.run, session: event.session)
            nextProcessID += 1
        }
        for traceEvent in sessions[key]!.consume(event) { write(traceEvent) }
        if event.kind == .sessionEnd, var ended = sessions.removeValue(forKey: key) {
            ended.finish(write: write)
        }
    }

    /// Closes every session still open and returns their frames.
    public mutating func finish() -> [JSONValue] {
        var output: [JSONValue] = []
        finish { output.append($0) }
        return output
    }

    /// Closes every session still open and hands `write` their frames, one at a time.
    public mutating func finish(write: (JSONValue) -> Void) {
        for key in sessions.keys.sorted(by: { ($0.run, $0.session) < ($1.run, $1.session) }) {
            guard var session = sessions.removeValue(forKey: key) else { continue }
            session.finish(write: write)
        }
    }

    // MARK: - Times

    /// Wall nanoseconds as trace microseconds.
    static func microseconds(_ nanoseconds: Int64) -> JSONValue {
        let whole = nanoseconds / 1000
        let fraction = nanoseconds % 1000
        return fraction == 0 ? .int(whole) : .double(Double(whole) + Double(fraction) / 1000)
    }
}
