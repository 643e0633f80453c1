import Foundation
import NavlogEvents
import XCTest

/// Text times carry their date and zone, checked against Foundation's ISO 8601 formatter in
/// the same zones.
final class EventTextFormatterTests: XCTestCase {
    func testTimesShowTheirDateAndZoneAsISO8601Does() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let instants: [Int64] = [0, 1_796_119_200_123_000_000, 1_711_846_800_500_000_000, -86_400_000_000_000 + 999_000_000]
        for identifier in ["UTC", "Asia/Kolkata", "America/St_Johns", "Europe/Paris", "Pacific/Chatham"] {
            let zone = try XCTUnwrap(TimeZone(identifier: identifier))
            formatter.timeZone = zone
            let text = EventTextFormatter(timeZone: { zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double($0) / 1e9)) })
            for instant in instants {
                let date = Date(timeIntervalSince1970: Double(instant / 1_000_000) / 1e3)
                XCTAssertEqual(text.formatTime(instant), formatter.string(from: date), "\(identifier) at \(instant)")
            }
        }
        XCTAssertEqual(EventTextFormatter().formatTime(1_796_119_200_123_456_789), "2026-12-01T10:00:00.123Z")
    }
}
