import Foundation

/// Where a bucket is and how to reach it: the composition root makes this from `images.s3.*`.
public struct ObjectStoreSettings: Sendable, Equatable {
    /// `scheme://host[:port]` of the store, without a path (`https://s3.eu-central-1.amazonaws.com`,
    /// `https://ACCOUNT.r2.cloudflarestorage.com`, `http://127.0.0.1:9000`).
    public var endpoint: String
    public var bucket: String
    /// The signing region (`auto` for R2, anything the store accepts for MinIO and Ceph).
    public var region: String
    /// `true`: `endpoint/bucket/key` (MinIO, Ceph, most self-hosted stores);
    /// `false`: `bucket.endpoint/key` (AWS, R2).
    public var pathStyle: Bool
    public var credentials: ObjectStoreCredentials
    /// Where temporary credentials come from when no key is configured (then `credentials`
    /// is empty); nil: `credentials` is the key.
    public var credentialSource: PlatformCredentialSource?
    /// Seconds one attempt may take, connecting included.
    public var timeoutSeconds: Double
    /// Attempts per request on a transient failure (connection reset, timeout, 500, 503 SlowDown).
    public var maxAttempts: Int
    /// The first retry waits up to this long (full jitter), doubling per attempt.
    public var retryBaseSeconds: Double
    /// A CA bundle trusted instead of the system's; empty: the system's.
    public var caFile: String

    public init(endpoint: String, bucket: String, region: String, pathStyle: Bool, credentials: ObjectStoreCredentials,
                timeoutSeconds: Double = 30, maxAttempts: Int = 4, retryBaseSeconds: Double = 0.2, caFile: String = "",
                credentialSource: PlatformCredentialSource? = nil) {
        self.endpoint = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
        self.bucket = bucket
        self.region = region
        self.pathStyle = pathStyle
        self.credentials = credentials
        self.timeoutSeconds = timeoutSeconds
        self.maxAttempts = maxAttempts
        self.retryBaseSeconds = retryBaseSeconds
        self.caFile = caFile
        self.credentialSource = credentialSource
    }

    /// AWS S3's endpoint in `region`.
    public static func awsEndpoint(region: String) -> String { "https://s3.\(region).amazonaws.com" }

    /// The scheme and host:port of requests to the bucket.
    var baseAndHost: (base: String, host: String)? {
        guard let url = URLComponents(string: endpoint), let scheme = url.scheme, let host = url.host, !host.isEmpty else { return nil }
        let port = url.port.map { ":\($0)" } ?? ""
        let bucketHost = pathStyle ? host : "\(bucket).\(host)"
        return ("\(scheme)://\(bucketHost)\(port)", "\(bucketHost)\(port)")
    }

    /// The request path of `key` (bucket-relative, no leading slash), before encoding.
    func path(of key: String) -> String {
        pathStyle ? "/\(bucket)/\(key)" : "/\(key)"
    }

    /// The request path of the bucket itself.
    var bucketPath: String { pathStyle ? "/\(bucket)" : "/" }
}
