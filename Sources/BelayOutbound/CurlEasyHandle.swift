import CCurlShim
import Foundation

/// One libcurl easy handle with the header and recipient lists, address guard, request body,
/// response buffer and error text it points at; this object owns them all and frees them in
/// `deinit`. Not thread-safe: one transfer on one thread at a time (`CurlHandlePool` hands
/// each to one caller).
public final class CurlEasyHandle: @unchecked Sendable {
    public let handle: UnsafeMutableRawPointer
    private var headers: UnsafeMutablePointer<curl_slist>?
    private var recipients: UnsafeMutablePointer<curl_slist>?
    public let guardState: UnsafeMutablePointer<belay_curl_guard>
    public let body: UnsafeMutablePointer<belay_curl_body>
    /// The response's header lines, when a transfer asked for them (`captureResponseHeaders`).
    public let headerLines: UnsafeMutablePointer<belay_curl_body>
    private let upload: UnsafeMutablePointer<belay_curl_upload>
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// - Throws: `OutboundHTTPError` when libcurl cannot start.
    public init(responseLimit: Int) throws {
        guard belay_curl_global_init() == CURLE_OK, let handle = curl_easy_init() else {
            throw OutboundHTTPError(description: "libcurl could not be initialised")
        }
        self.handle = handle
        guardState = .allocate(capacity: 1)
        guardState.initialize(to: belay_curl_guard())
        body = .allocate(capacity: 1)
        body.initialize(to: belay_curl_body(bytes: nil, length: 0, limit: responseLimit))
        headerLines = .allocate(capacity: 1)
        headerLines.initialize(to: belay_curl_body(bytes: nil, length: 0, limit: 16 * 1024))
        upload = .allocate(capacity: 1)
        upload.initialize(to: belay_curl_upload(bytes: nil, length: 0, offset: 0))
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    /// Clears every option, header, recipient, guard verdict, request and response byte of the
    /// last transfer, keeping the handle's open connections for the next one to the same host.
    public func resetForNextTransfer() {
        curl_easy_reset(handle)
        if let headers { curl_slist_free_all(headers) }
        headers = nil
        if let recipients { curl_slist_free_all(recipients) }
        recipients = nil
        guardState.pointee = belay_curl_guard()
        belay_curl_body_free(body)
        belay_curl_body_free(headerLines)
        belay_curl_upload_free(upload)
        errorBuffer[0] = 0
    }

    /// Adds one `Name: value` request header.
    /// - Throws: `OutboundHTTPError` when libcurl cannot take it.
    public func appendHeader(_ line: String) throws {
        guard let list = curl_slist_append(headers, line) else {
            throw OutboundHTTPError(description: "libcurl could not add a request header")
        }
        headers = list
    }

    public func installHeaders() -> CURLcode { belay_curl_setopt_headers(handle, headers) }

    /// Sets the SMTP envelope's recipients (CURLOPT_MAIL_RCPT), each a bare address.
    /// - Throws: `OutboundHTTPError` when libcurl cannot take them.
    public func setMailRecipients(_ addresses: [String]) throws -> CURLcode {
        for address in addresses {
            guard let list = curl_slist_append(recipients, address) else {
                throw OutboundHTTPError(description: "libcurl could not add a mail recipient")
            }
            recipients = list
        }
        return belay_curl_setopt_list(handle, CURLOPT_MAIL_RCPT, recipients)
    }

    /// Sends `bytes` as the upload (an SMTP message's data); they are copied.
    public func setUpload(_ bytes: [UInt8]) -> CURLcode {
        bytes.withUnsafeBytes { belay_curl_setopt_upload(handle, upload, $0.baseAddress, $0.count) }
    }

    /// Collects libcurl's explanation of a failure, read back with `failureText(for:)`.
    public func captureErrorText() -> CURLcode { belay_curl_setopt_error_buffer(handle, errorBuffer) }

    /// libcurl's own explanation of the last transfer's failure, or the generic text for `code`.
    public func failureText(for code: CURLcode) -> String {
        let detail = String(cString: errorBuffer)
        return detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    }

    /// The response body kept so far.
    public var responseText: String {
        String(decoding: responseBytes, as: UTF8.self)
    }

    /// The response body's bytes kept so far.
    public var responseBytes: [UInt8] {
        guard let bytes = body.pointee.bytes else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: body.pointee.length))
    }

    /// Keeps the response's header lines for `responseHeader(_:)`.
    public func captureResponseHeaders() -> CURLcode { belay_curl_capture_headers(handle, headerLines) }

    /// The value of the last response header called `name` (any case), or nil.
    public func responseHeader(_ name: String) -> String? {
        guard let bytes = headerLines.pointee.bytes else { return nil }
        let text = String(decoding: UnsafeRawBufferPointer(start: bytes, count: headerLines.pointee.length), as: UTF8.self)
        let wanted = name.lowercased() + ":"
        var found: String?
        for line in text.split(separator: "\r\n") where line.lowercased().hasPrefix(wanted) {
            found = line.dropFirst(wanted.count).trimmingCharacters(in: .whitespaces)
        }
        return found
    }

    /// The address the guard refused to connect to in the last transfer, or nil.
    public var refusedAddress: String? {
        guard guardState.pointee.refused != 0 else { return nil }
        return withUnsafeBytes(of: guardState.pointee.refused_address) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    deinit {
        curl_easy_cleanup(handle)
        if let headers { curl_slist_free_all(headers) }
        if let recipients { curl_slist_free_all(recipients) }
        belay_curl_body_free(body)
        body.deinitialize(count: 1)
        body.deallocate()
        belay_curl_body_free(headerLines)
        headerLines.deinitialize(count: 1)
        headerLines.deallocate()
        belay_curl_upload_free(upload)
        upload.deinitialize(count: 1)
        upload.deallocate()
        guardState.deinitialize(count: 1)
        guardState.deallocate()
        errorBuffer.deallocate()
    }
}
