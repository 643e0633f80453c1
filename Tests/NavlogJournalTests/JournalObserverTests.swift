import Foundation
import NavlogEvents
import NavlogTestSupport
import Synchronization
import XCTest

import NavlogJournal

/// The writer hands its observer every event it numbers, in seq order, with the payload it was
/// recorded with, even when watching began between the writer's two looks at the observer.
final class JournalObserverTests: XCTestCase {
    /// Records what it is given; says it is watching after `quietChecks` checks.
    private final class Recorder: JournalObserver {
        let delivered = Mutex<[(event: Event, isPrepared: Bool)]>([])
        let checks = Atomic<Int>(0)
        let quietChecks: Int

        init(quietChecks: Int) { self.quietChecks = quietChecks }

        var isObserving: Bool { checks.add(1, ordering: .relaxed).newValue > quietChecks }
        func prepare(_ event: Event) -> Event? { event }
        func deliver(_ event: Event, prepared: Event?) -> (@Sendable () -> Void)? {
            delivered.withLock { $0.append((event, prepared != nil)) }
            return nil
        }
    }

    private func event(_ index: Int) -> Event {
        Event(wallNanoseconds: Int64(index), monotonicNanoseconds: UInt64(index), session: "s-1", sessionSeq: UInt64(index),
              kind: EventKind(rawValue: "action"), subject: "Master#1", payload: ["element": .string("row-\(index)"), "count": .int(Int64(index))])
    }

    func testEveryEventIsDeliveredNumberedWithItsPayload() throws {
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: makeTemporaryDirectory(self)))
        // Quiet for the first check of the first event: it is delivered from the lock's check,
        // its payload read back from the bytes the writer had encoded.
        let recorder = Recorder(quietChecks: 1)
        XCTAssertTrue(writer.observe(with: recorder))
        XCTAssertFalse(writer.observe(with: Recorder(quietChecks: 0)), "a writer has one observer")
        for index in 1...50 { writer.record(event(index)) }
        try writer.close()
        let delivered = recorder.delivered.withLock { $0 }
        XCTAssertEqual(delivered.map(\.event.seq), Array(1...50))
        XCTAssertEqual(delivered.map(\.event.payload), (1...50).map { event($0).payload })
        XCTAssertEqual(delivered.map(\.event.run), Array(repeating: writer.runID, count: 50))
        XCTAssertEqual(delivered.map(\.isPrepared), [false] + Array(repeating: true, count: 49))
    }

    func testNobodyWatchingMeansNothingIsDelivered() throws {
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: makeTemporaryDirectory(self)))
        let recorder = Recorder(quietChecks: .max)
        writer.observe(with: recorder)
        for index in 1...20 { writer.record(event(index)) }
        try writer.close()
        XCTAssertTrue(recorder.delivered.withLock { $0 }.isEmpty)
    }
}
