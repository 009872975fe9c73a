import BelayCore
import BelayOutbound
import CCurlShim
import Foundation

/// One POST sent as an HTTP/2 stream.
struct HTTP2Request {
    let url: String
    let headers: [String]
    let body: [UInt8]
    /// The body's media type.
    var contentType = "application/json"
}

/// Sends POSTs over HTTP/2 (TLS with ALPN for https, prior knowledge for http) as streams that
/// run side by side: over TLS as streams of one kept-open connection per host, in cleartext
/// each on a connection of its own (kept open for later streams). Each stream has its own
/// timeout and its answer is handed back as soon as it comes: a stream that stalls holds only
/// itself.
///
/// Threading: one thread starts and collects (the delivery worker's); `interrupt` from any thread.
final class HTTP2Streams: @unchecked Sendable {
    private let multiplexer: CurlMultiplexer
    private var idle: [CurlEasyHandle] = []
    /// The streams under way: their tag and URL, by handle.
    private var underWay: [ObjectIdentifier: (tag: Int, url: String)] = [:]
    /// Answers known before `collect` asked: a request libcurl refused, or an answer that came
    /// while `send` waited for its own.
    private var kept: [(tag: Int, answer: PushAnswer)] = []
    private var lastTag = 0
    private let caFile: String
    private let timeout: Double
    private let userAgent = "Belay-Push/1.0"

    /// - Parameter timeout: the longest one stream may take, connecting included.
    /// - Throws: `OutboundHTTPError` when libcurl cannot start.
    init(caFile: String, timeout: Double) throws {
        multiplexer = try CurlMultiplexer()
        self.caFile = caFile
        self.timeout = timeout
    }

    /// Streams started whose answers `collect` has not handed back yet.
    var unanswered: Int { underWay.count + kept.count }

    /// Starts `request` beside the streams under way.
    /// - Returns: the tag `collect` hands its answer back with.
    func start(_ request: HTTP2Request) -> Int {
        lastTag += 1
        let tag = lastTag
        let easy: CurlEasyHandle
        if let reused = idle.popLast() {
            easy = reused
        } else if let made = try? CurlEasyHandle(responseLimit: 16 * 1024) {
            easy = made
        } else {
            kept.append((tag, PushAnswer(status: nil, body: [], retryAfter: nil, failure: "libcurl could not start a transfer")))
            return tag
        }
        if let problem = configure(easy, for: request) {
            idle.append(easy)
            kept.append((tag, PushAnswer(status: nil, body: [], retryAfter: nil, failure: problem)))
            return tag
        }
        do {
            try multiplexer.add(easy)
            underWay[ObjectIdentifier(easy)] = (tag, request.url)
        } catch {
            idle.append(easy)
            kept.append((tag, PushAnswer(status: nil, body: [], retryAfter: nil, failure: "\(request.url) could not be reached: \(error)")))
        }
        return tag
    }

    /// The answers that came since the last call, each with its stream's tag. When none has,
    /// waits for one at most `seconds` (less after `interrupt`); may return none.
    func collect(waitingAtMost seconds: Double) -> [(tag: Int, answer: PushAnswer)] {
        let answers = kept
        kept = []
        return answers + drive(waitingAtMost: answers.isEmpty ? seconds : 0)
    }

    /// Ends a `collect` that is waiting, at once. Safe from any thread.
    func interrupt() {
        multiplexer.wakeUp()
    }

    /// Sends every request and waits for all their answers (each within the timeout); answers
    /// to streams started before are kept for the next `collect`.
    func send(_ requests: [HTTP2Request]) -> [PushAnswer] {
        let tags = requests.map { start($0) }
        var answers: [Int: PushAnswer] = [:]
        let wanted = Set(tags)
        // Requests libcurl refused were answered at once.
        kept.removeAll { known in
            guard wanted.contains(known.tag) else { return false }
            answers[known.tag] = known.answer
            return true
        }
        // Each stream ends within its own timeout; the deadline only guards against a transfer
        // libcurl never reports.
        let deadline = Deadline(after: timeout + 5)
        while answers.count < tags.count && !deadline.hasPassed {
            for (tag, answer) in drive(waitingAtMost: min(0.5, max(0.001, deadline.secondsLeft))) {
                if wanted.contains(tag) { answers[tag] = answer } else { kept.append((tag, answer)) }
            }
        }
        return zip(tags, requests).map { tag, request in
            answers[tag] ?? PushAnswer(status: nil, body: [], retryAfter: nil, failure: "\(request.url) could not be reached: no answer within \(timeout) s")
        }
    }

    /// Runs the streams under way and turns those that finished into answers; waits as
    /// `CurlMultiplexer.collect` does.
    private func drive(waitingAtMost seconds: Double) -> [(tag: Int, answer: PushAnswer)] {
        guard !underWay.isEmpty else { return [] }
        var answers: [(tag: Int, answer: PushAnswer)] = []
        for (easy, code) in multiplexer.collect(waitingAtMost: seconds) {
            idle.append(easy)
            guard let stream = underWay.removeValue(forKey: ObjectIdentifier(easy)) else { continue }
            answers.append((stream.tag, answer(easy, code: code, url: stream.url)))
        }
        return answers
    }

    private func answer(_ easy: CurlEasyHandle, code: CURLcode, url: String) -> PushAnswer {
        guard code == CURLE_OK else {
            let reason = code == CURLE_OPERATION_TIMEDOUT ? "no answer within \(timeout) s" : easy.failureText(for: code)
            return PushAnswer(status: nil, body: [], retryAfter: nil, failure: "\(url) could not be reached: \(reason)")
        }
        return PushAnswer(status: belay_curl_response_code(easy.handle), body: easy.responseBytes,
                          retryAfter: PushAnswer.retryAfter(easy.responseHeader("retry-after")), failure: nil)
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
            // Over TLS the streams started together wait for one connection and share it. In
            // cleartext (prior knowledge), libcurl 7.88 breaks the streams that wait for the first
            // connection ("Error in the HTTP2 framing layer"): each starts at once instead, on a
            // connection of its own or one kept from earlier streams, as curl's own
            // --parallel-immediate does.
            belay_curl_setopt_long(handle, CURLOPT_PIPEWAIT, overTLS ? 1 : 0),
            belay_curl_setopt_long(handle, CURLOPT_POST, 1),
            belay_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            belay_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            belay_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(min(timeout, 10) * 1000))),
            // This stream's own limit: one never answered ends here, whatever the others do.
            belay_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, max(1, Int(timeout * 1000))),
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
