#ifndef BELAY_CURL_SHIM_H
#define BELAY_CURL_SHIM_H
/*
 * libcurl calls Swift cannot make: curl_easy_setopt and curl_easy_getinfo are C-variadic,
 * and the socket and write callbacks are plain C functions that only touch the structs
 * below, so no callback ever reaches Swift.
 */
#include <stddef.h>
#include <curl/curl.h>

/// Runs curl_global_init once (thread-safe); returns its result.
CURLcode belay_curl_global_init(void);

CURLcode belay_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode belay_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode belay_curl_setopt_headers(CURL *handle, struct curl_slist *headers);
/// Sets a POST body of `length` bytes; libcurl copies it.
CURLcode belay_curl_setopt_body(CURL *handle, const void *bytes, long length);

/// Refuses connections to loopback, link-local, private, shared, multicast and unspecified
/// addresses (checked on the address libcurl is about to connect to, after DNS) unless
/// `allow_private` is set. A refusal sets `refused` and names the address.
typedef struct belay_curl_guard {
    int allow_private;
    int refused;
    char refused_address[64];
} belay_curl_guard;
CURLcode belay_curl_guard_addresses(CURL *handle, belay_curl_guard *guard);

/// Keeps the first `limit` bytes of the response body (the rest is read and dropped).
typedef struct belay_curl_body {
    char *bytes;
    size_t length;
    size_t limit;
} belay_curl_body;
CURLcode belay_curl_capture_body(CURL *handle, belay_curl_body *body);
/// Frees what `belay_curl_capture_body` collected.
void belay_curl_body_free(belay_curl_body *body);
/// Keeps the first `limit` bytes of the response's header lines (status line included, each
/// ending in CRLF; after a redirect or a 100 Continue, the lines of every response).
CURLcode belay_curl_capture_headers(CURL *handle, belay_curl_body *headers);

/// A multi handle that sends the transfers of a batch over one connection per host, as
/// HTTP/2 streams (CURLMOPT_PIPELINING = CURLPIPE_MULTIPLEX); its connections stay open
/// between batches. NULL when libcurl cannot make one.
CURLM *belay_curl_multi_multiplexing(void);
/// Runs the transfers added to `multi` as far as they can go without waiting; when none has
/// finished, waits once for activity (at most `wait_ms`, less when libcurl's own timers or
/// `curl_multi_wakeup` end it) and runs them again. Each finished transfer is removed from
/// `multi` and written to `done[i]` with its outcome in `results[i]`, at most `capacity` of them
/// (the rest are reported by the next call); `*finished` is how many were, `*running` how many
/// transfers are still under way.
CURLMcode belay_curl_multi_drive(CURLM *multi, long wait_ms, CURL **done, CURLcode *results, int capacity, int *finished,
                                 int *running);

/// Sets a list option (CURLOPT_MAIL_RCPT, …); the list must outlive the transfer.
CURLcode belay_curl_setopt_list(CURL *handle, CURLoption option, struct curl_slist *list);

/// Collects libcurl's own explanation of a failure (CURL_ERROR_SIZE bytes) in `buffer`.
CURLcode belay_curl_setopt_error_buffer(CURL *handle, char *buffer);

/// A request body sent from memory through CURLOPT_READFUNCTION (an SMTP message, an
/// upload): `belay_curl_setopt_upload` copies the bytes, turns on CURLOPT_UPLOAD and sets its
/// size; the read callback only touches this struct.
typedef struct belay_curl_upload {
    char *bytes;
    size_t length;
    size_t offset;
} belay_curl_upload;
CURLcode belay_curl_setopt_upload(CURL *handle, belay_curl_upload *upload, const void *bytes, size_t length);
/// Frees what `belay_curl_setopt_upload` copied.
void belay_curl_upload_free(belay_curl_upload *upload);

/// The HTTP status (or the last SMTP reply code) of the last transfer, 0 when none came back.
long belay_curl_response_code(CURL *handle);

/// Whether `address` (an IPv4 or IPv6 sockaddr) is one the guard refuses.
int belay_curl_address_is_private(const struct sockaddr *address);

#endif
