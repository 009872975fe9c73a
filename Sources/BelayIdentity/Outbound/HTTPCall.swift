import BelayOutbound
import CCurlShim
import Foundation

/// What came back from one HTTP request.
struct HTTPAnswer: Sendable {
    let status: Int
    let body: [UInt8]
}

/// Why an HTTP request got no answer: the reason, for a person (never a credential).
struct HTTPCallFailure: Error, Sendable, CustomStringConvertible {
    let description: String
}

/// One GET or form POST through libcurl for the identity clients: http and https only, no
/// redirects followed, no proxy from the environment, a total timeout, and (unless allowed)
/// no connection to a loopback, link-local or private address.
struct HTTPCall {
    var url: String
    /// `application/x-www-form-urlencoded` members for a POST; nil for a GET.
    var form: [(String, String)]?
    var timeout: TimeInterval
    var allowPrivateAddresses: Bool
    /// The setting a person changes to allow private addresses, named in the refusal.
    var privateAddressSetting: String
    var userAgent = "Belay-Identity/1.0"

    /// - Throws: `HTTPCallFailure` when no HTTP answer came (refused, timed out, guarded).
    func perform(with pool: CurlHandlePool) throws(HTTPCallFailure) -> HTTPAnswer {
        do {
            return try pool.withHandle { easy in try perform(with: easy) }
        } catch let failure as HTTPCallFailure {
            throw failure
        } catch {
            throw HTTPCallFailure(description: "\(error)")
        }
    }

    private func perform(with easy: CurlEasyHandle) throws -> HTTPAnswer {
        let handle = easy.handle
        easy.guardState.pointee.allow_private = allowPrivateAddresses ? 1 : 0
        let milliseconds = max(1, Int(timeout * 1000))
        try easy.appendHeader("Accept: application/json")
        try easy.appendHeader("Expect:")
        var codes: [CURLcode] = [
            belay_curl_setopt_string(handle, CURLOPT_URL, url),
            belay_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            belay_curl_setopt_string(handle, CURLOPT_USERAGENT, userAgent),
            belay_curl_setopt_string(handle, CURLOPT_NOPROXY, "*"),
            belay_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            belay_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            belay_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds),
            belay_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds),
            belay_curl_guard_addresses(handle, easy.guardState),
            belay_curl_capture_body(handle, easy.body),
            easy.captureErrorText(),
        ]
        if let form {
            try easy.appendHeader("Content-Type: application/x-www-form-urlencoded")
            let body = Array(Self.formEncoded(form).utf8)
            codes.append(belay_curl_setopt_long(handle, CURLOPT_POST, 1))
            codes.append(body.withUnsafeBytes { belay_curl_setopt_body(handle, $0.baseAddress, $0.count) })
        } else {
            codes.append(belay_curl_setopt_long(handle, CURLOPT_HTTPGET, 1))
        }
        codes.append(easy.installHeaders())
        if let failed = codes.first(where: { $0 != CURLE_OK }) {
            throw HTTPCallFailure(description: "libcurl refused an option for \(url): \(String(cString: curl_easy_strerror(failed)))")
        }
        let result = curl_easy_perform(handle)
        if let address = easy.refusedAddress {
            throw HTTPCallFailure(description: "not sent to \(url): \(address) is a loopback, link-local or private address; allow such addresses with \(privateAddressSetting)")
        }
        guard result == CURLE_OK else {
            if result == CURLE_OPERATION_TIMEDOUT {
                throw HTTPCallFailure(description: "\(url) gave no answer within \(Self.seconds(timeout))")
            }
            throw HTTPCallFailure(description: "\(url) could not be reached: \(easy.failureText(for: result))")
        }
        return HTTPAnswer(status: belay_curl_response_code(handle), body: easy.responseBytes)
    }

    /// `name=value&…` with everything but RFC 3986's unreserved characters percent-encoded.
    static func formEncoded(_ members: [(String, String)]) -> String {
        members.map { "\(percentEncoded($0.0))=\(percentEncoded($0.1))" }.joined(separator: "&")
    }

    private static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// "5 s", "0.5 s".
    static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? "\(Int(interval)) s" : "\(interval) s"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
