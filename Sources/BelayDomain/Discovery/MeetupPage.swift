import Foundation

/// A meetup's public page, `/m/{slug}`: a link that opens anywhere, with a preview.
public struct MeetupPage: Sendable, Hashable {
    /// 128 random bits, base64url: unguessable, as share pages.
    public let slug: String
    /// When it was published; nil once its host unpublished it (the address then answers 410).
    public let publishedAt: Date?
    /// Whether the page names the host (their display name only), as they chose.
    public let showsHost: Bool

    public init(slug: String, publishedAt: Date?, showsHost: Bool) {
        self.slug = slug
        self.publishedAt = publishedAt
        self.showsHost = showsHost
    }

    public var isPublished: Bool { publishedAt != nil }
}
