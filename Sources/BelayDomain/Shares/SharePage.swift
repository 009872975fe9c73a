import Foundation

/// What the public page of a shared reward shows: only what the member shared.
public struct SharePage: Sendable, Hashable {
    /// The page's unguessable name in `/s/{slug}`.
    public let slug: String
    /// The reward, with its hold, background, place and date.
    public let reward: Reward
    /// The member's display name, or nil when they chose not to show it on share pages.
    public let memberName: String?

    /// True when the check-in was undone: the page answers 410 Gone.
    public var isRevoked: Bool { reward.isRevoked }
}
