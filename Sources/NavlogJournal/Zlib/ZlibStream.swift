import CZlib

#if canImport(CDeflate)
import CDeflate
#endif

/// The framing a deflate stream writes.
public enum ZlibFormat: Sendable {
    /// Raw deflate, no header or checksum (window bits -15); the journal's blocks.
    case raw
    /// zlib header and Adler-32 (window bits 15).
    case zlib
    /// gzip header and CRC-32 (window bits 31); the NDJSON baseline.
    case gzip

    var windowBits: Int32 {
        switch self {
        case .raw: return -15
        case .zlib: return 15
        case .gzip: return 31
        }
    }
}

/// One owned compressing `z_stream`.
///
/// See <https://www.zlib.net/manual.html#Advanced> (`deflateInit2`, `deflateSetDictionary`).
/// Public for the daemon's gzip request bodies (`Deflater(format: .gzip).compressAll(body)`).
public final class Deflater {
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private var isOpen = false

    /// A deflater at `level`; `memoryLevel` (1–9) sizes its hash table and its buffer of
    /// symbols, and with it how often a new set of Huffman codes starts (see `deflateInit2`).
    public init(level: Int32 = 6, format: ZlibFormat = .raw, memoryLevel: Int32 = 8) throws {
        stream.initialize(to: z_stream())
        let code = deflateInit2_(stream, level, Z_DEFLATED, format.windowBits, memoryLevel, Z_DEFAULT_STRATEGY,
                                 ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        // Every stored property is set, so a throw here runs `deinit`, which frees `stream`
        // (and skips `deflateEnd`, as the stream is not open): freeing it here too freed it twice.
        guard code == Z_OK else { throw ZlibError(code: code, message: "", context: "deflateInit2") }
        isOpen = true
    }

    deinit {
        close()
        stream.deallocate()
    }

    /// Frees zlib's state.
    public func close() {
        if isOpen { deflateEnd(stream) }
        isOpen = false
    }

    /// Starts a new stream with the same settings.
    func reset() throws {
        try check(deflateReset(stream), "deflateReset")
    }

    /// Primes the stream with `dictionary`; call after ``reset()`` and before the first ``compress``.
    func setDictionary(_ dictionary: [UInt8]) throws {
        let code = dictionary.withUnsafeBufferPointer { deflateSetDictionary(stream, $0.baseAddress, UInt32($0.count)) }
        try check(code, "deflateSetDictionary")
    }

    /// Compresses `input`, appending to `output`; `finish` ends the stream.
    func compress(_ input: UnsafeRawBufferPointer, into output: inout [UInt8], finish: Bool) throws {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(input.count)
        let flush = finish ? Z_FINISH : Z_NO_FLUSH
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let (code, produced, isFull) = chunk.withUnsafeMutableBufferPointer { buffer -> (Int32, Int, Bool) in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = UInt32(buffer.count)
                let code = deflate(stream, flush)
                return (code, buffer.count - Int(stream.pointee.avail_out), stream.pointee.avail_out == 0)
            }
            output.append(contentsOf: chunk[0..<produced])
            if code == Z_STREAM_END { return }
            if code != Z_OK && code != Z_BUF_ERROR { try check(code, "deflate") }
            if !finish && !isFull { return }
        }
    }

    /// Compresses all of `input` as one complete stream, after a reset.
    public func compressAll(_ input: [UInt8], dictionary: [UInt8]? = nil) throws -> [UInt8] {
        try reset()
        if let dictionary, !dictionary.isEmpty { try setDictionary(dictionary) }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 3 + 64)
        try input.withUnsafeBytes { try compress($0, into: &output, finish: true) }
        return output
    }

    private func check(_ code: Int32, _ context: String) throws {
        guard code != Z_OK else { return }
        let message = stream.pointee.msg.map { String(cString: $0) } ?? ""
        throw ZlibError(code: code, message: message, context: context)
    }
}

