import Foundation
import NavlogEvents
import XCTest

@testable import NavlogDaemon

/// `max_rate`: a subscription lets through at most its rate of live events (a tenth of a
/// second's worth at once) and reports the rest as skipped, every one counted.
final class StreamRateTests: XCTestCase {
    private func event(_ seq: UInt64) -> Event {
        Event(seq: seq, wallNanoseconds: Int64(seq), monotonicNanoseconds: seq, run: "r-1", session: "s-1", sessionSeq: seq,
              kind: EventKind(rawValue: "action"), subject: "Master#1")
    }

    /// Reads what the subscription has written so far, as JSON lines.
    private func drain(_ subscription: EventSubscription) throws -> [JSONValue] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while let count = buffer.withUnsafeMutableBytes({ subscription.read(into: $0) }), count > 0 { bytes += buffer[0..<count] }
        return try String(decoding: bytes, as: UTF8.self).split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    }

    func testEventsPastTheRateAreSkippedAndCounted() throws {
        let subscription = EventSubscription(format: .ndjson, sessions: nil, kinds: nil, capacity: 100_000, maximumRate: 100)
        subscription.attach { }
        let started = DispatchTime.now().uptimeNanoseconds
        for seq in 1...1000 { _ = subscription.offer(event(UInt64(seq))) }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let lines = try drain(subscription)
        let delivered = lines.filter { $0["kind"]?.stringValue == "action" }
        let skipped = lines.filter { $0["kind"]?.stringValue == "stream.skipped" }.compactMap { $0["count"]?.intValue }
        // Ten at once, then 100 a second over the time the offers took.
        XCTAssertGreaterThanOrEqual(delivered.count, 10)
        XCTAssertLessThanOrEqual(Double(delivered.count), 11 + elapsed * 100, "\(elapsed) s")
        XCTAssertEqual(Int64(delivered.count) + skipped.reduce(0, +), 1000, "every event is delivered or counted as skipped")
        XCTAssertEqual(delivered.first?["seq"]?.intValue, 1)
        // Seqs only go up.
        let seqs = delivered.compactMap { $0["seq"]?.intValue }
        XCTAssertEqual(seqs, seqs.sorted())
    }

    func testWithoutARateEveryEventGoesThrough() throws {
        let subscription = EventSubscription(format: .ndjson, sessions: nil, kinds: nil, capacity: 100_000)
        subscription.attach { }
        for seq in 1...1000 { _ = subscription.offer(event(UInt64(seq))) }
        let lines = try drain(subscription)
        XCTAssertEqual(lines.compactMap { $0["seq"]?.intValue }, Array(1...1000).map(Int64.init))
    }
}
