import Foundation

/// What a member follows: a gym, or a host.
public enum FollowSubject: Sendable, Hashable {
    case gym(Int64)
    case host(Int64)

    /// `gym` or `host`, as stored and in the API's paths.
    public var type: String {
        switch self {
        case .gym: return "gym"
        case .host: return "host"
        }
    }

    public var id: Int64 {
        switch self {
        case let .gym(id), let .host(id): return id
        }
    }
}

/// One thing a member follows, and since when.
public struct Follow: Sendable, Hashable {
    public let subject: FollowSubject
    /// The gym's name or the host's display name.
    public let name: String
    public let createdAt: Date

    public init(subject: FollowSubject, name: String, createdAt: Date) {
        self.subject = subject
        self.name = name
        self.createdAt = createdAt
    }
}

/// Why a meetup is in a member's feed.
public enum FeedReason: String, Sendable, Codable {
    case followedGym = "followed_gym"
    case followedHost = "followed_host"
    case nearby
}

/// One meetup of a member's feed.
public struct FeedItem: Sendable {
    public let meetup: Meetup
    public let reason: FeedReason
}
