import CCurl

/// A blocking HTTP client over one libcurl easy handle: http and https (TLS verified against
/// the system's certificate authorities or a CA file), IPv4 and IPv6, Unix sockets, chunked
/// answers. Redirects are not followed.
///
/// The handle keeps its connections between requests (keep-alive, and TLS sessions), so send
/// a series of requests through one client. A client is used by one thread at a time.
///
/// ```swift
/// let client = try HTTPClient()
/// let response = try client.send(HTTPRequest(method: "POST", url: "https://collector:4318/v1/traces", body: body))
/// ```
public final class HTTPClient {
    private var handle: UnsafeMutableRawPointer?
    /// CURLOPT_ERRORBUFFER: libcurl writes why a transfer failed here.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// The body of the answer being read, filled by the write callback.
    fileprivate var responseBody: [UInt8] = []

    /// Creates a client with its own easy handle
    /// ([curl_easy_init](https://curl.se/libcurl/c/curl_easy_init.html)).
    public init() throws {
        let initialized = CurlLibrary.initialization
        guard initialized == CURLE_OK, let handle = curl_easy_init() else {
            throw HTTPClientError(
                code: Int(initialized == CURLE_OK ? CURLE_FAILED_INIT.rawValue : initialized.rawValue),
                message: "libcurl could not be initialized", method: "-", url: "-")
        }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        close()
        errorBuffer.deallocate()
    }

    /// Frees the handle and closes its connections; a closed client refuses requests.
    public func close() {
        if let handle { curl_easy_cleanup(handle) }
        handle = nil
    }

    // MARK: - Requests

    /// Sends `request` and reads the whole answer; throws ``HTTPClientError`` naming the
    /// request when no answer came (connection refused, TLS failure, timeout, ...).
    ///
    /// Any status is an answer, 4xx and 5xx too. See
    /// [curl_easy_perform](https://curl.se/libcurl/c/curl_easy_perform.html).
    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let handle else {
            throw HTTPClientError(code: Int(CURLE_FAILED_INIT.rawValue), message: "the client is closed", method: request.method,
                                  url: request.url, unixSocketPath: request.unixSocketPath)
        }
        // Options start afresh for every request; the connection cache stays.
        curl_easy_reset(handle)
        errorBuffer[0] = 0
        responseBody = []
        defer { responseBody = [] }
        func check(_ code: CURLcode) throws {
            guard code == CURLE_OK else { throw HTTPClientError(code, errorBuffer: errorBuffer, request: request) }
        }
        try check(navlog_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        try check(navlog_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        try check(navlog_curl_setopt_string(handle, CURLOPT_URL, request.url))
        try check(navlog_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        try check(navlog_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        try check(navlog_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, request.timeoutMilliseconds))
        try check(navlog_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, request.timeoutMilliseconds))
        if let path = request.unixSocketPath { try check(navlog_curl_setopt_string(handle, CURLOPT_UNIX_SOCKET_PATH, path)) }
        if let file = request.certificateAuthorityFile { try check(navlog_curl_setopt_string(handle, CURLOPT_CAINFO, file)) }
        try check(navlog_curl_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let context else { return 0 }
            let client = Unmanaged<HTTPClient>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            if let data, length > 0 { client.responseBody.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length)) }
            return length
        })
        try check(navlog_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(self).toOpaque()))

        let headers = try makeHeaderList(request)
        defer { curl_slist_free_all(headers) }
        try check(navlog_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers))

        let hasBody = !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method)
        if hasBody {
            if request.method != "POST" { try check(navlog_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method)) }
        } else if request.method == "HEAD" {
            try check(navlog_curl_setopt_long(handle, CURLOPT_NOBODY, 1))
        } else {
            try check(navlog_curl_setopt_long(handle, CURLOPT_HTTPGET, 1))
            if request.method != "GET" { try check(navlog_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method)) }
        }
        // A non-empty buffer even for an empty body: a NULL CURLOPT_POSTFIELDS would make
        // libcurl read the body from stdin.
        let bytes = request.body.isEmpty ? [0] : request.body
        try bytes.withUnsafeBytes { buffer in
            if hasBody {
                try check(navlog_curl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)))
                try check(navlog_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: buffer.baseAddress)))
            }
            try check(curl_easy_perform(handle))
        }
        var status = 0
        try check(navlog_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status))
        return HTTPResponse(status: status, body: responseBody)
    }

    /// The request's headers as a libcurl list, plus two removals: no `Expect: 100-continue`
    /// (a server that ignores it would cost a second per request) and, unless the request sets
    /// one, no `Content-Type` (libcurl would claim a form).
    private func makeHeaderList(_ request: HTTPRequest) throws -> UnsafeMutablePointer<curl_slist>? {
        var lines = request.headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        lines.append("Expect:")
        if !request.headers.keys.contains(where: { $0.lowercased() == "content-type" }) { lines.append("Content-Type:") }
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            guard let appended = curl_slist_append(list, line) else {
                curl_slist_free_all(list)
                throw HTTPClientError(code: Int(CURLE_OUT_OF_MEMORY.rawValue), message: "cannot add the header \(line)", method: request.method,
                                      url: request.url, unixSocketPath: request.unixSocketPath)
            }
            list = appended
        }
        return list
    }
}

/// libcurl's global state, set up once for the process, thread-safely (a lazy static)
/// ([curl_global_init](https://curl.se/libcurl/c/curl_global_init.html)).
private enum CurlLibrary {
    static let initialization = navlog_curl_global_init()
}
