import Foundation

/// How reward images kept in a bucket (not on this node's disk) are served: a redirect to
/// the address the bucket (or a CDN in front of it) answers at, or the bytes read from the
/// bucket and sent on. The ETag, 304 and 202-while-rendering answers stay Belay's either way.
public struct RemoteImageServing: Sendable {
    public enum Mode: Sendable {
        /// `302` to `address(rowPath)`.
        case redirect
        /// The bytes, read from the bucket by `bytes(rowPath)`.
        case proxy
    }

    public let mode: Mode
    /// The public or presigned URL of the image a reward row names; nil when the path does
    /// not lie inside the image store.
    /// - Throws: `ImageStoreError` (transient) when no link can be made now (the platform's
    ///   temporary credentials ran out and could not be had again).
    public let address: @Sendable (String) throws -> String?
    /// The bytes of the image a reward row names.
    /// - Throws: `ImageStoreError` (`isMissing` when the bucket does not have it, transient
    ///   when the bucket does not answer).
    public let bytes: @Sendable (String) throws -> [UInt8]
    /// Seconds a redirect may be reused by the client (less than a presigned URL lasts).
    public let redirectMaxAge: Int

    public init(mode: Mode, redirectMaxAge: Int, address: @escaping @Sendable (String) throws -> String?,
                bytes: @escaping @Sendable (String) throws -> [UInt8]) {
        self.mode = mode
        self.redirectMaxAge = redirectMaxAge
        self.address = address
        self.bytes = bytes
    }
}
