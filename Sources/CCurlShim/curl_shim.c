#include "curl_shim.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static CURLcode global_result = CURLE_OK;

static void global_init(void) { global_result = curl_global_init(CURL_GLOBAL_DEFAULT); }

CURLcode belay_curl_global_init(void) {
    pthread_once(&global_once, global_init);
    return global_result;
}

CURLcode belay_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode belay_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode belay_curl_setopt_headers(CURL *handle, struct curl_slist *headers) {
    return curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}

CURLcode belay_curl_setopt_body(CURL *handle, const void *bytes, long length) {
    CURLcode result = curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE, length);
    if (result != CURLE_OK) return result;
    return curl_easy_setopt(handle, CURLOPT_COPYPOSTFIELDS, bytes);
}

static int ipv4_is_private(const unsigned char *b) {
    if (b[0] == 127 || b[0] == 0 || b[0] == 10) return 1;
    if (b[0] == 172 && b[1] >= 16 && b[1] <= 31) return 1;
    if (b[0] == 192 && b[1] == 168) return 1;
    if (b[0] == 100 && b[1] >= 64 && b[1] <= 127) return 1;
    if (b[0] == 169 && b[1] == 254) return 1;
    if (b[0] >= 224) return 1;
    return 0;
}

int belay_curl_address_is_private(const struct sockaddr *address) {
    /* The IPv4 address to judge: the address itself, or the one an IPv6 form carries
       (IPv4-compatible, IPv4-mapped, IPv4-translated, NAT64, 6to4), each a way to reach it. */
    const unsigned char *v4 = NULL;
    if (address->sa_family == AF_INET) {
        v4 = (const unsigned char *)&((const struct sockaddr_in *)address)->sin_addr.s_addr;
    } else if (address->sa_family == AF_INET6) {
        const unsigned char *b = ((const struct sockaddr_in6 *)address)->sin6_addr.s6_addr;
        static const unsigned char zeros[16] = {0};
        static const unsigned char nat64[4] = {0x00, 0x64, 0xFF, 0x9B};
        if (memcmp(b, zeros, 15) == 0 && (b[15] == 0 || b[15] == 1)) return 1;
        if (b[0] == 0xFE && (b[1] & 0xC0) == 0x80) return 1;
        if ((b[0] & 0xFE) == 0xFC) return 1;
        if (b[0] == 0xFF) return 1;
        /* 64:ff9b:1::/48 is local-use NAT64: it leads into a local network whatever it carries. */
        if (memcmp(b, nat64, 4) == 0 && b[4] == 0 && b[5] == 1) return 1;
        if (memcmp(b, zeros, 12) == 0) v4 = b + 12;                                          /* ::a.b.c.d */
        else if (memcmp(b, zeros, 10) == 0 && b[10] == 0xFF && b[11] == 0xFF) v4 = b + 12;   /* ::ffff:a.b.c.d */
        else if (memcmp(b, zeros, 8) == 0 && b[8] == 0xFF && b[9] == 0xFF && b[10] == 0 && b[11] == 0) v4 = b + 12; /* ::ffff:0:a.b.c.d */
        else if (memcmp(b, nat64, 4) == 0 && memcmp(b + 4, zeros, 8) == 0) v4 = b + 12;      /* 64:ff9b::a.b.c.d */
        else if (b[0] == 0x20 && b[1] == 0x02) v4 = b + 2;                                    /* 2002:aabb:ccdd:: */
        else return 0;
    } else {
        return 1; /* anything but IP is refused */
    }
    if (ipv4_is_private(v4)) return 1;
    if (v4[0] == 198 && (v4[1] & 0xFE) == 18) return 1; /* 198.18.0.0/15, benchmarking */
    if (v4[0] == 192 && v4[1] == 0 && v4[2] == 0) return 1; /* 192.0.0.0/24, IETF protocol assignments */
    return 0;
}

static curl_socket_t open_guarded_socket(void *context, curlsocktype purpose, struct curl_sockaddr *address) {
    belay_curl_guard *guard = context;
    (void)purpose;
    if (!guard->allow_private && belay_curl_address_is_private(&address->addr)) {
        guard->refused = 1;
        const void *raw = address->family == AF_INET6 ? (const void *)&((struct sockaddr_in6 *)&address->addr)->sin6_addr
                                                     : (const void *)&((struct sockaddr_in *)&address->addr)->sin_addr;
        if (!inet_ntop(address->family, raw, guard->refused_address, sizeof guard->refused_address)) {
            strcpy(guard->refused_address, "?");
        }
        return CURL_SOCKET_BAD;
    }
    return socket(address->family, address->socktype, address->protocol);
}

CURLcode belay_curl_guard_addresses(CURL *handle, belay_curl_guard *guard) {
    CURLcode result = curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, open_guarded_socket);
    if (result != CURLE_OK) return result;
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETDATA, guard);
}

