#if canImport(CDeflate)
import CDeflate
import CZlib

extension Inflater {
    /// Inflates one complete raw stream of `expectedCount` bytes with libdeflate: what
    /// ``decompressAll(_:expectedCount:dictionary:context:)`` does for a raw stream with no
    /// dictionary.
    /// A failure is a ``ZlibError`` with the code zlib would have given (`Z_DATA_ERROR`,
    /// `Z_BUF_ERROR`), so callers see one kind of error whichever library inflated.
    func decompressWhole(_ input: [UInt8], expectedCount: Int, context: String) throws -> [UInt8] {
        let decompressor = try wholeBufferDecompressor(context: context)
        var result = LIBDEFLATE_SUCCESS
        var produced = 0
        // Written by libdeflate, so not zeroed first.
        let output = [UInt8](unsafeUninitializedCapacity: expectedCount) { buffer, initialized in
            result = input.withUnsafeBytes { source in
                libdeflate_deflate_decompress(decompressor, source.baseAddress, source.count, UnsafeMutableRawPointer(buffer.baseAddress),
                                              buffer.count, &produced)
            }
            initialized = result == LIBDEFLATE_SUCCESS ? produced : 0
        }
        switch result {
        case LIBDEFLATE_SUCCESS:
            guard produced == expectedCount else {
                throw ZlibError(code: Z_DATA_ERROR, message: "inflated \(produced) bytes, expected \(expectedCount)", context: context)
            }
            return output
        case LIBDEFLATE_INSUFFICIENT_SPACE:
            throw ZlibError(code: Z_BUF_ERROR, message: "stream is longer than the recorded \(expectedCount) bytes", context: context)
        default:
            throw ZlibError(code: Z_DATA_ERROR, message: "invalid or truncated deflate stream", context: context)
        }
    }
}
#endif
