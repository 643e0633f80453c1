import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

/// Two writers, one after the other, into one directory: two runs that both have sessions
/// s-1 to s-2. The second run's events are stamped an hour before the first's.
final class SessionResolverTests: XCTestCase {
    private func writeTwoRuns(into directory: String) throws -> (first: String, second: String) {
        var runs: [String] = []
        for startWall: Int64 in [1_800_003_600_000_000_000, 1_800_000_000_000_000_000] {
            let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, batchSize: 50, blockSize: 32))
            for event in makeEvents(count: 300, sessions: 3, startWall: startWall) { writer.record(event) }
            try writer.close()
            runs.append(writer.runID)
        }
        return (runs[0], runs[1])
    }

    func testRunAndSessionFiltersReadExactlyThoseEvents() throws {
        for root in StorageRoot.allCases {
            let directory = makeTemporaryDirectory(self, root: root)
            let (first, second) = try writeTwoRuns(into: directory)
            let reader = JournalReader(paths: [directory])
            let all = try reader.allEvents()
            XCTAssertEqual(all.count, 600)
            let identity = SessionIdentity(run: second, session: "s-2")
            assertEventsEqual(try reader.allEvents(matching: EventFilter(runSessions: [identity])),
                              all.filter { $0.run == second && $0.session == "s-2" }, "\(root.rawValue): \(identity)")
            assertEventsEqual(try reader.allEvents(matching: EventFilter(runs: [first], kinds: [.action])),
                              all.filter { $0.run == first && $0.kind == .action }, "\(root.rawValue): run and kind")
            // Names match in every run; either list lets a session through.
            assertEventsEqual(try reader.allEvents(matching: EventFilter(sessions: ["s-1"], runSessions: [identity])),
                              all.filter { $0.session == "s-1" || ($0.run == second && $0.session == "s-2") }, "\(root.rawValue): either")
            XCTAssertEqual(try reader.allEvents(matching: EventFilter(runs: ["r-nosuch"])), [])
        }
    }

    func testTheResolverNamesRunsBySessionAndLatestByFirstEvent() throws {
        let directory = makeTemporaryDirectory(self)
        let (first, second) = try writeTwoRuns(into: directory)
        let resolver = try SessionResolver(reader: JournalReader(paths: [directory]))
        // The second run started later, but its first event is older.
        XCTAssertEqual(resolver.runs, [second, first])
        XCTAssertEqual(try resolver.resolveRuns(["latest"]), [first])
        XCTAssertEqual(try resolver.resolveSessions(["\(second)/s-2"]).identities, [SessionIdentity(run: second, session: "s-2")])
        XCTAssertEqual(try resolver.resolveSessions(["s-2"], within: [first]).identities, [SessionIdentity(run: first, session: "s-2")])
        XCTAssertEqual(try resolver.resolveSessions(["s-9"]), SessionResolver.Sessions(identities: [], unknownNames: ["s-9"]))
        XCTAssertThrowsError(try resolver.resolveSessions(["s-2"])) { error in
            XCTAssertEqual("\(error)", "option '--session': session 's-2' is in 2 runs: \(second), \(first); give RUN/s-2 or --run RUN")
        }
        XCTAssertThrowsError(try resolver.resolveRuns(["r-nosuch"])) { error in
            XCTAssertEqual("\(error)", "option '--run': unknown run 'r-nosuch' (known runs, newest first: \(first), \(second))")
        }
    }

    func testAnUnknownRunListsAtMostTen() {
        let runs = (1...12).map { "r-\($0)" }
        let resolver = SessionResolver(runs: runs, sessions: [])
        XCTAssertThrowsError(try resolver.resolveRuns(["r-13"])) { error in
            XCTAssertEqual("\(error)", "option '--run': unknown run 'r-13' (known runs, newest first: r-12, r-11, r-10, r-9, r-8, r-7, r-6, r-5, r-4, r-3, and 2 more)")
        }
        XCTAssertThrowsError(try SessionResolver(runs: [], sessions: []).resolveRuns(["latest"])) { error in
            XCTAssertEqual("\(error)", "option '--run': 'latest' names no run: the journals read hold none")
        }
    }
}
