#define _GNU_SOURCE
#include "http_shim.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

struct belay_http_daemon {
    struct MHD_Daemon *daemon;
    belay_http_log_function log_function;
    void *log_context;
    int quiesced;
};

static void belay_http_format_and_log(void *cls, const char *format, va_list arguments) {
    const belay_http_daemon *options = cls;
    char message[512];
    vsnprintf(message, sizeof message, format, arguments);
    /* libmicrohttpd ends most messages with a newline; the Swift logger adds its own. */
    size_t length = strlen(message);
    while (length > 0 && (message[length - 1] == '\n' || message[length - 1] == '\r')) {
        message[--length] = '\0';
    }
    if (options->log_function != NULL) {
        options->log_function(options->log_context, message);
    }
}

belay_http_daemon *belay_http_start_daemon(const belay_http_daemon_options *options,
                                           char *error, size_t error_size) {
    if (error_size > 0) error[0] = '\0';

    struct sockaddr_storage address;
    memset(&address, 0, sizeof address);
    // Suspend/resume lets a handler whose work runs on another thread (a write waiting for its
    // group commit) free its HTTP thread until the work is done.
    unsigned int flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ITC | MHD_USE_TURBO | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME;

    const char *host = options->host;
    if (host == NULL || host[0] == '\0') host = "0.0.0.0";
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    struct addrinfo *found = NULL;
    int status = getaddrinfo(host, NULL, &hints, &found);
    if (status != 0 || found == NULL) {
        snprintf(error, error_size, "cannot resolve host \"%s\": %s", host, gai_strerror(status));
        return NULL;
    }
    if (found->ai_family == AF_INET6) {
        struct sockaddr_in6 *ipv6 = (struct sockaddr_in6 *)&address;
        memcpy(ipv6, found->ai_addr, sizeof *ipv6);
        ipv6->sin6_port = htons(options->port);
        flags |= MHD_USE_IPv6;
    } else {
        struct sockaddr_in *ipv4 = (struct sockaddr_in *)&address;
        memcpy(ipv4, found->ai_addr, sizeof *ipv4);
        ipv4->sin_port = htons(options->port);
    }
    freeaddrinfo(found);

    /* The logger's closure must live as long as the daemon: it is the handle itself. */
    belay_http_daemon *handle = calloc(1, sizeof *handle);
    if (handle == NULL) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    handle->log_function = options->log_function;
    handle->log_context = options->log_context;

    struct MHD_OptionItem items[16];
    size_t count = 0;
    /* The logger first: libmicrohttpd warns (on stderr, past the logger) when it is not. */
    items[count++] = (struct MHD_OptionItem){
        MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)belay_http_format_and_log, handle };
    items[count++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, &address };
    items[count++] = (struct MHD_OptionItem){
        MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)options->completed_handler, options->handler_context };
    items[count++] = (struct MHD_OptionItem){ MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)belay_http_inspect_target, NULL };
    if (options->connection_handler != NULL) {
        items[count++] = (struct MHD_OptionItem){
            MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)options->connection_handler, options->handler_context };
    }
    items[count++] = (struct MHD_OptionItem){
        MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)options->connection_timeout_seconds, NULL };
    if (options->thread_count > 1) {
        items[count++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)options->thread_count, NULL };
    }
    if (options->connection_limit > 0) {
        items[count++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, (intptr_t)options->connection_limit, NULL };
    }
    if (options->per_ip_connection_limit > 0) {
        items[count++] = (struct MHD_OptionItem){
            MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)options->per_ip_connection_limit, NULL };
    }
    if (options->listen_backlog > 0) {
        items[count++] = (struct MHD_OptionItem){ MHD_OPTION_LISTEN_BACKLOG_SIZE, (intptr_t)options->listen_backlog, NULL };
    }
    if (options->connection_memory_limit > 0) {
        items[count++] = (struct MHD_OptionItem){
            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)options->connection_memory_limit, NULL };
    }
    items[count++] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };

    handle->daemon = MHD_start_daemon(flags, options->port, NULL, NULL,
                                      options->access_handler, options->handler_context,
                                      MHD_OPTION_ARRAY, items, MHD_OPTION_END);
    if (handle->daemon == NULL) {
        snprintf(error, error_size, "cannot listen on %s port %u", host, (unsigned)options->port);
        free(handle);
        return NULL;
    }
    return handle;
}

