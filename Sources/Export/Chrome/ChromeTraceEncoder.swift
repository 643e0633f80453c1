import Navigation

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
        let key = SessionKey(run: event.run, session: event.session)
        var output: [JSONValue] = []
        if sessions[key] == nil {
            sessions[key] = ChromeSession(processID: nextProcessID, run: event.run, session: event.session)
            nextProcessID += 1
        }
        output += sessions[key]!.consume(event)
        if event.kind == .sessionEnd, var ended = sessions.removeValue(forKey: key) {
            output += ended.finish()
        }
        return output
    }

    /// Closes every session still open and returns their frames.
    public mutating func finish() -> [JSONValue] {
        let keys = sessions.keys.sorted { ($0.run, $0.session) < ($1.run, $1.session) }
        var output: [JSONValue] = []
        for key in keys {
            guard var session = sessions.removeValue(forKey: key) else { continue }
            output += session.finish()
        }
        return output
    }

    // MARK: - Times

    /// Wall nanoseconds as trace microseconds.
    static func microseconds(_ nanoseconds: Int64) -> JSONValue {
        let whole = nanoseconds / 1000
        let fraction = nanoseconds % 1000
        return fraction == 0 ? .int(whole) : .double(Double(whole) + Double(fraction) / 1000)
    }
}

/// One session while ``ChromeTraceEncoder`` reads it.
struct ChromeSession {
    let processID: Int
    let run: String
    let session: String
    private var frames: [ChromeFrame] = []
    private var openFrames: [String: Int] = [:]
    private var lastNanoseconds: Int64 = 0
    private var hasNamedProcess = false

    init(processID: Int, run: String, session: String) {
        self.processID = processID
        self.run = run
        self.session = session
    }

    mutating func consume(_ event: Event) -> [JSONValue] {
        lastNanoseconds = max(lastNanoseconds, event.wallNanoseconds)
        var output: [JSONValue] = []
        if !hasNamedProcess || event.kind == .sessionStart {
            let app = event.kind == .sessionStart ? event.payload["app"]?.stringValue : nil
            output.append(metadata("process_name", thread: nil, name: [app, session, "(\(run))"].compactMap { $0 }.joined(separator: " ")))
            if !hasNamedProcess { output.append(metadata("thread_name", thread: 0, name: "actions")) }
            hasNamedProcess = true
        }
        switch event.kind {
        case .coordinatorStart:
            openFrames[event.subject] = frames.count
            frames.append(ChromeFrame(subject: event.subject, parent: event.parent, start: event.wallNanoseconds))
        case .coordinatorFinish:
            if let index = openFrames[event.subject] { frames[index].finished = event.wallNanoseconds }
        case .coordinatorDeinit:
            if let index = openFrames.removeValue(forKey: event.subject) { frames[index].end = event.wallNanoseconds }
        case .action, .deepLink, .error:
            output.append(instant(event))
        default:
            break
        }
        return output
    }

    /// Closes the frames still open at the session's last event, lays them out on threads and
    /// returns their begin and end events, thread by thread.
    mutating func finish() -> [JSONValue] {
        for index in frames.indices where frames[index].end == nil {
            frames[index].end = lastNanoseconds
            frames[index].isOpenAtEnd = true
        }
        let lanes = ChromeLaneLayout.assign(frames)
        var output: [JSONValue] = []
        for (lane, members) in lanes.enumerated() {
            output.append(metadata("thread_name", thread: lane + 1, name: "coordinators \(lane + 1)"))
            var stack: [ChromeFrame] = []
            for frame in members.map({ frames[$0] }) {
                while let top = stack.last, top.end! <= frame.start {
                    output.append(end(top, thread: lane + 1))
                    stack.removeLast()
                }
                output.append(begin(frame, thread: lane + 1))
                stack.append(frame)
            }
            while let top = stack.popLast() { output.append(end(top, thread: lane + 1)) }
        }
        frames.removeAll()
        return output
    }

    // MARK: - Trace events

    private func begin(_ frame: ChromeFrame, thread: Int) -> JSONValue {
        var args: [String: JSONValue] = ["instance": .string(frame.subject)]
        if let parent = frame.parent { args["parent"] = .string(parent) }
        if let finished = frame.finished { args["finished_us"] = ChromeTraceEncoder.microseconds(finished) }
        if frame.isLeaked { args["leaked"] = true }
        if frame.isOpenAtEnd && !frame.isLeaked { args["unfinished"] = true }
        return [
            "ph": "B", "name": .string(frame.name), "cat": "coordinator", "pid": .int(Int64(processID)),
            "tid": .int(Int64(thread)), "ts": ChromeTraceEncoder.microseconds(frame.start), "args": .object(args),
        ]
    }

    private func end(_ frame: ChromeFrame, thread: Int) -> JSONValue {
        [
            "ph": "E", "name": .string(frame.name), "cat": "coordinator", "pid": .int(Int64(processID)),
            "tid": .int(Int64(thread)), "ts": ChromeTraceEncoder.microseconds(frame.end!),
        ]
    }

    private func instant(_ event: Event) -> JSONValue {
        var args: [String: JSONValue] = ["subject": .string(event.subject), "session_seq": .int(Int64(bitPattern: event.sessionSeq))]
        if let screen = event.screen { args["screen"] = .string(screen) }
        for (key, value) in event.payload.objectValue ?? [:] where value.stringValue != nil { args[key] = value }
        let label = event.payload["element"]?.stringValue ?? event.payload["url"]?.stringValue ?? event.subject
        return [
            "ph": "i", "s": "t", "name": .string("\(event.kind.rawValue) \(label)"), "cat": .string(event.kind.rawValue),
            "pid": .int(Int64(processID)), "tid": 0, "ts": ChromeTraceEncoder.microseconds(event.wallNanoseconds),
            "args": .object(args),
        ]
    }

    private func metadata(_ kind: String, thread: Int?, name: String) -> JSONValue {
        var members: [String: JSONValue] = ["ph": "M", "name": .string(kind), "pid": .int(Int64(processID)), "args": ["name": .string(name)]]
        members["tid"] = .int(Int64(thread ?? 0))
        return .object(members)
    }
}
