import BelayOutbound
import CCurlShim
import Foundation

/// One POST of a batch sent as HTTP/2 streams.
struct HTTP2Request {
    let url: String
    let headers: [String]
    let body: [UInt8]
    /// The body's media type.
    var contentType = "application/json"
}

/// Sends batches of POSTs over HTTP/2 (TLS with ALPN for https, prior knowledge for http),
/// all of a batch at once: over TLS as streams of one kept-open connection per host, in
/// cleartext each on a connection of its own (kept open for later batches). Not thread-safe:
/// one batch at a time (the delivery worker's thread).
final class HTTP2Batch: @unchecked Sendable {
    private let multiplexer: CurlMultiplexer
    private var handles: [CurlEasyHandle] = []
    private let caFile: String
    private let timeout: Double
    private let userAgent = "Belay-Push/1.0"

    /// - Throws: `OutboundHTTPError` when libcurl cannot start.
    init(caFile: String, timeout: Double) throws {
        multiplexer = try CurlMultiplexer()
        self.caFile = caFile
        self.timeout = timeout
    }

    /// Sends every request at once and waits for all the answers (or the timeout).
    func send(_ requests: [HTTP2Request]) -> [PushAnswer] {
        while handles.count < requests.count {
            guard let handle = try? CurlEasyHandle(responseLimit: 16 * 1024) else {
                return requests.map { _ in PushAnswer(status: nil, body: [], retryAfter: nil, failure: "libcurl could not start a transfer") }
            }
            handles.append(handle)
        }
        var refused: [Int: String] = [:]
        for (index, request) in requests.enumerated() {
            if let problem = configure(handles[index], for: request) { refused[index] = problem }
        }
        let ready = requests.indices.filter { refused[$0] == nil }
        let codes = multiplexer.perform(ready.map { handles[$0] }, timeout: timeout)
        var answers = requests.map { _ in PushAnswer(status: nil, body: [], retryAfter: nil, failure: nil) }
        for (index, problem) in refused { answers[index] = PushAnswer(status: nil, body: [], retryAfter: nil, failure: problem) }
        for (position, index) in ready.enumerated() {
            let easy = handles[index]
            let code = codes[position]
            if code != CURLE_OK {
                let reason = code == CURLE_OPERATION_TIMEDOUT ? "no answer within \(timeout) s" : easy.failureText(for: code)
                answers[index] = PushAnswer(status: nil, body: [], retryAfter: nil, failure: "\(requests[index].url) could not be reached: \(reason)")
            } else {
                answers[index] = PushAnswer(status: belay_curl_response_code(easy.handle), body: easy.responseBytes,
                                            retryAfter: PushAnswer.retryAfter(easy.responseHeader("retry-after")), failure: nil)
            }
        }
        return answers
    }

    private func configure(_ easy: CurlEasyHandle, for request: HTTP2Request) -> String? {
        easy.resetForNextTransfer()
        let handle = easy.handle
        do {
            for line in request.headers + ["Content-Type: \(request.contentType)", "Expect:"] { try easy.appendHeader(line) }
        } catch {
            return "\(error)"
        }
        let overTLS = request.url.hasPrefix("https:")
        let http2 = overTLS ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE
        var codes: [CURLcode] = [
            belay_curl_setopt_string(handle, CURLOPT_URL, request.url),
            belay_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            belay_curl_setopt_string(handle, CURLOPT_USERAGENT, userAgent),
            belay_curl_setopt_string(handle, CURLOPT_NOPROXY, "*"),
            belay_curl_setopt_long(handle, CURLOPT_HTTP_VERSION, http2),
            // Over TLS the batch's streams wait for one connection and share it. In cleartext
            // (prior knowledge), libcurl 7.88 breaks the streams that wait for the first
            // connection ("Error in the HTTP2 framing layer"): each starts at once instead, on a
            // connection of its own or one kept from an earlier batch, as curl's own
            // --parallel-immediate does.
            belay_curl_setopt_long(handle, CURLOPT_PIPEWAIT, overTLS ? 1 : 0),
            belay_curl_setopt_long(handle, CURLOPT_POST, 1),
            belay_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            belay_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            belay_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(min(timeout, 10) * 1000))),
            easy.installHeaders(),
            belay_curl_capture_body(handle, easy.body),
            easy.captureResponseHeaders(),
            easy.captureErrorText(),
        ]
        if !caFile.isEmpty { codes.append(belay_curl_setopt_string(handle, CURLOPT_CAINFO, caFile)) }
        codes.append(request.body.withUnsafeBytes { belay_curl_setopt_body(handle, $0.baseAddress, $0.count) })
        if let failed = codes.first(where: { $0 != CURLE_OK }) {
            return "libcurl refused an option for \(request.url): \(String(cString: curl_easy_strerror(failed)))"
        }
        return nil
    }
}
