import Foundation
import XCTest

@testable import NavlogSampleApps

/// Day texts are written byte by byte; these pin them against the fields they show.
final class DayFormatterTests: XCTestCase {
    func testLongAndShortDaysMatchTheFieldsTheyShow() {
        let cases: [(Double, String, String)] = [
            (1_796_119_200, "Tuesday, 1 Dec 2026, 10:00", "1 Dec 2026"),
            (0, "Thursday, 1 Jan 1970, 00:00", "1 Jan 1970"),
            (951_825_599, "Tuesday, 29 Feb 2000, 11:59", "29 Feb 2000"),
            (-1, "Wednesday, 31 Dec 1969, 23:59", "31 Dec 1969"),
            (-62_167_219_200, "Saturday, 1 Jan 0, 00:00", "1 Jan 0"),
            (-62_167_219_200 - 86_400 * 365, "Friday, 1 Jan -1, 00:00", "1 Jan -1"),
            (253_402_300_799, "Friday, 31 Dec 9999, 23:59", "31 Dec 9999"),
            (253_402_300_800, "Saturday, 1 Jan 10000, 00:00", "1 Jan 10000"),
        ]
        for (seconds, long, short) in cases {
            let date = Date(timeIntervalSince1970: seconds)
            XCTAssertEqual(DayFormatter.long(date), long, "\(seconds)")
            XCTAssertEqual(DayFormatter.short(date), short, "\(seconds)")
        }
    }
}
