import Foundation
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

final class SetAsideTests: XCTestCase {
    /// A file's name gives back the second it was created in, set aside or not, for looking a
    /// receipt up in the file that was being written when it was committed.
    func testAFileNameGivesBackWhenTheFileWasCreated() {
        let created: Int64 = 1_796_256_000_123_456_789  // 2026-12-03T00:00:00.123456789Z
        let name = JournalDirectory.makeFileName(firstSeq: 42, wallNanoseconds: created)
        XCTAssertEqual(name, "navlog-0000000000000042-20261203T000000Z.navlog")
        XCTAssertEqual(JournalDirectory.creationNanoseconds(of: "/journals/" + name), 1_796_256_000_000_000_000)
        XCTAssertEqual(JournalDirectory.creationNanoseconds(of: "navlog-0000000000000042-20261203T235959Z.unclean-2.navlog"),
                       1_796_342_399_000_000_000)
        for other in ["journal.navlog", "navlog-1-20261303T000000Z.navlog", "navlog-1-2026120300000Z.navlog", "navlog-1-x.navlog", "other-1-20261203T000000Z.navlog"] {
            XCTAssertNil(JournalDirectory.creationNanoseconds(of: other), other)
        }
    }

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
