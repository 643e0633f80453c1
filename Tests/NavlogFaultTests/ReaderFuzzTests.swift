import Foundation
import NavlogTestSupport
import XCTest

@testable import NavlogJournal

/// Hostile journals: mutated block layouts, mutated blocks stored with a valid CRC, and files
/// with corrupted bytes. The reader and the verifier may refuse them, never crash.
final class ReaderFuzzTests: XCTestCase {
    /// A small journal of one closed file; returns the file's path.
    private func makeJournalFile() throws -> String {
        let directory = makeTemporaryDirectory(self)
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, blockSize: 40))
        for event in makeEvents(count: 200, sessions: 5) { writer.record(event) }
        try writer.close()
        return try XCTUnwrap(JournalDirectory.listFiles(in: directory).first)
    }

    func testMutatedBlockLayoutsAreRefusedNotCrashedOn() throws {
        let stored = numbered(makeEvents(count: 60, sessions: 4), run: "r-1").enumerated().map { index, event in
            StoredEvent(seq: event.seq, wallNanoseconds: event.wallNanoseconds, monotonicNanoseconds: event.monotonicNanoseconds,
                        session: Int64(index % 4 + 1), kind: Int64(index % 9 + 1), sessionSeq: event.sessionSeq, subject: Int64(index % 7 + 1),
                        screen: Int64(index % 3), cause: event.cause, parent: 0, payload: event.payload)
        }
        let seed = EventBlock.encode(stored)
        XCTAssertEqual(try EventBlock.decode(seed), stored)
        var mutator = Mutator(seed: 4231)
        var refused = 0
        for _ in 0..<4000 {
            let input = mutator.below(2) == 0 ? mutator.mutate(seed) : mutator.corrupt(seed, count: 1 + mutator.below(6))
            if (try? EventBlock.decode(input)) == nil { refused += 1 }
        }
        XCTAssertGreaterThan(refused, 1000)
        for fixture in try fixtures("block") {
            XCTAssertThrowsError(try EventBlock.decode(fixture.bytes), fixture.name)
        }
    }

    func testMutatedBlocksWithValidChecksumsAndCorruptedFilesNeverCrashTheReader() throws {
        let path = try makeJournalFile()
        let original = try XCTUnwrap(FileManager.default.contents(atPath: path))
        let inflater = try Inflater(format: .raw)
        let deflater = try Deflater(level: 6, format: .raw)
        var blocks: [[UInt8]] = []
        do {
            let database = try SQLiteDatabase(path: path, readOnly: true)
            for row in try database.rows("SELECT data, raw_bytes FROM block ORDER BY id") {
                guard case .blob(let data) = row[0], let count = row[1].integer else { continue }
                blocks.append(try inflater.decompressAll(data, expectedCount: Int(count), context: "seed"))
            }
            database.close()
        }
        XCTAssertEqual(blocks.count, 5)
        var mutator = Mutator(seed: 1979)
        var outcomes = (read: 0, refused: 0)
        for round in 0..<600 {
            try original.write(to: URL(fileURLWithPath: path))
            if round % 2 == 0 {
                // A block whose layout is hostile but whose checksum and size match.
                let id = 1 + mutator.below(blocks.count)
                let raw = mutator.mutate(blocks[id - 1], splicing: blocks)
                let database = try SQLiteDatabase(path: path)
                let update = try database.prepare("UPDATE block SET data = ?, raw_bytes = ?, crc32 = ? WHERE id = ?")
                try update.bind([.blob(try deflater.compressAll(raw)), .integer(Int64(raw.count)), .integer(Int64(crc32Checksum(raw))), .integer(Int64(id))])
                try update.run()
                update.close()
                database.close()
            } else {
                // Random bytes of the file overwritten.
                let bytes = mutator.corrupt([UInt8](original), count: 1 + mutator.below(40))
                try Data(bytes).write(to: URL(fileURLWithPath: path))
            }
            if (try? JournalReader(paths: [path]).allEvents()) != nil { outcomes.read += 1 } else { outcomes.refused += 1 }
            _ = JournalVerifier.verify(paths: [path])
        }
        XCTAssertEqual(outcomes.read + outcomes.refused, 600)
        FileHandle.standardError.write(Data("fuzz: journal reader: 4000 block layouts, 600 damaged files (\(outcomes.refused) refused), no crash\n".utf8))
    }

    /// Files the fuzzer crashed the reader with (negative seqs, an inverted seq range in the
    /// block rows): now refused as damaged by the reader, the verifier and a writer's scan.
    func testFuzzFoundJournalFilesAreReportedAsDamaged() throws {
        let found = try fixtures("journal")
        XCTAssertEqual(found.count, 2)
        for fixture in found {
            let directory = makeTemporaryDirectory(self, name: fixture.name)
            let path = directory + "/" + fixture.name
            try Data(fixture.bytes).write(to: URL(fileURLWithPath: path))
            XCTAssertThrowsError(try JournalReader(paths: [path]).allEvents(), fixture.name)
            XCTAssertFalse(JournalVerifier.verify(paths: [path]).isHealthy, fixture.name)
            let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory))
            try writer.close()
        }
    }

    /// Regression inputs kept in `Tests/Fixtures/fuzz/<kind>-*.bin`.
    private func fixtures(_ kind: String) throws -> [(name: String, bytes: [UInt8])] {
        let directory = Repository.fixtures.appendingPathComponent("fuzz")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return try names.filter { $0.hasPrefix(kind + "-") }.sorted().map {
            ($0, [UInt8](try Data(contentsOf: directory.appendingPathComponent($0))))
        }
    }
}
