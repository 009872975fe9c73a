import BelayCore
import BelayOutbound
import CCurlShim
import Foundation

/// S3's REST protocol over libcurl: put, head, get, delete, list and multipart uploads of one
/// bucket, each request signed with `SigV4Signer`.
///
/// Transient failures (no connection, a reset, a timeout, 500, 503 `SlowDown`) are retried up
/// to `settings.maxAttempts` times with full-jitter exponential back-off; a 4xx never is.
/// Handles come from a `CurlHandlePool`, so requests to the store reuse open connections.
/// Thread-safe: every call takes its own handle.
public final class S3Client: Sendable {
    public let settings: ObjectStoreSettings
    /// What requests are signed with (temporary credentials are refreshed there).
    public let credentials: ObjectStoreCredentialProvider
    private let pool: CurlHandlePool
    private let metrics: ObjectStoreMetrics
    private let now: @Sendable () -> Date
    private let base: String
    private let host: String
    /// The presigned URLs of the current signing window.
    private let presigned = PresignedURLMemory()

    /// The most bytes one answer may carry (an image, a backup part).
    public static let responseLimit = 64 * 1024 * 1024

    /// - Parameter credentials: where the credentials come from; nil: `settings.credentials`,
    ///   which must then hold a key pair.
    /// - Throws: `ObjectStoreError` naming the setting when the endpoint or bucket cannot work.
    public init(settings: ObjectStoreSettings, credentials: ObjectStoreCredentialProvider? = nil,
                metrics: ObjectStoreMetrics = ObjectStoreMetrics(registry: nil), now: @escaping @Sendable () -> Date = { Date() }) throws {
        guard let location = settings.baseAndHost, ["http", "https"].contains(URLComponents(string: settings.endpoint)?.scheme ?? "") else {
            throw ObjectStoreError.setting("images.s3.endpoint", "\(JSONOutput.quoted(settings.endpoint)) is not an http(s) address such as https://s3.eu-central-1.amazonaws.com")
        }
        guard Self.isBucketName(settings.bucket) else {
            throw ObjectStoreError.setting("images.s3.bucket", "\(JSONOutput.quoted(settings.bucket)) is not a bucket name (3–63 lowercase letters, digits, dots and hyphens)")
        }
        if credentials == nil {
            guard !settings.credentials.accessKeyID.isEmpty else {
                throw ObjectStoreError.setting("images.s3.access_key_id", "is empty; give the store's access key id (or set AWS_ACCESS_KEY_ID)")
            }
            guard !settings.credentials.secretAccessKey.isEmpty else {
                throw ObjectStoreError.setting("images.s3.secret_access_key_file", "gives no secret; name a file holding the secret access key (or set AWS_SECRET_ACCESS_KEY)")
            }
        }
        self.settings = settings
        self.credentials = credentials ?? ObjectStoreCredentialProvider(fixed: settings.credentials)
        pool = CurlHandlePool(responseLimit: Self.responseLimit)
        self.metrics = metrics
        self.now = now
        (base, host) = location
    }

