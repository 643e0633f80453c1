import NavlogEvents
import Synchronization

/// The live sessions of a host: creates them with sequential ids (`s-1`, `s-2`, …), finds
/// them, ends them, and enforces a limit.
public actor SessionRegistry {
    public let catalog: AppCatalog
    public let maximumSessions: Int
    private let sink: any EventSink
    private let timeMode: TimeMode
    private var sessions: [String: Session] = [:]
    /// The same sessions, for lookups that need no hop onto the registry's executor: every
    /// request of a daemon looks its session up, and only creating and ending change this.
    private let index = Mutex<[String: Session]>([:])
    private var nextNumber = 1

    public init(catalog: AppCatalog, sink: any EventSink, maximumSessions: Int = 1_000, timeMode: TimeMode = .realTime) {
        self.catalog = catalog
        self.sink = sink
        self.maximumSessions = maximumSessions
        self.timeMode = timeMode
    }

    /// Starts a session of the app named `appName` with raw `parameters`.
    public func create(appName: String, parameters: [String: String] = [:], attributes: [String: JSONValue] = [:]) throws -> Session {
        let app = try catalog.app(named: appName)
        let resolved = try app.resolveParameters(parameters)
        guard sessions.count < maximumSessions else { throw HostError.sessionLimit(maximumSessions) }
        let id = "s-\(nextNumber)"
        nextNumber += 1
        let session = try Session(id: id, app: app, parameters: resolved, sink: sink, timeMode: timeMode, attributes: attributes)
        sessions[id] = session
        index.withLock { $0[id] = session }
        return session
    }

    /// The live session `id`.
    public nonisolated func session(_ id: String) throws -> Session {
        guard let session = index.withLock({ $0[id] }) else { throw HostError.unknownSession(id) }
        return session
    }

    /// The live sessions, by id.
    public var all: [Session] { sessions.keys.sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }.map { sessions[$0]! } }

    public var count: Int { sessions.count }

    /// Ends session `id` and forgets it.
    public func end(_ id: String, reason: String = "ended") throws {
        guard let session = sessions.removeValue(forKey: id) else { throw HostError.unknownSession(id) }
        index.withLock { $0[id] = nil }
        session.end(reason: reason)
    }

    /// Ends every session.
    public func endAll(reason: String) {
        let live = sessions
        sessions.removeAll()
        index.withLock { $0.removeAll() }
        for (_, session) in live { session.end(reason: reason) }
    }

    /// Ends the sessions idle for longer than `timeout`; returns their ids.
    public func endIdle(olderThan timeout: Duration) -> [String] {
        var ended: [String] = []
        for (id, session) in sessions where session.lastActivity.duration(to: .now) > timeout {
            sessions[id] = nil
            index.withLock { $0[id] = nil }
            session.end(reason: "idle timeout")
            ended.append(id)
        }
        return ended.sorted()
    }
}