static size_t write_body(char *data, size_t size, size_t count, void *context) {
    belay_curl_body *body = context;
    size_t total = size * count;
    if (body->length < body->limit) {
        size_t keep = body->limit - body->length < total ? body->limit - body->length : total;
        char *grown = realloc(body->bytes, body->length + keep + 1);
        if (!grown) return 0;
        memcpy(grown + body->length, data, keep);
        body->bytes = grown;
        body->length += keep;
        body->bytes[body->length] = 0;
    }
    return total;
}

CURLcode belay_curl_capture_body(CURL *handle, belay_curl_body *body) {
    CURLcode result = curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, write_body);
    if (result != CURLE_OK) return result;
    return curl_easy_setopt(handle, CURLOPT_WRITEDATA, body);
}

CURLcode belay_curl_capture_headers(CURL *handle, belay_curl_body *headers) {
    CURLcode result = curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, write_body);
    if (result != CURLE_OK) return result;
    return curl_easy_setopt(handle, CURLOPT_HEADERDATA, headers);
}

CURLM *belay_curl_multi_multiplexing(void) {
    CURLM *multi = curl_multi_init();
    if (!multi) return NULL;
    if (curl_multi_setopt(multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX) != CURLM_OK) {
        curl_multi_cleanup(multi);
        return NULL;
    }
    return multi;
}

/* Reads the finished transfers' messages, removing each from `multi`, up to `capacity`. */
static int collect_finished(CURLM *multi, CURL **done, CURLcode *results, int capacity) {
    int count = 0;
    int queued;
    CURLMsg *message;
    while (count < capacity && (message = curl_multi_info_read(multi, &queued)) != NULL) {
        if (message->msg != CURLMSG_DONE) continue;
        CURL *easy = message->easy_handle;
        done[count] = easy;
        results[count] = message->data.result;
        count++;
        curl_multi_remove_handle(multi, easy);
    }
    return count;
}

CURLMcode belay_curl_multi_drive(CURLM *multi, long wait_ms, CURL **done, CURLcode *results, int capacity, int *finished,
                                 int *running) {
    *finished = 0;
    *running = 0;
    CURLMcode code = curl_multi_perform(multi, running);
    if (code != CURLM_OK) return code;
    *finished = collect_finished(multi, done, results, capacity);
    if (*finished > 0 || *running == 0 || wait_ms <= 0) return CURLM_OK;
    code = curl_multi_poll(multi, NULL, 0, wait_ms > 60000 ? 60000 : (int)wait_ms, NULL);
    if (code != CURLM_OK) return code;
    code = curl_multi_perform(multi, running);
    if (code != CURLM_OK) return code;
    *finished = collect_finished(multi, done, results, capacity);
    return CURLM_OK;
}

void belay_curl_body_free(belay_curl_body *body) {
    free(body->bytes);
    body->bytes = NULL;
    body->length = 0;
}

long belay_curl_response_code(CURL *handle) {
    long code = 0;
    if (curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code) != CURLE_OK) return 0;
    return code;
}

CURLcode belay_curl_setopt_list(CURL *handle, CURLoption option, struct curl_slist *list) {
    return curl_easy_setopt(handle, option, list);
}

CURLcode belay_curl_setopt_error_buffer(CURL *handle, char *buffer) {
    buffer[0] = 0;
    return curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, buffer);
}

static size_t read_upload(char *destination, size_t size, size_t count, void *context) {
    belay_curl_upload *upload = context;
    size_t room = size * count;
    size_t left = upload->length - upload->offset;
    size_t take = left < room ? left : room;
    if (take > 0) memcpy(destination, upload->bytes + upload->offset, take);
    upload->offset += take;
    return take;
}

CURLcode belay_curl_setopt_upload(CURL *handle, belay_curl_upload *upload, const void *bytes, size_t length) {
    belay_curl_upload_free(upload);
    upload->bytes = malloc(length > 0 ? length : 1);
    if (!upload->bytes) return CURLE_OUT_OF_MEMORY;
    if (length > 0) memcpy(upload->bytes, bytes, length);
    upload->length = length;
    upload->offset = 0;
    CURLcode result = curl_easy_setopt(handle, CURLOPT_READFUNCTION, read_upload);
    if (result == CURLE_OK) result = curl_easy_setopt(handle, CURLOPT_READDATA, upload);
    if (result == CURLE_OK) result = curl_easy_setopt(handle, CURLOPT_UPLOAD, 1L);
    if (result == CURLE_OK) result = curl_easy_setopt(handle, CURLOPT_INFILESIZE_LARGE, (curl_off_t)length);
    return result;
}

void belay_curl_upload_free(belay_curl_upload *upload) {
    free(upload->bytes);
    upload->bytes = NULL;
    upload->length = 0;
    upload->offset = 0;
}
