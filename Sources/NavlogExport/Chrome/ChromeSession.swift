import NavlogEvents

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
    /// hands `write` their begin and end events, thread by thread, one at a time.
    mutating func finish(write: (JSONValue) -> Void) {
        for index in frames.indices where frames[index].end == nil {
            frames[index].end = lastNanoseconds
            frames[index].isOpenAtEnd = true
        }
        let lanes = ChromeLaneLayout.assign(frames)
        for (lane, members) in lanes.enumerated() {
            write(metadata("thread_name", thread: lane + 1, name: "coordinators \(lane + 1)"))
            var stack: [ChromeFrame] = []
            for index in members {
                let frame = frames[index]
                while let top = stack.last, top.end! <= frame.start {
                    write(end(top, thread: lane + 1))
                    stack.removeLast()
                }
                write(begin(frame, thread: lane + 1))
                stack.append(frame)
            }
            while let top = stack.popLast() { write(end(top, thread: lane + 1)) }
        }
        frames.removeAll()
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
