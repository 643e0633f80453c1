import CMicroHTTPD
import Foundation

/// The ceiling: libmicrohttpd with the daemon's threading (epoll, internal thread pool) and a C
/// handler that reads the body and answers one fixed JSON body, nothing else.
final class MinimalServer {
    let port: Int
    private var daemon: OpaquePointer?

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        listen(descriptor, 512)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
        let arguments: [any CVarArg] = [
            MHD_OPTION.LISTEN_SOCKET.rawValue, descriptor,
            MHD_OPTION.THREAD_POOL_SIZE.rawValue, UInt32(max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))),
            MHD_OPTION.END.rawValue,
        ]
        daemon = withVaList(arguments) { MHD_start_daemon_va(flags, 0, nil, nil, fixedHandler, nil, $0) }
        guard daemon != nil else { throw MinimalServerError() }
    }

    func close() {
        if let daemon { MHD_stop_daemon(daemon) }
        daemon = nil
    }
}

struct MinimalServerError: Error, CustomStringConvertible {
    var description: String { "the minimal libmicrohttpd server did not start" }
}

/// The fixed body every request gets.
private let fixedBody: StaticString = #"{"ok":true}"#

private let fixedHandler: @convention(c) (
    UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
    UnsafePointer<CChar>?, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result = { _, connection, _, _, _, _, uploadSize, slot in
    guard let slot, let uploadSize else { return .NO }
    if slot.pointee == nil {
        slot.pointee = UnsafeMutableRawPointer(bitPattern: 1)
        return .YES
    }
    if uploadSize.pointee > 0 {
        uploadSize.pointee = 0
        return .YES
    }
    let response = MHD_create_response_from_buffer(fixedBody.utf8CodeUnitCount, UnsafeMutableRawPointer(mutating: fixedBody.utf8Start), .RESPMEM_PERSISTENT)
    _ = MHD_add_response_header(response, "Content-Type", "application/json")
    let result = MHD_queue_response(connection, 200, response)
    MHD_destroy_response(response)
    return result
}
