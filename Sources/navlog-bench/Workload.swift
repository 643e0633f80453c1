import NavlogEvents
import NavlogRuntime

/// A realistic navigation workload: many interleaved sessions of coordinator apps, every event
/// kind, and view models of a few hundred bytes that change a few fields at a time.
struct Workload {
    /// Seeded, so every run benchmarks the same events.
    private var random = SplitMix64(seed: 42)
    private var sessions: [SessionState] = []
    private var nextSession = 1
    private var wall: Int64 = 1_795_000_000_000_000_000
    private var mono: UInt64 = 5_000_000_000

    private static let features = ["Master", "Detail", "Articles", "ArticleDetail", "Dashboard", "Settings", "Profile", "Search"]
    private static let words = ["Morning", "update", "release", "notes", "weather", "Swift", "coordinator", "report",
                                "draft", "inbox", "travel", "budget", "photos", "review", "pending", "archive"]

    private struct Screen {
        var feature: String
        var coordinator: String
        var presenter: String
        var screen: String
        var viewModel: [String: JSONValue]
    }

    private struct SessionState {
        var name: String
        var sessionSeq: UInt64 = 0
        var namer = InstanceNamer()
        var stack: [Screen] = []
        var remaining: Int
        var tab = 0
    }

    /// Returns at least `count` events in arrival order, ending on a whole step, so calling it
    /// again continues every session where it stopped.
    mutating func makeChunk(count: Int, activeSessions: Int = 48) -> [Event] {
        var events: [Event] = []
        events.reserveCapacity(count + 64)
        while events.count < count {
            if sessions.count < activeSessions { startSession(into: &events) }
            step(Int(random.next() % UInt64(sessions.count)), into: &events)
        }
        return events
    }

    /// Ends every open session, so a stream of chunks finishes with complete sessions.
    mutating func finishAll() -> [Event] {
        var events: [Event] = []
        while !sessions.isEmpty { end(sessions.count - 1, into: &events) }
        return events
    }

    /// Returns `count` events in arrival order.
    mutating func makeEvents(count: Int, activeSessions: Int = 48) -> [Event] {
        var events: [Event] = []
        events.reserveCapacity(count + 64)
        while events.count < count {
            if sessions.count < activeSessions { startSession(into: &events) }
            let index = Int(random.next() % UInt64(sessions.count))
            step(index, into: &events)
        }
        return Array(events.prefix(count))
    }

    // MARK: - Sessions

    private mutating func emit(_ index: Int, _ kind: EventKind, subject: String, screen: String? = nil,
                               cause: UInt64? = nil, parent: String? = nil, payload: JSONValue = .object([:]),
                               into events: inout [Event]) {
        let gap = Int64(random.next() % 3_000_000) + 20_000
        wall += gap
        mono += UInt64(gap) + random.next() % 1000
        sessions[index].sessionSeq += 1
        events.append(Event(wallNanoseconds: wall, monotonicNanoseconds: mono, session: sessions[index].name,
                            sessionSeq: sessions[index].sessionSeq, kind: kind, subject: subject, screen: screen,
                            cause: cause, parent: parent, payload: payload))
    }

    private mutating func startSession(into events: inout [Event]) {
        sessions.append(SessionState(name: "s-\(nextSession)", remaining: 20 + Int(random.next() % 120)))
        nextSession += 1
        let index = sessions.count - 1
        emit(index, .sessionStart, subject: "Session#1", payload: ["app": "TabsApp", "seed": .int(Int64(nextSession))], into: &events)
        let app = sessions[index].namer.makeName(for: "AppCoordinator")
        emit(index, .coordinatorStart, subject: app, cause: 1, into: &events)
        open(index, feature: "Dashboard", style: "root", into: &events)
        emit(index, .windowRoot, subject: app, screen: sessions[index].stack.last?.screen, into: &events)
    }

    private mutating func open(_ index: Int, feature: String, style: String, into events: inout [Event]) {
        let parent = sessions[index].stack.last?.coordinator ?? "AppCoordinator#1"
        let coordinator = sessions[index].namer.makeName(for: feature + "Coordinator")
        let presenter = sessions[index].namer.makeName(for: feature + "Presenter")
        let screen = sessions[index].namer.makeName(for: feature)
        let cause = sessions[index].sessionSeq
        emit(index, .coordinatorCoordinate, subject: parent, cause: cause, payload: ["child": .string(coordinator)], into: &events)
        emit(index, .coordinatorStart, subject: coordinator, cause: cause, parent: parent, into: &events)
        emit(index, .presenterInit, subject: presenter, screen: screen, cause: cause, parent: coordinator, into: &events)
        var model: [String: JSONValue] = [
            "title": .string("\(feature) \(Self.words[Int(random.next() % 16)])"),
            "subtitle": .string("Updated \(random.next() % 60) minutes ago"),
            "items": .array((0..<(3 + Int(random.next() % 4))).map { _ in .string(Self.words[Int(random.next() % 16)] + " " + Self.words[Int(random.next() % 16)]) }),
            "isLoading": false, "selectedIndex": .int(-1), "state": "rest",
            "date": .string(Event.formatTime(wall).prefix(19) + "Z"), "badge": .int(Int64(random.next() % 9)),
            "footer": "Pull to refresh", "isEditing": false,
        ]
        model["count"] = .int(Int64(model["items"]!.arrayValue!.count))
        sessions[index].stack.append(Screen(feature: feature, coordinator: coordinator, presenter: presenter, screen: screen, viewModel: model))
        change(index, fields: Array(model.keys), into: &events)
        let kind: EventKind = style == "modal" ? .screenPresent : .screenPush
        emit(index, kind, subject: coordinator, screen: screen, cause: cause, parent: parent,
             payload: style == "modal" ? ["style": "pageSheet", "animated": true] : ["animated": true], into: &events)
    }

