import Foundation
import NavlogEvents
import NavlogTestSupport
import XCTest

/// Hostile journals through the extension: the reader's fuzz fixtures, and blocks whose layout
/// is mutated but whose checksum and size match, are SQL errors, never a crash.
final class ExtensionFuzzTests: XCTestCase {
    func testTheReadersFuzzFixturesAreErrorsNamingTheBlock() throws {
        let harness = try SQLiteExtensionHarness(self)
        let fixtures = Repository.fixtures.appendingPathComponent("fuzz")
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { $0.hasSuffix(".navlog") }.sorted()
        XCTAssertEqual(names.count, 2)
        for name in names {
            let copy = URL(fileURLWithPath: harness.directory).appendingPathComponent(name).standardizedFileURL.path
            try FileManager.default.copyItem(atPath: fixtures.appendingPathComponent(name).path, toPath: copy)
            for table in ["navlog_events", "navlog_visits"] {
                let result = try harness.runCLI("SELECT count(*) FROM \(table)", on: copy, mode: "-list")
                XCTAssertEqual(result.status, 1, "\(name) \(table): \(result.stdout)")
                XCTAssertTrue(result.stderr.hasPrefix("Error: stepping, \(table): \(copy) is damaged: the block holding seq "), result.stderr)
                XCTAssertTrue(result.stderr.contains("(block 1"), result.stderr)
            }
        }
    }

    /// Python mutates one block's inflated bytes a round, deflates them again with a matching
    /// CRC-32 and size, and reads both tables; an extension that crashed would take Python down.
    private static let program = """
        import random, shutil, sqlite3, sys, zlib
        source, copy, library = sys.argv[1:4]
        generator = random.Random(2718)
        outcomes = {"read": 0, "refused": 0}
        for round in range(200):
            shutil.copyfile(source, copy)
            connection = sqlite3.connect(copy)
            blocks = connection.execute("SELECT id, data FROM block").fetchall()
            block, data = blocks[generator.randrange(len(blocks))]
            raw = bytearray(zlib.decompress(data, -15))
            for _ in range(1 + generator.randrange(8)):
                position = generator.randrange(len(raw))
                if generator.random() < 0.5:
                    raw[position] = generator.randrange(256)
                else:
                    del raw[position:position + generator.randrange(1, 16)]
            compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
            packed = compressor.compress(bytes(raw)) + compressor.flush()
            connection.execute("UPDATE block SET data = ?, raw_bytes = ?, crc32 = ? WHERE id = ?",
                               (packed, len(raw), zlib.crc32(bytes(raw)), block))
            connection.commit()
            connection.enable_load_extension(True)
            connection.load_extension(library)
            # Every column; the envelope alone (the front of each block); and the visits.
            for query in ("SELECT * FROM navlog_events", "SELECT kind, count(*) FROM navlog_events GROUP BY kind",
                          "SELECT seq, session_seq, cause FROM navlog_events", "SELECT * FROM navlog_visits"):
                try:
                    connection.execute(query).fetchall()
                    outcomes["read"] += 1
                except sqlite3.Error as error:
                    if "is damaged" not in str(error):
                        print(f"round {round}, block {block}: {error}")
                        sys.exit(1)
                    outcomes["refused"] += 1
            connection.close()
        print(outcomes["read"], outcomes["refused"])
        """

    func testMutatedBlocksWithMatchingChecksumsNeverCrashTheExtension() throws {
        let harness = try SQLiteExtensionHarness(self)
        let copy = harness.directory + "/fuzzed.sqlite"
        let result = try runTool("/usr/bin/python3", ["-c", Self.program, harness.file, copy, SQLiteExtensionHarness.library])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let counts = result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        XCTAssertEqual(counts.count, 2, result.stdout)
        XCTAssertEqual(counts.reduce(0, +), 800, result.stdout)
        // Most mutations are refused; a few leave a block that still decodes.
        XCTAssertGreaterThan(counts.last ?? 0, 200, result.stdout)
    }
}
