import Foundation

/// An access key pair for an S3-compatible store, with the session token temporary
/// credentials come with.
public struct ObjectStoreCredentials: Sendable, Equatable {
    public var accessKeyID: String
    public var secretAccessKey: String
    /// `x-amz-security-token` for temporary credentials; nil for a long-lived key.
    public var sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }
}
