import CCrypto

/// SHA-256 and HMAC-SHA256 (RFC 2104) from OpenSSL's libcrypto, the only cryptographic
/// primitives navlog needs: the ``Redactor`` hashes private values under a per-journal key.
///
/// Both use OpenSSL 3's one-shot calls, [`EVP_Digest`](https://docs.openssl.org/3.0/man3/EVP_DigestInit/)
/// and [`HMAC`](https://docs.openssl.org/3.0/man3/HMAC/), with `EVP_sha256()`. They do not
/// throw: with valid input they fail only when libcrypto itself is broken (out of memory, or
/// a configuration that left no provider of SHA-256), which no caller could recover from, so
/// a failure stops the process with a message naming the call and OpenSSL's error. Checked
/// against the NIST examples and the RFC 4231 vectors (`NavlogEventsTests.CryptoTests`).
///
/// ```swift
/// let digest = LibCrypto.sha256(Array("abc".utf8))      // 32 bytes: ba7816bf…
/// let tag = HMACSHA256(key: key).authenticationCode(for: "Ana".utf8)
/// ```
package enum LibCrypto {
    /// The length of a SHA-256 digest (and of an HMAC-SHA256 tag) in bytes.
    package static let sha256ByteCount = 32

    /// Initializes libcrypto once, before its first use here, with `OPENSSL_INIT_NO_ATEXIT`: by
    /// default its first use registers `OPENSSL_cleanup` with `atexit`, and `exit` then frees
    /// every thread's OpenSSL state while threads that used it may still be ending. The journal
    /// writer's thread hashes private values (HMAC) and is not joined: when it was still
    /// tearing down its thread-local OpenSSL state as `navlog explore tabs` called `exit`, both
    /// freed the same blocks and glibc aborted (`malloc_consolidate(): unaligned fastbin chunk
    /// detected`). The process's end gives the memory back anyway.
    private static let initialized: Bool = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil) == 1

    /// Starts libcrypto as above, if nothing started it before: for a caller about to use a
    /// library that starts OpenSSL on its own, such as `URLSession` (through libcurl), whose
    /// start would otherwise register the `atexit` cleanup first.
    package static func startWithoutExitCleanup() {
        check(initialized, "OPENSSL_init_crypto")
    }

    /// Returns the SHA-256 digest of `bytes` (32 bytes).
    package static func sha256(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        check(initialized, "OPENSSL_init_crypto")
        return withContiguousBytes(of: bytes) { data, count in
            var digest = [UInt8](repeating: 0, count: sha256ByteCount)
            var digestCount: UInt32 = 0
            let isDone = digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(data, count, output.baseAddress, &digestCount, EVP_sha256(), nil)
            }
            check(isDone == 1 && digestCount == sha256ByteCount, "EVP_Digest(SHA-256) of \(count) bytes")
            return digest
        }
    }

    /// Returns the HMAC-SHA256 tag of `message` under `key` (32 bytes).
    package static func hmacSHA256(key: [UInt8], message: some Sequence<UInt8>) -> [UInt8] {
        check(initialized, "OPENSSL_init_crypto")
        return withContiguousBytes(of: key) { keyBytes, keyCount in
            withContiguousBytes(of: message) { data, count in
                var tag = [UInt8](repeating: 0, count: sha256ByteCount)
                var tagCount: UInt32 = 0
                let result = tag.withUnsafeMutableBufferPointer { output in
                    HMAC(EVP_sha256(), keyBytes, Int32(keyCount), data.assumingMemoryBound(to: UInt8.self), count,
                         output.baseAddress, &tagCount)
                }
                check(result != nil && tagCount == sha256ByteCount, "HMAC(SHA-256) of \(count) bytes under a \(keyCount)-byte key")
                return tag
            }
        }
    }

    // MARK: - Helpers

    /// Calls `body` with the bytes of `bytes` in one buffer (copied only when `bytes` has no
    /// contiguous storage), and never a null pointer, so no libcrypto call has to accept one.
    private static func withContiguousBytes<Result>(
        of bytes: some Sequence<UInt8>, _ body: (UnsafeRawPointer, Int) -> Result
    ) -> Result {
        func call(_ buffer: UnsafeBufferPointer<UInt8>) -> Result {
            guard let base = buffer.baseAddress, !buffer.isEmpty else {
                return withUnsafeBytes(of: UInt8(0)) { body($0.baseAddress!, 0) }
            }
            return body(UnsafeRawPointer(base), buffer.count)
        }
        if let result = bytes.withContiguousStorageIfAvailable(call) { return result }
        return Array(bytes).withUnsafeBufferPointer(call)
    }

    /// Stops the process when a libcrypto call failed, naming the call and OpenSSL's first error
    /// (`fatalError`, whose message survives release builds).
    private static func check(_ isSuccess: Bool, _ call: @autoclosure () -> String) {
        guard !isSuccess else { return }
        let code = ERR_get_error()
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        let reason = code == 0 ? "no OpenSSL error recorded" : String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        fatalError("libcrypto's \(call()) failed (\(reason)); the OpenSSL installation cannot compute SHA-256: check libcrypto and OPENSSL_CONF")
    }
}

/// HMAC-SHA256 (RFC 2104) under one key: equal values give equal tags under that key, and
/// nobody without the key can test a guess against a tag.
package struct HMACSHA256: Sendable {
    private let key: [UInt8]

    /// Keeps `key` for the tags to come; libcrypto hashes a key longer than a block first.
    package init(key: [UInt8]) {
        self.key = key
    }

    /// Returns the 32-byte tag of `message`.
    package func authenticationCode(for message: some Sequence<UInt8>) -> [UInt8] {
        LibCrypto.hmacSHA256(key: key, message: message)
    }
}
