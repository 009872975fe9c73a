import CCurlShim
import Foundation

/// One libcurl easy handle with the header list, address guard and response buffer it
/// points at; this object owns them all and frees them in `deinit`. Not thread-safe: one
/// transfer on one thread at a time (`CurlHandlePool` hands each to one caller).
final class CurlEasyHandle: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer
    private var headers: UnsafeMutablePointer<curl_slist>?
    let guardState: UnsafeMutablePointer<belay_curl_guard>
    let body: UnsafeMutablePointer<belay_curl_body>

    /// - Throws: `WebhookTransportError` when libcurl cannot start.
    init(responseLimit: Int) throws {
        guard belay_curl_global_init() == CURLE_OK, let handle = curl_easy_init() else {
            throw WebhookTransportError(description: "libcurl could not be initialised")
        }
        self.handle = handle
        guardState = .allocate(capacity: 1)
        guardState.initialize(to: belay_curl_guard())
        body = .allocate(capacity: 1)
        body.initialize(to: belay_curl_body(bytes: nil, length: 0, limit: responseLimit))
    }

    /// Clears every option, header, guard verdict and response byte of the last transfer,
    /// keeping the handle's open connections for the next one to the same host.
    func resetForNextTransfer() {
        curl_easy_reset(handle)
        if let headers { curl_slist_free_all(headers) }
        headers = nil
        guardState.pointee = belay_curl_guard()
        belay_curl_body_free(body)
    }

    /// Adds one `Name: value` request header.
    func appendHeader(_ line: String) throws {
        guard let list = curl_slist_append(headers, line) else {
            throw WebhookTransportError(description: "libcurl could not add a request header")
        }
        headers = list
    }

    func installHeaders() -> CURLcode { belay_curl_setopt_headers(handle, headers) }

    /// The response body kept so far.
    var responseText: String {
        guard let bytes = body.pointee.bytes else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: body.pointee.length), as: UTF8.self)
    }

    deinit {
        curl_easy_cleanup(handle)
        if let headers { curl_slist_free_all(headers) }
        belay_curl_body_free(body)
        body.deinitialize(count: 1)
        body.deallocate()
        guardState.deinitialize(count: 1)
        guardState.deallocate()
    }
}