uint16_t belay_http_bound_port(belay_http_daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon->daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

static void belay_http_log_still_listening(const belay_http_daemon *daemon) {
    if (daemon->log_function != NULL) {
        daemon->log_function(daemon->log_context,
                             "could not stop listening; new connections are still accepted while requests finish");
    }
}

/* A non-blocking socket listening on loopback at a port the kernel picks; -1 when it cannot be had. */
static int belay_http_listening_placeholder(int family) {
    int placeholder = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (placeholder < 0) return -1;
    struct sockaddr_storage loopback;
    memset(&loopback, 0, sizeof loopback);
    socklen_t loopback_size;
    if (family == AF_INET6) {
        struct sockaddr_in6 *ipv6 = (struct sockaddr_in6 *)&loopback;
        ipv6->sin6_family = AF_INET6;
        ipv6->sin6_addr = in6addr_loopback;
        loopback_size = sizeof *ipv6;
    } else {
        struct sockaddr_in *ipv4 = (struct sockaddr_in *)&loopback;
        ipv4->sin_family = AF_INET;
        ipv4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        loopback_size = sizeof *ipv4;
    }
    if (bind(placeholder, (struct sockaddr *)&loopback, loopback_size) != 0 || listen(placeholder, 1) != 0) {
        close(placeholder);
        return -1;
    }
    return placeholder;
}

/* libmicrohttpd's own MHD_quiesce_daemon races its epoll workers: a worker that sees the
   daemon quiesced removes the listening socket from its epoll set, and the quiesce call then
   fails to remove it again and aborts the process ("Failed to remove listen FD from epoll
   set"). Instead the listening socket's descriptor is pointed at a placeholder: a socket
   listening on an unannounced loopback port that no client knows. Closing the real socket
   this way refuses new connections at once and drops it from every epoll set with it, while
   the workers keep a valid descriptor that never becomes readable; MHD_stop_daemon closes the
   placeholder later. */
void belay_http_quiesce_daemon(belay_http_daemon *daemon) {
    if (daemon->quiesced) return;
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon->daemon, MHD_DAEMON_INFO_LISTEN_FD);
    if (info == NULL || info->listen_fd == MHD_INVALID_SOCKET) {
        belay_http_log_still_listening(daemon);
        return;
    }
    MHD_socket listening = info->listen_fd;
    struct sockaddr_storage bound;
    socklen_t bound_size = sizeof bound;
    int family = getsockname(listening, (struct sockaddr *)&bound, &bound_size) == 0 && bound.ss_family == AF_INET6
        ? AF_INET6 : AF_INET;
    int placeholder = belay_http_listening_placeholder(family);
    /* Without IPv6 on loopback, an IPv4 placeholder serves as well: only the number is kept. */
    if (placeholder < 0 && family == AF_INET6) placeholder = belay_http_listening_placeholder(AF_INET);
    if (placeholder < 0 || dup3(placeholder, listening, O_CLOEXEC) < 0) {
        if (placeholder >= 0) close(placeholder);
        belay_http_log_still_listening(daemon);
        return;
    }
    close(placeholder);
    daemon->quiesced = 1;
}

void belay_http_stop_daemon(belay_http_daemon *daemon) {
    MHD_stop_daemon(daemon->daemon);
    free(daemon);
}

size_t belay_http_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL || size == 0) return 0;
    const struct sockaddr *address = info->client_addr;
    const char *written = NULL;
    if (address->sa_family == AF_INET) {
        written = inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, buffer, (socklen_t)size);
    } else if (address->sa_family == AF_INET6) {
        written = inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, buffer, (socklen_t)size);
    }
    return written == NULL ? 0 : strlen(buffer);
}

struct belay_http_framing_scan {
    belay_http_framing *framing;
    const char *first_content_length;
    size_t first_content_length_size;
    /* Where the previous field's value ended in the read buffer, or NULL, and whether that
       field was Authorization. */
    const char *previous_value_end;
    int previous_is_authorization;
};

static void belay_http_mark_unreadable(belay_http_framing *framing, int authorization) {
    framing->unreadable_field_line = 1;
    if (authorization) framing->unreadable_authorization = 1;
}

