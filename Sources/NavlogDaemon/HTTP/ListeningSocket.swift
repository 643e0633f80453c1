import Foundation

/// Creates the listening sockets the servers take over: a Unix socket with mode 0600, and IPv4 TCP.
enum ListeningSocket {
    /// Binds and listens on the Unix socket `path` with mode 0600; a stale socket file left by
    /// a crash is replaced, a live one (another daemon answering) is refused.
    static func unix(path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw failure("socket(AF_UNIX)", path) }
        var address = try makeAddress(path)
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        var info = stat()
        if lstat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFSOCK else {
                Glibc.close(descriptor)
                throw ListenError(detail: "\(path) exists and is not a socket; remove it or choose another listen.unix_socket")
            }
            let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            let isLive = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, length) == 0 } }
            Glibc.close(probe)
            guard !isLive else {
                Glibc.close(descriptor)
                throw ListenError(detail: "\(path) is in use by a running daemon")
            }
            unlink(path)
        }
        let previousMask = umask(0o177)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        umask(previousMask)
        guard bound == 0 else {
            let error = failure("bind", path)
            Glibc.close(descriptor)
            throw error
        }
        chmod(path, 0o600)
        guard listen(descriptor, 512) == 0 else {
            let error = failure("listen", path)
            Glibc.close(descriptor)
            throw error
        }
        return descriptor
    }

    /// Binds and listens on `host:port` (IPv4); returns the descriptor and the port bound.
    static func tcp(host: String, port: Int) throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw failure("socket(AF_INET)", "\(host):\(port)") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        _ = inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard bound == 0, listen(descriptor, 512) == 0 else {
            let code = errno
            var error = failure("bind", "\(host):\(port)")
            if code == EADDRINUSE { error.detail += "; stop what holds port \(port) or choose another listen.tcp.port" }
            Glibc.close(descriptor)
            throw error
        }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    static func makeAddress(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw ListenError(detail: "the socket path \(path) is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return address
    }

    private static func failure(_ call: String, _ what: String) -> ListenError {
        ListenError(detail: "\(call) \(what): \(String(cString: strerror(errno)))")
    }
}

/// A listener that could not be set up.
public struct ListenError: Error, CustomStringConvertible {
    public var detail: String
    public var description: String { "cannot listen: \(detail)" }
}