    /// 3–63 characters of lowercase letters, digits, dots and hyphens, starting and ending
    /// with a letter or digit.
    public static func isBucketName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count) else { return false }
        let allowed = bytes.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 || $0 == 46 }
        let alnum: (UInt8?) -> Bool = { $0.map { (97...122).contains($0) || (48...57).contains($0) } ?? false }
        return allowed && alnum(bytes.first) && alnum(bytes.last)
    }

    // MARK: Objects

    /// Stores `bytes` at `key` with its type and cache policy; the store checks the bytes
    /// against their SHA-256 (`x-amz-checksum-sha256`) and refuses a corrupted upload.
    public func put(_ key: String, bytes: [UInt8], contentType: String, cacheControl: String? = nil) throws {
        let digest = Crypto.sha256(bytes)
        var headers = [("Content-Type", contentType), ("x-amz-checksum-sha256", Data(digest).base64EncodedString())]
        if let cacheControl { headers.append(("Cache-Control", cacheControl)) }
        _ = try expect(send("PUT", path: settings.path(of: key), headers: headers, body: .upload(bytes), payloadHash: Crypto.hex(digest),
                            operation: "upload", target: key), operation: "upload", target: key)
    }

    /// Copies the object at `key` onto itself with the same type and cache policy, which makes
    /// the store date it now (so `belay gc`'s grace period starts again).
    public func refresh(_ key: String, contentType: String, cacheControl: String?) throws {
        var headers = [("Content-Type", contentType), ("x-amz-copy-source", SigV4Signer.encode("/\(settings.bucket)/\(key)", keepSlash: true)),
                       ("x-amz-metadata-directive", "REPLACE")]
        if let cacheControl { headers.append(("Cache-Control", cacheControl)) }
        let answer = try expect(send("PUT", path: settings.path(of: key), headers: headers, body: .upload([]), operation: "refresh", target: key),
                                operation: "refresh", target: key)
        // A copy can fail after its 200 has been sent: the error is then in the body.
        let text = String(decoding: answer.body, as: UTF8.self)
        if text.contains("<Error>") {
            throw ObjectStoreError(.refused(status: 500, code: S3XML.value("Code", in: text) ?? "", message: S3XML.value("Message", in: text) ?? ""),
                                   operation: "refresh", target: key)
        }
    }

    /// The object at `key`, or nil when there is none.
    public func head(_ key: String) throws -> StoredObject? {
        let answer = try send("HEAD", path: settings.path(of: key), operation: "head", target: key)
        if answer.status == 404 { return nil }
        _ = try expect(answer, operation: "head", target: key)
        return StoredObject(key: key, size: Int64(answer.header("Content-Length") ?? "") ?? 0,
                            lastModified: answer.header("Last-Modified").flatMap(Self.httpDate),
                            etag: (answer.header("ETag") ?? "").replacingOccurrences(of: "\"", with: ""),
                            contentType: answer.header("Content-Type"))
    }

    /// The bytes at `key` (the range `bytes=from-to` when given).
    /// - Throws: `ObjectStoreError` (`isNotFound` when there is no such object).
    public func get(_ key: String, range: ClosedRange<Int64>? = nil) throws -> [UInt8] {
        let headers = range.map { [("Range", "bytes=\($0.lowerBound)-\($0.upperBound)")] } ?? []
        return try expect(send("GET", path: settings.path(of: key), headers: headers, operation: "read", target: key),
                          operation: "read", target: key).body
    }

    /// Removes the object at `key` (an absent one is no error).
    public func delete(_ key: String) throws {
        let answer = try send("DELETE", path: settings.path(of: key), operation: "delete", target: key)
        if answer.status == 404 { return }
        _ = try expect(answer, operation: "delete", target: key)
    }

    /// One page (at most `limit`) of the objects whose keys start with `prefix`, in key order,
    /// from after `continuation`; the page's continuation is nil on the last page.
    public func list(prefix: String, continuation: String? = nil, limit: Int = 1000) throws -> (objects: [StoredObject], continuation: String?) {
        var query = [("list-type", "2"), ("max-keys", String(limit)), ("prefix", prefix)]
        if let continuation { query.append(("continuation-token", continuation)) }
        let answer = try expect(send("GET", path: settings.bucketPath, query: query, operation: "list", target: prefix.isEmpty ? settings.bucket : prefix),
                                operation: "list", target: settings.bucket)
        let text = String(decoding: answer.body, as: UTF8.self)
        let objects = S3XML.elements("Contents", in: text).map { item in
            StoredObject(key: S3XML.value("Key", in: item) ?? "", size: Int64(S3XML.value("Size", in: item) ?? "") ?? 0,
                         lastModified: S3XML.value("LastModified", in: item).flatMap(Self.isoDate),
                         etag: (S3XML.value("ETag", in: item) ?? "").replacingOccurrences(of: "\"", with: ""))
        }
        let truncated = S3XML.value("IsTruncated", in: text) == "true"
        return (objects, truncated ? S3XML.value("NextContinuationToken", in: text) : nil)
    }

    /// Checks that the bucket exists and the credentials may list it.
    /// - Throws: `ObjectStoreError` naming the setting at fault.
    public func checkAccess(prefix: String) throws {
        _ = try list(prefix: prefix, limit: 1)
    }

    /// A URL anyone can `GET` `key` with for `seconds` from the start of the current signing
    /// window (a quarter of `seconds`, at most 5 minutes), so for at least three quarters of
    /// `seconds` from now; no longer than temporary credentials last (the URL carries their
    /// session token and ends with them). Within a window the same key gets the same URL,
    /// signed once (`PresignedURLMemory`).
    /// - Throws: `ObjectStoreError` when the platform gives no credentials.
    public func presignedURL(_ key: String, seconds: Int) throws -> String {
        let signing = try credentials.current()
        let moment = now()
        let window = Int64(max(1, min(seconds / 4, 300)))
        let start = Int64(moment.timeIntervalSince1970.rounded(.down)) / window * window
        let name = "\(signing.accessKeyID)\n\(credentials.expiration?.timeIntervalSince1970 ?? 0)\n\(seconds)\n\(key)"
        if let url = presigned.url(name, windowStart: start) { return url }
        let date = Date(timeIntervalSince1970: TimeInterval(start))
        let path = settings.path(of: key)
        let signer = SigV4Signer(credentials: signing, region: settings.region)
        var expires = seconds
        if let expiration = credentials.expiration {
            expires = max(1, min(seconds, Int(expiration.timeIntervalSince(date))))
        }
        let url = base + SigV4Signer.encode(path, keepSlash: true) + "?" + signer.presignedQuery(host: host, path: path, expires: expires, at: date)
        presigned.keep(url, for: name, windowStart: start)
        return url
    }

    // MARK: Multipart uploads

    /// Starts a multipart upload of `key`; returns its upload id.
    public func startMultipartUpload(_ key: String, contentType: String) throws -> String {
        let answer = try expect(send("POST", path: settings.path(of: key), query: [("uploads", "")], headers: [("Content-Type", contentType)],
                                     body: .post([]), payloadHash: Crypto.hex(Crypto.sha256([UInt8]())), operation: "start upload", target: key),
                                operation: "start upload", target: key)
        guard let id = S3XML.value("UploadId", in: String(decoding: answer.body, as: UTF8.self)), !id.isEmpty else {
            throw ObjectStoreError(.unreadableAnswer(detail: "no UploadId"), operation: "start upload", target: key)
        }
        return id
    }

    /// Uploads part `number` (from 1) of a multipart upload; returns its entity tag.
    public func uploadPart(_ key: String, uploadID: String, number: Int, bytes: [UInt8]) throws -> String {
        let answer = try expect(send("PUT", path: settings.path(of: key), query: [("partNumber", String(number)), ("uploadId", uploadID)],
                                     body: .upload(bytes), payloadHash: Crypto.hex(Crypto.sha256(bytes)), operation: "upload part", target: key),
                                operation: "upload part", target: key)
        return answer.header("ETag") ?? ""
    }

    /// Joins the uploaded parts (their entity tags in order) into the object.
    public func completeMultipartUpload(_ key: String, uploadID: String, parts: [String]) throws {
        var xml = "<CompleteMultipartUpload>"
        for (index, etag) in parts.enumerated() {
            xml += "<Part><PartNumber>\(index + 1)</PartNumber><ETag>\(S3XML.escape(etag))</ETag></Part>"
        }
        xml += "</CompleteMultipartUpload>"
        let body = Array(xml.utf8)
        let answer = try expect(send("POST", path: settings.path(of: key), query: [("uploadId", uploadID)],
                                     headers: [("Content-Type", "application/xml")], body: .post(body),
                                     payloadHash: Crypto.hex(Crypto.sha256(body)), operation: "complete upload", target: key),
                                operation: "complete upload", target: key)
        // S3 may answer 200 with an error in the body when the join fails late.
        let text = String(decoding: answer.body, as: UTF8.self)
        if text.contains("<Error>") {
            throw ObjectStoreError(.refused(status: 500, code: S3XML.value("Code", in: text) ?? "", message: S3XML.value("Message", in: text) ?? ""),
                                   operation: "complete upload", target: key)
        }
    }

    /// Abandons a multipart upload, so its parts stop costing storage.
    public func abortMultipartUpload(_ key: String, uploadID: String) {
        _ = try? send("DELETE", path: settings.path(of: key), query: [("uploadId", uploadID)], operation: "abort upload", target: key)
    }

    // MARK: Requests

    enum Body {
        case none
        case upload([UInt8])
        case post([UInt8])

        var count: Int {
            switch self {
            case .none: return 0
            case let .upload(bytes), let .post(bytes): return bytes.count
            }
        }
    }

    struct Answer {
        let status: Int
        let body: [UInt8]
        let headerLines: [(String, String)]

        func header(_ name: String) -> String? {
            headerLines.last { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
        }
    }

    /// The answer when it is a 2xx; otherwise the store's refusal as an error.
    private func expect(_ answer: Answer, operation: String, target: String) throws -> Answer {
        guard !(200...299).contains(answer.status) else { return answer }
        throw Self.refusal(answer, operation: operation, target: target)
    }

    static func refusal(_ answer: Answer, operation: String, target: String) -> ObjectStoreError {
        let text = String(decoding: answer.body.prefix(4096), as: UTF8.self)
        var code = S3XML.value("Code", in: text) ?? ""
        if code.isEmpty {
            // A HEAD has no body: name the usual reason by the status.
            switch answer.status {
            case 404: code = target.isEmpty ? "NoSuchBucket" : "NoSuchKey"
            case 403: code = "AccessDenied"
            default: break
            }
        }
        return ObjectStoreError(.refused(status: answer.status, code: code, message: S3XML.value("Message", in: text) ?? ""),
                                operation: operation, target: target)
    }

    /// Sends one request, retrying transient failures with back-off; any answer below 500 is
    /// returned as it is.
    private func send(_ method: String, path: String, query: [(String, String)] = [], headers: [(String, String)] = [],
                      body: Body = .none, payloadHash: String? = nil, operation: String, target: String) throws -> Answer {
        let started = SystemTimeSource.monotonicNanoseconds()
        var attempt = 1
        while true {
            let result: Result<Answer, ObjectStoreError>
            do {
                result = .success(try pool.withHandle { easy in
                    try transfer(easy, method: method, path: path, query: query, headers: headers, body: body,
                                 payloadHash: payloadHash ?? Crypto.hex(Crypto.sha256([UInt8]())), operation: operation, target: target)
                })
            } catch let error as ObjectStoreError {
                result = .failure(error)
            } catch {
                result = .failure(ObjectStoreError(.unreachable(detail: "\(error)"), operation: operation, target: target))
            }
            let failure: ObjectStoreError
            switch result {
            case let .success(answer) where answer.status < 500 && answer.status != 429:
                let seconds = Double(SystemTimeSource.monotonicNanoseconds() - started) / 1e9
                let error = (200...299).contains(answer.status) || (answer.status == 404 && method != "PUT")
                    ? nil : Self.refusal(answer, operation: operation, target: target)
                metrics.record(operation: operation, seconds: seconds, error: error,
                               uploadedBytes: method == "PUT" && error == nil ? body.count : 0)
                return answer
            case let .success(answer):
                failure = Self.refusal(answer, operation: operation, target: target)
            case let .failure(error):
                failure = error
            }
            guard failure.isTransient, attempt < settings.maxAttempts else {
                metrics.record(operation: operation, seconds: Double(SystemTimeSource.monotonicNanoseconds() - started) / 1e9,
                               error: failure, uploadedBytes: 0)
                throw failure
            }
            metrics.retried(operation: operation)
            let ceiling = settings.retryBaseSeconds * Double(1 << min(attempt - 1, 10))
            Thread.sleep(forTimeInterval: Double.random(in: 0...max(ceiling, 0.001)))
            attempt += 1
        }
    }

    private func transfer(_ easy: CurlEasyHandle, method: String, path: String, query: [(String, String)], headers: [(String, String)],
                          body: Body, payloadHash: String, operation: String, target: String) throws -> Answer {
        let handle = easy.handle
        let date = now()
        let signing: ObjectStoreCredentials
        do {
            signing = try credentials.current()
        } catch let error as ObjectStoreError where error.isTransient {
            // The request was not sent: the platform may give credentials again later.
            throw ObjectStoreError(.unreachable(detail: "no credentials: \(error)"), operation: operation, target: target)
        }
        let signer = SigV4Signer(credentials: signing, region: settings.region)
        var signed = headers + [("Host", host), ("x-amz-date", SigV4Signer.timestamp(date)), ("x-amz-content-sha256", payloadHash)]
        if let token = signing.sessionToken, !token.isEmpty { signed.append(("x-amz-security-token", token)) }
        let request = SigV4Signer.Request(method: method, path: path, query: query, headers: signed, payloadHash: payloadHash)
        for (name, value) in signed + [("Authorization", signer.authorization(for: request, at: date)), ("Expect", "")] {
            try easy.appendHeader("\(name): \(value)")
        }
        let queryText = SigV4Signer.canonicalQuery(query)
        let url = base + SigV4Signer.encode(path, keepSlash: true) + (queryText.isEmpty ? "" : "?" + queryText)
        let timeout = max(1, Int(settings.timeoutSeconds * 1000))
        var codes: [CURLcode] = [
            belay_curl_setopt_string(handle, CURLOPT_URL, url),
            belay_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            belay_curl_setopt_string(handle, CURLOPT_USERAGENT, "Belay"),
            belay_curl_setopt_string(handle, CURLOPT_NOPROXY, "*"),
            belay_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            belay_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            belay_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeout),
            belay_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, min(timeout, 10_000)),
            easy.installHeaders(),
            belay_curl_capture_body(handle, easy.body),
            easy.captureResponseHeaders(),
            easy.captureErrorText(),
        ]
        if !settings.caFile.isEmpty { codes.append(belay_curl_setopt_string(handle, CURLOPT_CAINFO, settings.caFile)) }
        switch (method, body) {
        case ("HEAD", _):
            codes.append(belay_curl_setopt_long(handle, CURLOPT_NOBODY, 1))
        case let (_, .upload(bytes)):
            codes.append(easy.setUpload(bytes))
        case let (_, .post(bytes)):
            // libcurl copies the body; an empty one still needs a valid pointer.
            let sent = bytes.isEmpty ? [UInt8(0)] : bytes
            codes.append(sent.withUnsafeBytes { belay_curl_setopt_body(handle, $0.baseAddress, bytes.count) })
        case (_, .none):
            break
        }
        if method == "DELETE" {
            codes.append(belay_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method))
        }
        if let failed = codes.first(where: { $0 != CURLE_OK }) {
            throw ObjectStoreError(.unreachable(detail: "libcurl refused an option: \(String(cString: curl_easy_strerror(failed)))"),
                                   operation: operation, target: target)
        }
        let result = curl_easy_perform(handle)
        guard result == CURLE_OK else {
            let detail = result == CURLE_OPERATION_TIMEDOUT
                ? "no answer within \(Int(settings.timeoutSeconds)) s" : easy.failureText(for: result)
            throw ObjectStoreError(.unreachable(detail: detail), operation: operation, target: target)
        }
        return Answer(status: Int(belay_curl_response_code(handle)), body: easy.responseBytes, headerLines: Self.headerLines(easy))
    }

    private static func headerLines(_ easy: CurlEasyHandle) -> [(String, String)] {
        guard let bytes = easy.headerLines.pointee.bytes else { return [] }
        let text = String(decoding: UnsafeRawBufferPointer(start: bytes, count: easy.headerLines.pointee.length), as: UTF8.self)
        return text.split(separator: "\r\n").compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
    }

    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }

    static func isoDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
