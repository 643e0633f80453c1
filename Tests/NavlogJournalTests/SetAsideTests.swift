import Foundation
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

final class SetAsideTests: XCTestCase {
    /// Two unclean files with the same name (killed runs that committed nothing, started at
    /// the same seq in the same second) are both kept when set aside.
    func testSettingAsideNeverReplacesAFileSetAsideBefore() throws {
        let directory = makeTemporaryDirectory(self)
        let path = directory + "/navlog-0000000000000001-20261201T000000Z.navlog"
        var setAside: [String] = []
        for content in ["first", "second", "third"] {
            try Data(content.utf8).write(to: URL(fileURLWithPath: path))
            try Data((content + " wal").utf8).write(to: URL(fileURLWithPath: path + "-wal"))
            setAside.append(try JournalDirectory.setAside(path))
        }
        XCTAssertEqual(setAside.map { URL(fileURLWithPath: $0).lastPathComponent }, [
            "navlog-0000000000000001-20261201T000000Z.unclean.navlog",
            "navlog-0000000000000001-20261201T000000Z-2.unclean.navlog",
            "navlog-0000000000000001-20261201T000000Z-3.unclean.navlog",
        ])
        XCTAssertEqual(try setAside.map { try String(contentsOfFile: $0, encoding: .utf8) }, ["first", "second", "third"])
        XCTAssertEqual(try setAside.map { try String(contentsOfFile: $0 + "-wal", encoding: .utf8) }, ["first wal", "second wal", "third wal"])
        XCTAssertTrue(setAside.allSatisfy(JournalDirectory.isSetAside))
    }
}