    private mutating func change(_ index: Int, fields: [String], into events: inout [Event]) {
        guard let top = sessions[index].stack.last else { return }
        emit(index, .viewModelChange, subject: top.presenter, screen: top.screen, cause: sessions[index].sessionSeq,
             payload: ["viewmodel": .string(top.feature + "ViewModel"), "changed": .array(fields.sorted().map { .string($0) }),
                       "snapshot": .object(top.viewModel)], into: &events)
    }

    private mutating func step(_ index: Int, into events: inout [Event]) {
        sessions[index].remaining -= 1
        if sessions[index].remaining <= 0 { return end(index, into: &events) }
        guard var top = sessions[index].stack.last else { return end(index, into: &events) }
        let roll = random.next() % 100
        let action = ["tap", "scroll", "refresh", "select", "enterText"][Int(random.next() % 5)]
        emit(index, .action, subject: top.presenter, screen: top.screen, payload: ["action": .string(action), "target": .string("row-\(random.next() % 8)")], into: &events)
        switch roll {
        case 0..<40:
            let changes = 1 + Int(random.next() % 3)
            var fields: [String] = []
            for _ in 0..<changes {
                switch random.next() % 5 {
                case 0: top.viewModel["isLoading"] = .bool(!(top.viewModel["isLoading"]?.boolValue ?? false)); fields.append("isLoading")
                case 1: top.viewModel["selectedIndex"] = .int(Int64(random.next() % 6)); fields.append("selectedIndex")
                case 2: top.viewModel["state"] = .string(["rest", "loading", "loaded", "failed"][Int(random.next() % 4)]); fields.append("state")
                case 3: top.viewModel["subtitle"] = .string("Updated \(random.next() % 60) minutes ago"); fields.append("subtitle")
                default: top.viewModel["badge"] = .int(Int64(random.next() % 20)); fields.append("badge")
                }
            }
            sessions[index].stack[sessions[index].stack.count - 1] = top
            change(index, fields: Array(Set(fields)), into: &events)
        case 40..<60 where sessions[index].stack.count < 6:
            open(index, feature: Self.features[Int(random.next() % 8)], style: random.next() % 4 == 0 ? "modal" : "push", into: &events)
        case 60..<75 where sessions[index].stack.count > 1:
            close(index, kind: random.next() % 2 == 0 ? .screenPop : .screenDismiss, into: &events)
        case 75..<85:
            sessions[index].tab = (sessions[index].tab + 1) % 2
            emit(index, .tabSelect, subject: "AppCoordinator#1", screen: top.screen, payload: ["index": .int(Int64(sessions[index].tab)), "title": .string(sessions[index].tab == 0 ? "Dashboard" : "Settings")], into: &events)
        case 85..<90:
            emit(index, .deepLink, subject: "AppCoordinator#1", payload: ["url": .string("navlog://articles/\(random.next() % 500)")], into: &events)
        case 90..<93:
            emit(index, .error, subject: top.presenter, screen: top.screen, payload: ["message": "The network connection was lost.", "code": .int(-1005)], into: &events)
        default:
            break
        }
    }

    private mutating func close(_ index: Int, kind: EventKind, into events: inout [Event]) {
        guard let top = sessions[index].stack.popLast() else { return }
        let cause = sessions[index].sessionSeq
        let below: JSONValue = sessions[index].stack.last.map { .string($0.screen) } ?? .null
        emit(index, kind, subject: top.coordinator, screen: top.screen, cause: cause,
             payload: ["animated": true, "by": kind == .screenPop ? "pop" : "dismiss", "to": below], into: &events)
        emit(index, .presenterDeinit, subject: top.presenter, screen: top.screen, cause: cause, into: &events)
        emit(index, .coordinatorFinish, subject: top.coordinator, cause: cause, into: &events)
        emit(index, .coordinatorDeinit, subject: top.coordinator, cause: cause, into: &events)
    }

    private mutating func end(_ index: Int, into events: inout [Event]) {
        while sessions[index].stack.count > 0 { close(index, kind: .screenPop, into: &events) }
        emit(index, .coordinatorFinish, subject: "AppCoordinator#1", into: &events)
        emit(index, .sessionEnd, subject: "Session#1", payload: ["reason": "script finished"], into: &events)
        sessions.remove(at: index)
    }
}
