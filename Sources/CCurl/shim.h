#include <stddef.h>
#include <curl/curl.h>
#include <openssl/crypto.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: these typed
// wrappers pass one argument of each kind NavlogHTTPClient uses
// (https://curl.se/libcurl/c/curl_easy_setopt.html, https://curl.se/libcurl/c/curl_easy_getinfo.html).

/// Sets a `long` option, such as CURLOPT_TIMEOUT_MS or CURLOPT_NOSIGNAL.
static inline CURLcode navlog_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// Sets a `curl_off_t` option, such as CURLOPT_POSTFIELDSIZE_LARGE.
static inline CURLcode navlog_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// Sets a string option, such as CURLOPT_URL; libcurl copies the string.
static inline CURLcode navlog_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// Sets a pointer option, such as CURLOPT_WRITEDATA, CURLOPT_ERRORBUFFER or CURLOPT_POSTFIELDS.
static inline CURLcode navlog_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// Sets CURLOPT_WRITEFUNCTION (or another option taking a write callback).
static inline CURLcode navlog_curl_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// Sets a header list option, such as CURLOPT_HTTPHEADER.
static inline CURLcode navlog_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *list) {
    return curl_easy_setopt(handle, option, list);
}

/// Reads a `long` piece of information, such as CURLINFO_RESPONSE_CODE.
static inline CURLcode navlog_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// curl_global_init with CURL_GLOBAL_DEFAULT, a macro Swift does not import.
///
/// libcurl starts OpenSSL, whose first start registers OPENSSL_cleanup with atexit unless it
/// is told OPENSSL_INIT_NO_ATEXIT (the first call decides; later ones cannot undo it). exit()
/// then frees every thread's OpenSSL state while a thread that used it, such as a journal
/// writer hashing private values, may still be ending, and both free the same blocks. So
/// OpenSSL is started without it first, as NavlogEvents' LibCrypto does: the process's end
/// gives the memory back anyway.
static inline CURLcode navlog_curl_global_init(void) {
    if (OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL) != 1) return CURLE_FAILED_INIT;
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}
