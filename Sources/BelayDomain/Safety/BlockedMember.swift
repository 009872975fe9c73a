import Foundation

/// A member on the caller's block list or ban list.
public struct BlockedMember: Sendable, Hashable {
    public let userID: Int64
    public let handle: String
    public let displayName: String
    /// When the block or ban was made.
    public let since: Date
}