/// One owned decompressing `z_stream`, and libdeflate's decompressor for whole buffers.
///
/// See <https://www.zlib.net/manual.html#Advanced> (`inflateInit2`, `inflateSetDictionary`).
/// A whole raw stream with no dictionary (``decompressAll(_:expectedCount:dictionary:context:)``:
/// every journal block a report reads) is inflated by libdeflate, which does it in about a
/// third of zlib's time; the same DEFLATE data, so the journal format does not change. zlib
/// and gzip streams stay with zlib, whose messages say more of what is wrong with a header.
/// Public for the packed event sequences of `navlog diff` baselines.
public final class Inflater {
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private var isOpen = false
    private let format: ZlibFormat
    #if canImport(CDeflate)
    /// libdeflate's decompressor, made on first use (``wholeBufferDecompressor(context:)``).
    private var wholeBuffers: OpaquePointer?
    #endif

    public init(format: ZlibFormat = .raw) throws {
        self.format = format
        stream.initialize(to: z_stream())
        let code = inflateInit2_(stream, format.windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        // As in `Deflater.init`: a throw here runs `deinit`, which frees `stream`.
        guard code == Z_OK else { throw ZlibError(code: code, message: "", context: "inflateInit2") }
        isOpen = true
    }

    deinit {
        close()
        stream.deallocate()
    }

    /// Frees zlib's and libdeflate's state.
    public func close() {
        if isOpen { inflateEnd(stream) }
        isOpen = false
        #if canImport(CDeflate)
        if let wholeBuffers { libdeflate_free_decompressor(wholeBuffers) }
        wholeBuffers = nil
        #endif
    }

    #if canImport(CDeflate)
    /// libdeflate's decompressor, made on first use.
    func wholeBufferDecompressor(context: String) throws -> OpaquePointer {
        if let wholeBuffers { return wholeBuffers }
        guard let made = libdeflate_alloc_decompressor() else {
            throw ZlibError(code: Z_MEM_ERROR, message: "libdeflate_alloc_decompressor failed", context: context)
        }
        wholeBuffers = made
        return made
    }
    #endif

    /// Inflates one complete stream; `expectedCount` sizes the output and bounds it.
    public func decompressAll(_ input: [UInt8], expectedCount: Int, dictionary: [UInt8]? = nil, context: String) throws -> [UInt8] {
        #if canImport(CDeflate)
        if format == .raw, dictionary?.isEmpty ?? true { return try decompressWhole(input, expectedCount: expectedCount, context: context) }
        #endif
        try check(inflateReset(stream), context)
        if format == .raw, let dictionary, !dictionary.isEmpty {
            let code = dictionary.withUnsafeBufferPointer { inflateSetDictionary(stream, $0.baseAddress, UInt32($0.count)) }
            try check(code, context)
        }
        var output = [UInt8](repeating: 0, count: expectedCount)
        let (code, produced) = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target -> (Int32, Int) in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.pointee.avail_in = UInt32(source.count)
                stream.pointee.next_out = target.baseAddress
                stream.pointee.avail_out = UInt32(target.count)
                let code = inflate(stream, Z_FINISH)
                return (code, target.count - Int(stream.pointee.avail_out))
            }
        }
        guard code == Z_STREAM_END else {
            let message = stream.pointee.msg.map { String(cString: $0) } ?? ""
            let reason = code == Z_BUF_ERROR
                ? "stream is truncated or longer than the recorded \(expectedCount) bytes"
                : message
            throw ZlibError(code: code == Z_OK ? Z_BUF_ERROR : code, message: reason, context: context)
        }
        guard produced == expectedCount else {
            throw ZlibError(code: Z_DATA_ERROR, message: "inflated \(produced) bytes, expected \(expectedCount)", context: context)
        }
        return output
    }

    /// Inflates the start of one complete stream of `expectedCount` bytes: `output` grows to at
    /// least `count` bytes of it, or to all of it when the stream holds fewer. An empty `output`
    /// starts the stream; one that holds what an earlier call for the same `input` produced is
    /// continued, so a reader that finds it needs more asks again with a larger `count`.
    ///
    /// No checksum covers a prefix: a caller that inflates part of a block cannot check its CRC.
    public func decompressPrefix(_ input: [UInt8], expectedCount: Int, atLeast count: Int, into output: inout [UInt8],
                                 context: String) throws {
        if output.isEmpty { try check(inflateReset(stream), context) }
        guard output.count == Int(stream.pointee.total_out) else {
            throw ZlibError(code: Z_STREAM_ERROR, message: "the output does not continue this stream", context: context)
        }
        let target = min(max(count, output.count), expectedCount)
        guard target > output.count else { return }
        let produced = output.count
        output += repeatElement(0, count: target - produced)
        let consumed = Int(stream.pointee.total_in)
        let code = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target -> Int32 in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress.map { $0 + consumed })
                stream.pointee.avail_in = UInt32(source.count - consumed)
                stream.pointee.next_out = target.baseAddress.map { $0 + produced }
                stream.pointee.avail_out = UInt32(target.count - produced)
                return inflate(stream, Z_SYNC_FLUSH)
            }
        }
        let end = Int(stream.pointee.total_out)
        output.removeLast(output.count - end)
        switch code {
        case Z_STREAM_END where end == expectedCount, Z_OK where end == target && end < expectedCount:
            return
        case Z_STREAM_END:
            throw ZlibError(code: Z_DATA_ERROR, message: "inflated \(end) bytes, expected \(expectedCount)", context: context)
        case Z_OK, Z_BUF_ERROR:
            throw ZlibError(code: Z_BUF_ERROR, message: "stream is truncated or longer than the recorded \(expectedCount) bytes", context: context)
        default:
            let message = stream.pointee.msg.map { String(cString: $0) } ?? ""
            throw ZlibError(code: code, message: message, context: context)
        }
    }

    /// Inflates one complete stream of unknown size, such as a gzip request body; returns nil
    /// as soon as the output would pass `limit` bytes (a "zip bomb" costs `limit`, no more).
    /// Throws when the stream is damaged, truncated, or followed by other bytes.
    public func decompress(_ input: [UInt8], limit: Int, context: String) throws -> [UInt8]? {
        try check(inflateReset(stream), context)
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, max(4096, input.count * 4)))
        let chunk = 65_536
        var chunkBuffer = [UInt8](repeating: 0, count: chunk)
        return try input.withUnsafeBufferPointer { source -> [UInt8]? in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.pointee.avail_in = UInt32(source.count)
            while true {
                let (code, produced) = chunkBuffer.withUnsafeMutableBufferPointer { target -> (Int32, Int) in
                    stream.pointee.next_out = target.baseAddress
                    stream.pointee.avail_out = UInt32(target.count)
                    let code = inflate(stream, Z_NO_FLUSH)
                    return (code, target.count - Int(stream.pointee.avail_out))
                }
                if output.count + produced > limit { return nil }
                output.append(contentsOf: chunkBuffer[0..<produced])
                switch code {
                case Z_STREAM_END:
                    guard stream.pointee.avail_in == 0 else {
                        throw ZlibError(code: Z_DATA_ERROR, message: "\(stream.pointee.avail_in) bytes follow the end of the stream", context: context)
                    }
                    return output
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.pointee.avail_in == 0:
                    throw ZlibError(code: Z_BUF_ERROR, message: "the stream is truncated", context: context)
                default:
                    let message = stream.pointee.msg.map { String(cString: $0) } ?? "inflate failed"
                    throw ZlibError(code: code, message: message, context: context)
                }
            }
        }
    }

    private func check(_ code: Int32, _ context: String) throws {
        guard code != Z_OK else { return }
        let message = stream.pointee.msg.map { String(cString: $0) } ?? ""
        throw ZlibError(code: code, message: message, context: context)
    }
}

/// Returns the CRC-32 of `bytes`: zlib's `crc32`, computed on Linux by libdeflate, which uses
/// the processor's carry-less multiply (a tenth of zlib's time over a report's blocks).
func crc32Checksum(_ bytes: [UInt8]) -> UInt32 {
    #if canImport(CDeflate)
    bytes.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
    #else
    bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
    #endif
}
