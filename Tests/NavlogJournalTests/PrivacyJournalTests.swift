import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

/// Private values never reach a journal file in clear: checked on the raw bytes of every file,
/// with every block inflated.
final class PrivacyJournalTests: XCTestCase {
    private let secret = "ana.private@example.com"

    private func makePrivateEvents(count: Int) -> [Event] {
        (0..<count).flatMap { index -> [Event] in
            let session = "s-\(index % 3 + 1)"
            return [
                Event(wallNanoseconds: 1_800_000_000_000_000_000 + Int64(index), monotonicNanoseconds: UInt64(index), session: session,
                      sessionSeq: UInt64(index * 3 + 1), kind: .action, subject: "Share#1", screen: "Share#1",
                      payload: ["element": "share-recipient", "role": "text_field", "value": .string(secret)], privatePaths: ["value"]),
                Event(wallNanoseconds: 1_800_000_000_000_000_000 + Int64(index), monotonicNanoseconds: UInt64(index), session: session,
                      sessionSeq: UInt64(index * 3 + 2), kind: .viewModelChange, subject: "SharePresenter#1", screen: "Share#1",
                      payload: ["viewmodel": "ShareViewModel", "changed": ["recipient"],
                                "snapshot": ["recipient": .string(secret), "note": .string("n\(index)")], "previous": ["recipient": ""]],
                      privatePaths: ["snapshot.recipient", "previous.recipient"]),
                // Not marked in code; protected by a configured rule.
                Event(wallNanoseconds: 1_800_000_000_000_000_000 + Int64(index), monotonicNanoseconds: UInt64(index), session: session,
                      sessionSeq: UInt64(index * 3 + 3), kind: .viewModelChange, subject: "ContactPresenter#1", screen: "Contact#1",
                      payload: ["viewmodel": "ContactViewModel", "changed": ["email"], "snapshot": ["email": .string(secret)], "previous": [:]]),
            ]
        }
    }

    /// Every byte of the journal's files, plus every block inflated.
    private func journalBytes(_ directory: String) throws -> (files: [UInt8], inflated: [UInt8]) {
        var files: [UInt8] = []
        var inflated: [UInt8] = []
        let inflater = try Inflater(format: .raw)
        for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() where !name.hasSuffix("privacy-key") {
            files += [UInt8](FileManager.default.contents(atPath: directory + "/" + name) ?? Data())
            guard name.hasSuffix(".navlog") else { continue }
            let database = try SQLiteDatabase(path: directory + "/" + name, readOnly: true)
            for row in try database.rows("SELECT data, raw_bytes FROM block") {
                guard case .blob(let data) = row[0], let count = row[1].integer else { throw JournalError.notAJournal(path: name, reason: "bad block row") }
                inflated += try inflater.decompressAll(data, expectedCount: Int(count), context: name)
            }
            database.close()
        }
        return (files, inflated)
    }

    func testPrivateValuesAreNotInTheFilesNorInAnyInflatedBlockButTheirHashesAre() throws {
        for mode in PrivacyPolicy.Mode.allCases {
            let directory = makeTemporaryDirectory(self, name: "privacy-\(mode)")
            let policy = PrivacyPolicy(mode: mode, rules: [try RedactionRule(parsing: "ContactViewModel.email")])
            let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, blockSize: 64, privacy: policy))
            for (index, event) in makePrivateEvents(count: 300).enumerated() {
                writer.record(event)
                if index == 400 { try writer.rotate() }
            }
            try writer.close()
            XCTAssertGreaterThanOrEqual(JournalDirectory.listFiles(in: directory).count, 2)
            let bytes = try journalBytes(directory)
            XCTAssertGreaterThan(bytes.inflated.count, 10_000)
            XCTAssertNil(find(Array(secret.utf8), in: bytes.files), "\(mode): the clear value is in a file")
            XCTAssertNil(find(Array(secret.utf8), in: bytes.inflated), "\(mode): the clear value is in an inflated block")
            let hash = writer.redactor.hash(.string(secret))
            if mode == .hash {
                XCTAssertNotNil(find(Array(hash.utf8), in: bytes.inflated), "the hash is stored")
            } else {
                XCTAssertNil(find(Array(hash.utf8), in: bytes.inflated), "removed, not hashed")
            }

            // Readers see the protected form; other fields are intact.
            let events = try JournalReader(paths: [directory]).allEvents()
            let change = try XCTUnwrap(events.first { $0.kind == .viewModelChange })
            XCTAssertEqual(change.payload["snapshot"]?["recipient"], mode == .hash ? .string(hash) : nil)
            XCTAssertEqual(change.payload["snapshot"]?["note"], "n0")
            XCTAssertTrue(JournalVerifier.verify(paths: [directory]).isHealthy)
        }
    }

    func testTheKeyIsMadeOnceKeptAcrossRunsAndPrivateToItsOwner() throws {
        let directory = makeTemporaryDirectory(self)
        var hashes: [String] = []
        for _ in 0..<2 {
            let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory))
            hashes.append(writer.redactor.hash("same"))
            try writer.close()
        }
        XCTAssertEqual(hashes[0], hashes[1], "a journal's hashes stay comparable across its runs")
        let keyPath = directory + "/" + JournalDirectory.privacyKeyName
        let attributes = try FileManager.default.attributesOfItem(atPath: keyPath)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let other = makeTemporaryDirectory(self, name: "other")
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: other))
        XCTAssertNotEqual(writer.redactor.hash("same"), hashes[0], "each journal has its own key")
        try writer.close()
        let shared = try JournalWriter(configuration: JournalConfiguration(directory: makeTemporaryDirectory(self, name: "shared"), privacyKeyFile: keyPath))
        XCTAssertEqual(shared.redactor.hash("same"), hashes[0], "a shared key file makes hashes comparable across journals")
        try shared.close()
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        let first = needle[0]
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first, Array(haystack[index..<index + needle.count]) == needle { return index }
            index += 1
        }
        return nil
    }
}