/* libmicrohttpd parses the header section in place and hands out values by strlen, so a NUL
   inside a value (`Bearer <token>\0junk`) silently cuts it short. What it leaves behind shows
   it: each field line ends in the one or two bytes of its line ending (turned into NULs), and
   the next field's name starts right after; the last line is followed by the empty line, and
   the header section ends there. Any other distance between a value's end and what follows
   means the line held more than the value read (a NUL and what came after it), or was folded
   over two lines (obs-fold, which RFC 9112 §5.2 lets a server refuse). The one NUL this cannot
   see is one right before a bare LF, which leaves the value exactly the bytes before it. */
static int belay_http_gap_is_line_end(const char *value_end, const char *next, size_t smallest, size_t largest) {
    if (value_end == NULL || next == NULL || next < value_end) return 0;
    size_t gap = (size_t)(next - value_end);
    return gap >= smallest && gap <= largest;
}

/* Whether the bytes are an RFC 9110 token (a field name): letters, digits and !#$%&'*+-.^_`|~. */
static int belay_http_is_token(const char *bytes, size_t size) {
    if (size == 0) return 0;
    for (size_t i = 0; i < size; i++) {
        unsigned char c = (unsigned char)bytes[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) continue;
        if (c == 0 || strchr("!#$%&'*+-.^_`|~", c) == NULL) return 0;
    }
    return 1;
}

static enum MHD_Result belay_http_scan_framing_field(void *cls, enum MHD_ValueKind kind,
                                                     const char *key, size_t key_size,
                                                     const char *value, size_t value_size) {
    (void)kind;
    struct belay_http_framing_scan *scan = cls;
    if (key == NULL) return MHD_YES;
    scan->framing->header_bytes += key_size + (value == NULL ? 0 : value_size) + 4;
    if (scan->previous_value_end != NULL && !belay_http_gap_is_line_end(scan->previous_value_end, key, 1, 2)) {
        belay_http_mark_unreadable(scan->framing, scan->previous_is_authorization);
    }
    scan->previous_value_end = value == NULL ? NULL : value + value_size;
    scan->previous_is_authorization = key_size == 13 && strncasecmp(key, "Authorization", 13) == 0;
    if (!belay_http_is_token(key, key_size)) scan->framing->invalid_field_name = 1;
    if (key_size == 4 && strncasecmp(key, "Host", 4) == 0) {
        scan->framing->host_count += 1;
    } else if (key_size == 14 && strncasecmp(key, "Content-Length", 14) == 0) {
        if (value == NULL) value_size = 0;
        if (scan->framing->content_length_count == 0) {
            scan->first_content_length = value;
            scan->first_content_length_size = value_size;
        } else if (value_size != scan->first_content_length_size ||
                   (value_size > 0 && memcmp(value, scan->first_content_length, value_size) != 0)) {
            scan->framing->content_lengths_differ = 1;
        }
        scan->framing->content_length_count += 1;
    } else if (key_size == 17 && strncasecmp(key, "Transfer-Encoding", 17) == 0) {
        scan->framing->transfer_encoding_count += 1;
    }
    return MHD_YES;
}

void belay_http_inspect_framing(struct MHD_Connection *connection, const char *method, belay_http_framing *framing) {
    memset(framing, 0, sizeof *framing);
    struct belay_http_framing_scan scan = { framing, NULL, 0, NULL, 0 };
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, belay_http_scan_framing_field, &scan);
    if (scan.previous_value_end != NULL) {
        /* The last line's ending and the empty line: LF LF, CRLF LF, LF CRLF or CRLF CRLF. */
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
        if (info == NULL || method == NULL ||
            !belay_http_gap_is_line_end(scan.previous_value_end, method + info->header_size, 2, 4)) {
            belay_http_mark_unreadable(framing, scan.previous_is_authorization);
        }
    }
}

int belay_http_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

void *belay_http_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

void *belay_http_inspect_target(void *context, const char *uri, struct MHD_Connection *connection) {
    (void)context;
    (void)connection;
    /* Percent-decoding reads left to right and a `%` that does not start an escape is kept, so
       `%00` in the raw target is exactly where a NUL would appear in the path or a query part. */
    for (const char *at = uri == NULL ? NULL : strchr(uri, '%'); at != NULL; at = strchr(at + 1, '%')) {
        if (at[1] == '0' && at[2] == '0') return belay_http_nul_target_marker();
    }
    return NULL;
}
