import Foundation
import XCTest

/// A test-side HTTP server: a small Python `http.server` on a TCP port (IPv4 or IPv6 loopback)
/// or a Unix socket, speaking HTTP/1.1.
///
/// `GET /chunked` answers `Transfer-Encoding: chunked` in three chunks, `GET /redirect` a 302 to
/// `/elsewhere`; every other request gets a JSON echo of its method, path, body and headers.
final class TestServer {
    static let script = """
        import json, os, socket, socketserver, sys
        from http.server import HTTPServer, BaseHTTPRequestHandler
        where = sys.argv[1]
        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *arguments): pass
            def address_string(self): return "test"
            def answer(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if self.path == "/chunked":
                    self.send_response(200)
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    for chunk in [b"first,", b"second," * 1000, b"third"]:
                        self.wfile.write(b"%x\\r\\n%s\\r\\n" % (len(chunk), chunk))
                        self.wfile.flush()
                    self.wfile.write(b"0\\r\\n\\r\\n")
                    return
                if self.path == "/redirect":
                    self.send_response(302)
                    self.send_header("Location", "/elsewhere")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                data = json.dumps({"method": self.command, "path": self.path, "body": body.decode(),
                                   "headers": {k.lower(): v for k, v in self.headers.items()}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = answer
        class UnixServer(socketserver.UnixStreamServer):
            def get_request(self):
                request, _ = super().get_request()
                return request, ("unix", 0)
        if where == "ipv4":
            server = HTTPServer(("127.0.0.1", 0), Handler)
        elif where == "ipv6":
            class Server6(HTTPServer): address_family = socket.AF_INET6
            server = Server6(("::1", 0), Handler)
        else:
            server = UnixServer(where, Handler)
        print("listening %d" % (server.server_address[1] if where in ("ipv4", "ipv6") else 0), flush=True)
        server.serve_forever()
        """

    let port: Int
    private let process: Process

    /// Starts a server on `where`: `ipv4`, `ipv6`, or a Unix socket path.
    init(_ test: XCTestCase, on where: String) throws {
        let directory = NSTemporaryDirectory() + "http-client-server-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Self.script.write(toFile: directory + "/server.py", atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", directory + "/server.py", `where`]
        let output = Pipe()
        process.standardOutput = output
        // Not the test's own stderr: a pipe inherited by a stray child would hold `swift test` open.
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        // Blocks until the first line: the server prints it once bound, or exits.
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("listening "), let bound = Int(line.dropFirst(10).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw XCTSkip("the test server did not start on \(`where`)")
        }
        port = bound
        test.addTeardownBlock { [process] in
            process.terminate()
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}

/// A TCP socket on 127.0.0.1 that listens but never accepts: connections complete in the
/// kernel's backlog, and requests sent there are never answered.
final class SilentListener {
    private let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 8) == 0 else {
            throw XCTSkip("cannot listen on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
