import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

final class FollowTests: XCTestCase {
    func testFollowDeliversNewCommitsAcrossRotationUntilCancelled() async throws {
        let directory = makeTemporaryDirectory(self)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, flushInterval: .seconds(600)))
        let events = makeEvents(count: 300)
        events.prefix(100).forEach(writer.record)
        try await writer.flush()

        let stream = JournalReader(paths: [directory]).follow(matching: EventFilter(after: JournalCursor("nl1-" + String(50, radix: 36))),
                                                              pollInterval: .milliseconds(20))
        var iterator = stream.makeAsyncIterator()
        var received: [Event] = []
        while received.count < 50, let event = try await iterator.next() { received.append(event) }
        XCTAssertEqual(received.map(\.seq), Array(51...100))

        events[100..<200].forEach(writer.record)
        try await writer.flush()
        try writer.rotate()
        events[200..<300].forEach(writer.record)
        try await writer.flush()
        while received.count < 250, let event = try await iterator.next() { received.append(event) }
        assertEventsEqual(received, Array(numbered(events, run: writer.runID)[50..<300]))
        try writer.close()
    }

    /// A writer rotating creates the new file, then commits its schema: a follower that lists
    /// the directory in between finds an empty file. It waits for it, not fails on it.
    func testFollowWaitsForANewestFileTheWriterIsStillCreating() async throws {
        let directory = makeTemporaryDirectory(self)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, flushInterval: .seconds(600)))
        let events = makeEvents(count: 20)
        events.prefix(10).forEach(writer.record)
        try await writer.flush()
        try writer.rotate()
        events[10...].forEach(writer.record)
        try await writer.flush()
        try writer.close()
        // The second file, set aside; an empty file in its place, as the writer creates it.
        let files = JournalDirectory.listFiles(in: directory)
        XCTAssertEqual(files.count, 2)
        let newest = try XCTUnwrap(files.last)
        let aside = directory + "/aside"
        try FileManager.default.moveItem(atPath: newest, toPath: aside)
        XCTAssertTrue(FileManager.default.createFile(atPath: newest, contents: Data()))

        let stream = JournalReader(paths: [directory]).follow(pollInterval: .milliseconds(10))
        var iterator = stream.makeAsyncIterator()
        var received: [Event] = []
        while received.count < 10, let event = try await iterator.next() { received.append(event) }
        XCTAssertEqual(received.map(\.seq), Array(1...10))
        // The schema committed: the file is whole now (renamed over the empty one in one step),
        // and its events follow.
        XCTAssertEqual(rename(aside, newest), 0, String(cString: strerror(errno)))
        while received.count < 20, let event = try await iterator.next() { received.append(event) }
        XCTAssertEqual(received.map(\.seq), Array(1...20))
    }

    func testFollowEndsWhenItsTaskIsCancelled() async throws {
        let directory = makeTemporaryDirectory(self)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory))
        writer.record(makeEvents(count: 1)[0])
        try await writer.flush()
        let stream = JournalReader(paths: [directory]).follow(pollInterval: .milliseconds(20))
        let consumer = Task {
            var count = 0
            for try await _ in stream { count += 1 }
            return count
        }
        consumer.cancel()
        let count = try await consumer.value
        XCTAssertLessThanOrEqual(count, 1)
        try writer.close()
    }
}
