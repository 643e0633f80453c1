import XCTest

@testable import NavlogJournal

/// The zlib wrappers refuse settings zlib refuses, with zlib's own code, and free their stream
/// once: a refused `deflateInit2` used to free it in the initializer and again in `deinit`.
final class ZlibStreamTests: XCTestCase {
    func testSettingsZlibRefusesThrowItsErrorAndFreeTheStreamOnce() {
        for (level, memoryLevel) in [(42, 8), (6, 0), (6, 10), (-5, 8)] as [(Int32, Int32)] {
            XCTAssertThrowsError(try Deflater(level: level, memoryLevel: memoryLevel), "level \(level), memory level \(memoryLevel)") { error in
                guard let error = error as? ZlibError else { return XCTFail("\(error) is not a ZlibError") }
                XCTAssertTrue("\(error)".contains("deflateInit2"), "\(error)")
            }
        }
        // The allocator still works after the refusals (a double free aborts here or soon after).
        for _ in 0..<1000 { XCTAssertNoThrow(try Deflater(level: 6)) }
    }

    func testARoundTripThroughEveryFormatGivesTheBytesBack() throws {
        let input = [UInt8]((0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7 / 13) })
        for format in [ZlibFormat.raw, .zlib, .gzip] {
            let compressed = try Deflater(level: 6, format: format).compressAll(input)
            XCTAssertLessThan(compressed.count, input.count / 4)
            let output = try Inflater(format: format).decompressAll(compressed, expectedCount: input.count, context: "test")
            XCTAssertEqual(output, input, "\(format)")
        }
    }
}
