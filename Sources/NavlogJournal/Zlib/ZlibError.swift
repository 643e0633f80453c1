import CZlib

/// A failed zlib call: the return code, zlib's message and what was being done.
///
/// See <https://www.zlib.net/manual.html> for the codes.
public struct ZlibError: Error, CustomStringConvertible, Sendable {
    /// The zlib return code (`Z_DATA_ERROR`, `Z_BUF_ERROR`, ...).
    public var code: Int32
    /// zlib's message (`msg` of the stream), if it gave one.
    public var message: String
    /// The operation, such as "inflate block 12".
    public var context: String

    public init(code: Int32, message: String, context: String) {
        self.code = code
        self.message = message
        self.context = context
    }

    public var description: String {
        let name: String
        switch code {
        case Z_STREAM_ERROR: name = "Z_STREAM_ERROR"
        case Z_DATA_ERROR: name = "Z_DATA_ERROR"
        case Z_MEM_ERROR: name = "Z_MEM_ERROR"
        case Z_BUF_ERROR: name = "Z_BUF_ERROR"
        case Z_NEED_DICT: name = "Z_NEED_DICT"
        case Z_VERSION_ERROR: name = "Z_VERSION_ERROR"
        default: name = "code \(code)"
        }
        return "zlib error \(name) while \(context): \(message.isEmpty ? "no message" : message)"
    }
}
