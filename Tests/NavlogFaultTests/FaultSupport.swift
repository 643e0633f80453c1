import Foundation
import NavlogDaemon
import NavlogEvents
import NavlogTestSupport
import Synchronization
import XCTest

/// Clients that keep a daemon busy: each opens a session of master-detail and posts actions
/// until told to stop or refused, counting what was acknowledged (answered 200).
final class LoadClients: Sendable {
    /// One acknowledged action: its session and how many ``mark()`` calls came before it was sent.
    struct Acknowledgement: Sendable {
        var session: String
        var mark: Int
    }

    /// One answer other than 200 (or a transport error), and the marks before its request.
    private struct Refusal: Sendable {
        var text: String
        var mark: Int
    }

    private let acknowledgements = Mutex<[Acknowledgement]>([])
    private let refusals = Mutex<[Refusal]>([])
    private let isStopping = Atomic<Bool>(false)
    private let marks = Atomic<Int>(0)
    private let progress = NSCondition()
    private let group = DispatchGroup()

    /// Starts `count` clients on the daemon's Unix socket.
    init(socketPath: String, count: Int) {
        for _ in 0..<count {
            // A thread each: the clients block on their sockets, and on the global queue they
            // would wait for its few threads (as many as cores) to grow into more.
            group.enter()
            Thread.detachNewThread { [self] in
                defer { group.leave() }
                run(socketPath: socketPath)
            }
        }
    }

    private func run(socketPath: String) {
        guard let connection = try? DaemonClient(unixSocket: socketPath, timeoutSeconds: 20),
              let created = try? connection.send("POST", "/v1/sessions", body: Array(#"{"app": "master-detail"}"#.utf8)),
              created.status == 201, let id = (try? JSONValue(parsing: Data(created.body)))?["id"]?.stringValue
        else {
            refusals.withLock { $0.append(Refusal(text: "no session", mark: marks.load(ordering: .sequentiallyConsistent))) }
            notifyProgress()
            return
        }
        var step = 0
        while !isStopping.load(ordering: .relaxed) {
            let mark = marks.load(ordering: .sequentiallyConsistent)
            let element = step % 2 == 0 ? "next-day" : "previous-day"
            let reply: (status: Int, body: [UInt8])
            do {
                reply = try connection.send("POST", "/v1/sessions/\(id)/actions", body: Array("{\"element\": \"\(element)\"}".utf8))
            } catch {
                refusals.withLock { $0.append(Refusal(text: "\(error)", mark: mark)) }
                break
            }
            guard reply.status == 200 else {
                refusals.withLock { $0.append(Refusal(text: "\(reply.status) \(String(decoding: reply.body, as: UTF8.self))", mark: mark)) }
                notifyProgress()
                if reply.status == 503 { continue }  // the journal refused; try again
                break
            }
            step += 1
            acknowledgements.withLock { $0.append(Acknowledgement(session: id, mark: mark)) }
            notifyProgress()
        }
        notifyProgress()
    }

    /// Wakes the waiters, under the condition's lock: they check and wait under it, so news
    /// cannot fall between a waiter's check and its wait.
    private func notifyProgress() {
        progress.lock()
        progress.broadcast()
        progress.unlock()
    }

    /// From now on, requests count as "after the mark" (the latest one, when marked again).
    func mark() { marks.add(1, ordering: .sequentiallyConsistent) }

    /// Whether `mark`, a request's count of marks, is after the latest mark.
    private func isAfterLatestMark(_ mark: Int) -> Bool {
        let latest = marks.load(ordering: .sequentiallyConsistent)
        return latest > 0 && mark == latest
    }

    /// Waits (bounded: 30 s) until `count` actions are acknowledged after the latest mark
    /// (or in all, without a mark); false if that never happens.
    @discardableResult
    func waitForAcknowledgements(_ count: Int, afterMark: Bool = false) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        progress.lock()
        defer { progress.unlock() }
        while acknowledgements.withLock({ $0.filter { !afterMark || isAfterLatestMark($0.mark) }.count }) < count {
            guard progress.wait(until: deadline) else { return false }
        }
        return true
    }

    /// Waits (bounded: 30 s) until more than `previous` requests were refused with `status`;
    /// false if that never happens.
    func waitForRefusal(status: Int, beyond previous: Int = 0) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        progress.lock()
        defer { progress.unlock() }
        while refusalCount(status: status) <= previous {
            guard progress.wait(until: deadline) else { return false }
        }
        return true
    }

    /// How many requests were refused with `status` (sent after the latest mark when `afterMark`).
    func refusalCount(status: Int, afterMark: Bool = false) -> Int {
        refusals.withLock { $0.filter { $0.text.hasPrefix("\(status) ") && (!afterMark || isAfterLatestMark($0.mark)) }.count }
    }

    /// Stops every client and waits for them.
    func stop() {
        isStopping.store(true, ordering: .relaxed)
        _ = group.wait(timeout: .now() + 30)
    }

    /// Acknowledged actions per session (only those sent after the latest mark when `afterMark`).
    func acknowledged(afterMark: Bool = false) -> [String: Int] {
        var counts: [String: Int] = [:]
        for item in acknowledgements.withLock({ $0 }) where !afterMark || isAfterLatestMark(item.mark) { counts[item.session, default: 0] += 1 }
        return counts
    }

    /// What the daemon answered other than 200, and transport errors.
    var refused: [String] { refusals.withLock { $0.map(\.text) } }
}

/// A directory for a journal shared by several daemon runs, removed after the test.
func makeSharedDirectory(_ test: XCTestCase, _ name: String) throws -> String {
    let path = "/tmp/nlf-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
    return path
}

/// Runs `navlog verify` on `path`; returns its exit status and output.
func verifyJournal(_ path: String) throws -> (status: Int32, output: String) {
    let result = try runTool(productPath("navlog"), ["verify", path])
    return (result.status, result.stdout + result.stderr)
}

/// The journal's events as JSON objects (`navlog show --output json`).
func journalEvents(_ path: String) throws -> [JSONValue] {
    let output = try runTool(productPath("navlog"), ["show", "--output", "json", path])
    XCTAssertEqual(output.status, 0, output.stderr)
    return try output.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
}

/// Action counts per session of the run `run` (all runs when nil).
func journaledActions(_ events: [JSONValue], run: String? = nil) -> [String: Int] {
    var counts: [String: Int] = [:]
    for event in events where event["kind"]?.stringValue == "action" && (run == nil || event["run"]?.stringValue == run) {
        counts[event["session"]?.stringValue ?? "", default: 0] += 1
    }
    return counts
}

/// Asserts every acknowledged action is journaled: per session, at least as many actions.
func assertAcknowledgedArePresent(_ acknowledged: [String: Int], _ journaled: [String: Int], _ context: String,
                                  file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertFalse(acknowledged.isEmpty, "no action was acknowledged: \(context)", file: file, line: line)
    for (session, count) in acknowledged where (journaled[session] ?? 0) < count {
        XCTFail("session \(session): \(count) actions acknowledged, \(journaled[session] ?? 0) journaled; \(context)", file: file, line: line)
    }
}

// MARK: - Small volumes

/// The size of the largest write-ahead log (`*.navlog-wal`) in `journal`, 0 when there is none.
func largestWALBytes(_ journal: String) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: journal)) ?? []
    return names.filter { $0.hasSuffix(".navlog-wal") }.compactMap {
        (try? FileManager.default.attributesOfItem(atPath: journal + "/" + $0))?[.size] as? Int
    }.max() ?? 0
}
