import BelayDomain
import BelayOutbound
import CCurlShim
import Foundation

/// Sends one signed webhook request; the worker's only way out to the network.
public protocol WebhookTransport: Sendable {
    /// POSTs `body` with `headers` to `url` and reports what came back. Never throws: a
    /// failure is a result with an error, to be retried.
    func post(url: String, headers: [(String, String)], body: [UInt8]) -> WebhookAttemptResult
}

/// The libcurl transport: http and https only, no redirects followed, a connect and a total
/// timeout, no proxy from the environment, and (unless allowed) no connection to a
/// loopback, link-local or private address, checked on the address actually connected to.
public struct CurlWebhookTransport: WebhookTransport {
    public let timeoutSeconds: Int
    public let allowPrivateAddresses: Bool
    public let userAgent: String
    private let handles = CurlHandlePool(responseLimit: 500)

    public init(timeoutSeconds: Int, allowPrivateAddresses: Bool, userAgent: String = "Belay-Webhooks/1.0") {
        self.timeoutSeconds = timeoutSeconds
        self.allowPrivateAddresses = allowPrivateAddresses
        self.userAgent = userAgent
    }

    public func post(url: String, headers: [(String, String)], body: [UInt8]) -> WebhookAttemptResult {
        do {
            return try send(url: url, headers: headers, body: body)
        } catch {
            return WebhookAttemptResult(statusCode: nil, error: "\(error)")
        }
    }

    private func send(url: String, headers: [(String, String)], body: [UInt8]) throws -> WebhookAttemptResult {
        try handles.withHandle { easy in try send(url: url, headers: headers, body: body, with: easy) }
    }

    private func send(url: String, headers: [(String, String)], body: [UInt8], with easy: CurlEasyHandle) throws -> WebhookAttemptResult {
        let handle = easy.handle
        easy.guardState.pointee.allow_private = allowPrivateAddresses ? 1 : 0
        for (name, value) in headers + [("Content-Type", "application/json"), ("Expect", "")] {
            try easy.appendHeader("\(name): \(value)")
        }
        var codes: [CURLcode] = [
            belay_curl_setopt_string(handle, CURLOPT_URL, url),
            belay_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            belay_curl_setopt_string(handle, CURLOPT_USERAGENT, userAgent),
            belay_curl_setopt_string(handle, CURLOPT_NOPROXY, "*"),
            belay_curl_setopt_long(handle, CURLOPT_POST, 1),
            belay_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            belay_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            belay_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeoutSeconds * 1000),
            belay_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, min(timeoutSeconds, 10) * 1000),
            easy.installHeaders(),
            belay_curl_guard_addresses(handle, easy.guardState),
            belay_curl_capture_body(handle, easy.body),
        ]
        codes.append(body.withUnsafeBytes { belay_curl_setopt_body(handle, $0.baseAddress, $0.count) })
        if let failed = codes.first(where: { $0 != CURLE_OK }) {
            return WebhookAttemptResult(statusCode: nil, error: "libcurl refused an option: \(String(cString: curl_easy_strerror(failed)))")
        }
        let result = curl_easy_perform(handle)
        return Self.attemptResult(result, refusedAddress: easy.refusedAddress, status: Int(belay_curl_response_code(handle)),
                                  responseText: easy.responseText, timeoutSeconds: timeoutSeconds)
    }

    /// What one attempt came to, from libcurl's result, the address guard and the answer.
    /// A refused address is the reason only when nothing was delivered: libcurl goes on to a
    /// host's next address when the guard refuses one, and that one may have answered.
    static func attemptResult(_ result: CURLcode, refusedAddress: String?, status: Int, responseText: String,
                              timeoutSeconds: Int) -> WebhookAttemptResult {
        guard result == CURLE_OK else {
            if let refusedAddress {
                return WebhookAttemptResult(statusCode: nil, error: "not sent: \(refusedAddress) is a loopback, link-local or private address; allow such addresses with webhooks.allow_private_addresses = 1 in config.json")
            }
            let reason = result == CURLE_OPERATION_TIMEDOUT
                ? "no answer within \(timeoutSeconds) s (webhooks.timeout_seconds)"
                : String(cString: curl_easy_strerror(result))
            return WebhookAttemptResult(statusCode: nil, error: reason)
        }
        if (200...299).contains(status) { return WebhookAttemptResult(statusCode: status, error: nil) }
        let text = responseText.trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = text.unicodeScalars.map { $0.value < 0x20 ? " " : String($0) }.joined().prefix(200)
        return WebhookAttemptResult(statusCode: status, error: "the endpoint answered HTTP \(status)" + (shown.isEmpty ? "" : ": \(shown)"))
    }
}
