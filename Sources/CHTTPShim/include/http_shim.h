#ifndef BELAY_HTTP_SHIM_H
#define BELAY_HTTP_SHIM_H
/*
 * libmicrohttpd calls Swift cannot make: MHD_start_daemon, MHD_get_daemon_info and
 * MHD_get_connection_info are C-variadic, and the external logger takes a va_list.
 */
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Receives one formatted libmicrohttpd diagnostic message.
typedef void (*belay_http_log_function)(void *context, const char *message);

/// Everything needed to start a daemon; plain values so Swift can fill it in.
typedef struct belay_http_daemon_options {
    /// Numeric IPv4/IPv6 address or host name to bind; NULL or "" binds every interface.
    const char *host;
    uint16_t port;
    /// Worker threads, each with its own epoll loop; 1 means a single internal thread.
    unsigned int thread_count;
    /// Seconds of inactivity before a connection is closed; 0 disables the timeout.
    unsigned int connection_timeout_seconds;
    /// 0 leaves libmicrohttpd's default.
    unsigned int connection_limit;
    /// 0 means no per-address limit.
    unsigned int per_ip_connection_limit;
    /// 0 leaves libmicrohttpd's default.
    unsigned int listen_backlog;
    /// Bytes of per-connection memory for headers and buffers; 0 leaves the default (32 KiB).
    size_t connection_memory_limit;

    MHD_AccessHandlerCallback access_handler;
    MHD_RequestCompletedCallback completed_handler;
    /// Told when each connection opens and closes; may be NULL.
    MHD_NotifyConnectionCallback connection_handler;
    /// Passed to both handlers.
    void *handler_context;
    belay_http_log_function log_function;
    void *log_context;
} belay_http_daemon_options;

/// A running daemon and the logger closure it points at; owned by whoever started it.
typedef struct belay_http_daemon belay_http_daemon;

/// Resolves the host, builds the option array and starts the daemon.
/// Returns NULL on failure with a message in `error` (always NUL-terminated when error_size > 0);
/// libmicrohttpd's own explanation (e.g. a bind failure) goes to the log function.
belay_http_daemon *belay_http_start_daemon(const belay_http_daemon_options *options,
                                           char *error, size_t error_size);

/// The port the daemon's listening socket is bound to (the real one when 0 was asked for);
/// 0 when it cannot be read.
uint16_t belay_http_bound_port(belay_http_daemon *daemon);

/// Stops accepting connections (closes the listening socket, so connecting is refused);
/// requests on open connections are still served. Safe to call more than once; when the
/// socket cannot be closed this way the log function is told and connections are still taken.
void belay_http_quiesce_daemon(belay_http_daemon *daemon);

/// Closes every connection, joins the worker threads and frees the daemon. After this returns
/// no handler runs again.
void belay_http_stop_daemon(belay_http_daemon *daemon);

/// Writes the client's numeric address (IPv4 or IPv6, without port) into `buffer`.
/// Returns the length written, or 0 when the address is unknown.
size_t belay_http_client_address(struct MHD_Connection *connection, char *buffer, size_t size);

/// The header fields that decide how a request is framed, counted in one pass over the headers.
typedef struct belay_http_framing {
    /// How many `Host` fields the request has.
    unsigned int host_count;
    /// How many `Content-Length` fields the request has.
    unsigned int content_length_count;
    /// 1 when two `Content-Length` fields differ (libmicrohttpd uses only the first one).
    int content_lengths_differ;
    /// How many `Transfer-Encoding` fields the request has.
    unsigned int transfer_encoding_count;
    /// Bytes of every header field's name and value, plus 4 per field (`: ` and CRLF).
    size_t header_bytes;
    /// 1 when a field name is not an RFC 9110 token, e.g. `Transfer-Encoding ` with whitespace
    /// before the colon (libmicrohttpd keeps the whitespace in the name).
    int invalid_field_name;
    /// 1 when a field line held a NUL byte or was folded over lines (see belay_http_inspect_framing).
    int unreadable_field_line;
    /// 1 when that line was the `Authorization` field's.
    int unreadable_authorization;
} belay_http_framing;

/// The connection's socket, or -1 when it cannot be read.
int belay_http_connection_fd(struct MHD_Connection *connection);

/// The pointer stored in the connection's socket context (by the connection handler), or NULL.
void *belay_http_socket_context(struct MHD_Connection *connection);

/// Counts the request's `Host`, `Content-Length` and `Transfer-Encoding` fields, and checks
/// that each field line reads whole. `method` is the method string libmicrohttpd handed the
/// access handler (the start of the request's header section in its read buffer).
void belay_http_inspect_framing(struct MHD_Connection *connection, const char *method, belay_http_framing *framing);

/// libmicrohttpd's URI log callback (`MHD_OPTION_URI_LOG_CALLBACK`), which sees the request
/// target as sent, before it is percent-decoded: returns `belay_http_nul_target_marker()` when
/// the target carries `%00` (a NUL once decoded, which would cut the path or a query value
/// short), and NULL otherwise. What it returns is the request's first `*req_cls`.
void *belay_http_inspect_target(void *context, const char *uri, struct MHD_Connection *connection);

/// The request-slot value that marks a request whose target carries an encoded NUL; never a
/// real pointer.
static inline void *belay_http_nul_target_marker(void) { return (void *)(uintptr_t)2; }

#endif
