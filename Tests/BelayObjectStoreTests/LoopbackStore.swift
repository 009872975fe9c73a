import BelayObjectStore
import BelayTestSupport
import Foundation

/// The loopback S3 server the object-store tests share (started on first use, killed when the
/// test process ends), and clients of it.
enum LoopbackStore {
    private static let started = Result { try S3ServerProcess() }

    /// The running server.
    static func server() throws -> S3ServerProcess { try started.get() }

    /// Settings reaching the server's bucket with its key (`secret` replaces the secret).
    static func settings(secret: String? = nil, accessKeyID: String? = nil, bucket: String? = nil, maxAttempts: Int = 2,
                         endpoint: String? = nil, timeoutSeconds: Double = 10) throws -> ObjectStoreSettings {
        let server = try server()
        return ObjectStoreSettings(endpoint: endpoint ?? server.endpoint, bucket: bucket ?? server.bucket, region: server.region, pathStyle: true,
                                   credentials: ObjectStoreCredentials(accessKeyID: accessKeyID ?? server.accessKeyID,
                                                                       secretAccessKey: secret ?? server.secretAccessKey),
                                   timeoutSeconds: timeoutSeconds, maxAttempts: maxAttempts, retryBaseSeconds: 0.05)
    }

    static func client(secret: String? = nil, accessKeyID: String? = nil, bucket: String? = nil) throws -> S3Client {
        try S3Client(settings: settings(secret: secret, accessKeyID: accessKeyID, bucket: bucket))
    }

    /// A prefix no other test uses.
    static func freshPrefix() -> String { "test-\(UUID().uuidString.lowercased())/" }
}
