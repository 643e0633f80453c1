import CZlib
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

    /// A raw stream is inflated whole by libdeflate; damage of every sort is a ``ZlibError``
    /// naming what was being inflated, never a crash or short output handed on.
    func testADamagedRawStreamIsRefusedWithAZlibError() throws {
        let input = [UInt8]((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31 / 7) })
        let compressed = try Deflater(level: 6, format: .raw).compressAll(input)
        let inflater = try Inflater(format: .raw)
        var flipped = compressed
        flipped[compressed.count / 2] ^= 0x5A
        let cases: [(String, [UInt8], Int, Int32)] = [
            ("truncated", Array(compressed.prefix(compressed.count / 2)), input.count, Z_DATA_ERROR),
            ("garbage", [UInt8](repeating: 0xFF, count: 64), input.count, Z_DATA_ERROR),
            ("recorded too short", compressed, input.count - 1, Z_BUF_ERROR),
            ("recorded too long", compressed, input.count + 1, Z_DATA_ERROR),
        ]
        for (name, bytes, expected, code) in cases {
            XCTAssertThrowsError(try inflater.decompressAll(bytes, expectedCount: expected, context: "block 7"), name) { error in
                guard let error = error as? ZlibError else { return XCTFail("\(name): \(error) is not a ZlibError") }
                XCTAssertEqual(error.code, code, "\(name): \(error)")
                XCTAssertTrue("\(error)".contains("block 7"), "\(name): \(error)")
            }
        }
        // A flipped byte is refused, or inflates to other bytes that the block's CRC-32 catches.
        if let output = try? inflater.decompressAll(flipped, expectedCount: input.count, context: "block 7") {
            XCTAssertNotEqual(crc32Checksum(output), crc32Checksum(input))
        }
        // libdeflate's CRC-32 is zlib's, which journals written before were checked with.
        XCTAssertEqual(crc32Checksum(input), input.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) })
        // The same inflater still works after the refusals.
        XCTAssertEqual(try inflater.decompressAll(compressed, expectedCount: input.count, context: "block 7"), input)
    }
}
