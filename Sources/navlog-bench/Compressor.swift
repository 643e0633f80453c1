import CZlib

/// One owned deflate `z_stream` for the benchmark's baselines and compression comparison.
final class Compressor {
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    /// Compressed bytes produced so far.
    private(set) var producedBytes = 0

    /// Creates a stream; `windowBits` 31 writes gzip, -15 raw deflate.
    init(level: Int32, windowBits: Int32) {
        stream.initialize(to: z_stream())
        let code = deflateInit2_(stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY,
                                 ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        precondition(code == Z_OK, "deflateInit2 failed with \(code)")
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// Feeds `bytes`; `finish` ends the stream.
    func feed(_ bytes: UnsafeRawBufferPointer, finish: Bool) {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(bytes.count)
        repeat {
            let code = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = UInt32(buffer.count)
                let code = deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH)
                producedBytes += buffer.count - Int(stream.pointee.avail_out)
                return code
            }
            if code == Z_STREAM_END { return }
            precondition(code == Z_OK || code == Z_BUF_ERROR, "deflate failed with \(code)")
        } while finish || stream.pointee.avail_out == 0
    }

    /// Compresses `text` as one stream primed with `dictionary`; returns the compressed size.
    func compressedSize(of text: String, dictionary: String?) -> Int {
        deflateReset(stream)
        if var dictionary, !dictionary.isEmpty {
            dictionary.withUTF8 { _ = deflateSetDictionary(stream, $0.baseAddress, UInt32($0.count)) }
        }
        let before = producedBytes
        var text = text
        text.withUTF8 { feed(UnsafeRawBufferPointer($0), finish: true) }
        return producedBytes - before
    }
}
