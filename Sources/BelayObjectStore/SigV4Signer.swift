import BelayCore
import Foundation

/// AWS Signature Version 4 for S3 (the `s3` service): the `Authorization` header of a request
/// and presigned URLs, as every S3-compatible store (AWS, R2, MinIO, Ceph RGW) checks them.
///
/// Pure functions of their inputs (the clock is passed in), so the tests hold them to the
/// worked examples of AWS's documentation.
public struct SigV4Signer: Sendable {
    /// The key pair (and session token) requests are signed with.
    public let credentials: ObjectStoreCredentials
    /// The region named in the credential scope (`us-east-1`, `auto` for R2, …).
    public let region: String
    /// The service named in the credential scope; `s3` for every object store.
    public let service: String

    /// The payload hash a presigned URL and a streamed body carry.
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"

    public init(credentials: ObjectStoreCredentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// One request to sign.
    public struct Request: Sendable {
        public var method: String
        /// The path as sent, before encoding (`/bucket/key` or `/key`).
        public var path: String
        /// Query parameters, not yet encoded; a key without a value is `("lifecycle", "")`.
        public var query: [(String, String)]
        /// Headers to sign (the `host` header among them), any case.
        public var headers: [(String, String)]
        /// The hex SHA-256 of the body, or `UNSIGNED-PAYLOAD`.
        public var payloadHash: String

        public init(method: String, path: String, query: [(String, String)] = [], headers: [(String, String)], payloadHash: String) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    /// The `Authorization` header's value for `request` made at `date`. The request must also
    /// carry `x-amz-date` (`SigV4Signer.timestamp(date)`) and `x-amz-content-sha256`.
    public func authorization(for request: Request, at date: Date) -> String {
        let (signedHeaders, signature) = sign(request, at: date)
        return "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope(date)),SignedHeaders=\(signedHeaders),Signature=\(signature)"
    }

    /// The query a presigned `GET` (or other `method`) of `path` on `host` carries, valid for
    /// `expires` seconds from `date`; append it after `?`.
    public func presignedQuery(method: String = "GET", host: String, path: String, expires: Int, at date: Date) -> String {
        var query: [(String, String)] = [
            ("X-Amz-Algorithm", "AWS4-HMAC-SHA256"),
            ("X-Amz-Credential", "\(credentials.accessKeyID)/\(scope(date))"),
            ("X-Amz-Date", Self.timestamp(date)),
            ("X-Amz-Expires", String(expires)),
            ("X-Amz-SignedHeaders", "host"),
        ]
        if let token = credentials.sessionToken, !token.isEmpty { query.append(("X-Amz-Security-Token", token)) }
        let request = Request(method: method, path: path, query: query, headers: [("host", host)], payloadHash: Self.unsignedPayload)
        let (_, signature) = sign(request, at: date)
        return Self.canonicalQuery(query) + "&X-Amz-Signature=" + signature
    }

    /// `yyyyMMdd'T'HHmmss'Z'` in UTC, as `x-amz-date` carries it.
    public static func timestamp(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        // Written digit by digit: `String(format:)` costs microseconds on Linux, and a
        // presigned redirect is made on every image request.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        func digits(_ value: Int32, _ count: Int) {
            var divisor: Int32 = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(0x30 + UInt8(truncatingIfNeeded: (rest / divisor) % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(parts.tm_year + 1900, 4); digits(parts.tm_mon + 1, 2); digits(parts.tm_mday, 2)
        bytes.append(0x54) // T
        digits(parts.tm_hour, 2); digits(parts.tm_min, 2); digits(parts.tm_sec, 2)
        bytes.append(0x5A) // Z
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The canonical request's text (exposed for the tests and for explaining a refusal).
    public func canonicalRequest(_ request: Request) -> String {
        let headers = Self.canonicalHeaders(request.headers)
        return [request.method, Self.encode(request.path, keepSlash: true), Self.canonicalQuery(request.query),
                headers.map { "\($0.name):\($0.value)\n" }.joined(), headers.map(\.name).joined(separator: ";"),
                request.payloadHash].joined(separator: "\n")
    }

    private func sign(_ request: Request, at date: Date) -> (signedHeaders: String, signature: String) {
        let canonical = canonicalRequest(request)
        let stringToSign = ["AWS4-HMAC-SHA256", Self.timestamp(date), scope(date), Crypto.hex(Crypto.sha256(Array(canonical.utf8)))]
            .joined(separator: "\n")
        let signature = Crypto.hex(Crypto.hmacSHA256(key: signingKey(date), message: Array(stringToSign.utf8)))
        return (Self.canonicalHeaders(request.headers).map(\.name).joined(separator: ";"), signature)
    }

    private func scope(_ date: Date) -> String {
        "\(Self.timestamp(date).prefix(8))/\(region)/\(service)/aws4_request"
    }

    private func signingKey(_ date: Date) -> [UInt8] {
        let day = Crypto.hmacSHA256(key: Array("AWS4\(credentials.secretAccessKey)".utf8), message: Array(Self.timestamp(date).prefix(8).utf8))
        let inRegion = Crypto.hmacSHA256(key: day, message: Array(region.utf8))
        let inService = Crypto.hmacSHA256(key: inRegion, message: Array(service.utf8))
        return Crypto.hmacSHA256(key: inService, message: Array("aws4_request".utf8))
    }

    private static func canonicalHeaders(_ headers: [(String, String)]) -> [(name: String, value: String)] {
        var merged: [String: [String]] = [:]
        for (name, value) in headers {
            let collapsed = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            merged[name.lowercased(), default: []].append(collapsed)
        }
        return merged.keys.sorted().map { ($0, merged[$0, default: []].joined(separator: ",")) }
    }

    /// Pairs encoded and sorted by key, then value, joined with `&`.
    static func canonicalQuery(_ query: [(String, String)]) -> String {
        let encoded: [(name: String, value: String)] = query.map { pair in
            (encode(pair.0, keepSlash: false), encode(pair.1, keepSlash: false))
        }
        let sorted = encoded.sorted { left, right in
            left.name == right.name ? left.value < right.value : left.name < right.name
        }
        return sorted.map { pair in pair.name + "=" + pair.value }.joined(separator: "&")
    }

    /// RFC 3986 percent-encoding of everything but the unreserved characters (and `/` in a path).
    public static func encode(_ text: String, keepSlash: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            if Self.isUnreserved(byte) || (keepSlash && byte == 0x2F) {
                out.append(byte)
            } else {
                out.append(0x25) // %
                out.append(upperHex[Int(byte >> 4)])
                out.append(upperHex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let upperHex: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// A-Z, a-z, 0-9, `-`, `_`, `.`, `~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
            || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x7E
    }
}
