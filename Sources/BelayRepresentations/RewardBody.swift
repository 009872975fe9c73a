import BelayCore
import BelayDomain
import Foundation

/// The image kinds of a reward and how their URLs look: the content hash is part of the
/// path, so a URL names one exact image forever and can be cached as immutable.
public enum RewardImageKind: String, CaseIterable, Sendable {
    case sticker
    case story

    /// `/v1/rewards/{id}/sticker/{hash}.png`.
    public func path(rewardID: Int64, hash: String, fileExtension: String) -> String {
        "/v1/rewards/\(rewardID)/\(rawValue)/\(hash).\(fileExtension)"
    }

    /// The stored hash and file extension of this image of `images`, or nil while it is still
    /// to follow (the story is stored after the sticker).
    public func file(of images: RenderedImages) -> (hash: String, fileExtension: String)? {
        switch self {
        case .sticker: return (images.stickerHash, Self.fileExtension(of: images.stickerPath))
        case .story:
            guard let hash = images.storyHash, let path = images.storyPath else { return nil }
            return (hash, Self.fileExtension(of: path))
        }
    }

    /// The stored path of this image of `images` (relative to the data directory), or nil
    /// while it is still to follow.
    public func storedPath(of images: RenderedImages) -> String? {
        switch self {
        case .sticker: return images.stickerPath
        case .story: return images.storyPath
        }
    }

    public static func fileExtension(of path: String) -> String {
        guard let dot = path.lastIndex(of: ".") else { return "png" }
        return String(path[path.index(after: dot)...])
    }

    public static func contentType(forExtension fileExtension: String) -> String {
        fileExtension == "jpg" ? "image/jpeg" : "image/png"
    }
}

/// Seconds the app should wait before asking again for an image still being rendered.
public let renderRetryAfterSeconds = 2

/// A reward as the API shows it, with its hold, background, meetup and images.
public struct RewardBody: JSONRepresentable {
    public let reward: Reward
    public let presentation: Presentation

    public func write(to json: inout JSONOutput) {
        let meetupZone = presentation.zones.zone(reward.meetupTimeZone)
        json.object { json in
            json.member("id", reward.id)
            json.member("user_id", reward.memberID)
            json.member("meetup_id", reward.meetupID)
            json.member("attendance_id", reward.attendanceID)
            json.member("hold") { json in
                json.member("id", reward.hold.id)
                json.member("name", reward.hold.name)
                json.member("type", reward.hold.type)
                json.member("color", reward.hold.color)
                json.member("rarity", reward.hold.rarity.rawValue)
            }
            json.member("background") { json in
                json.member("id", reward.background.id)
                json.member("name", reward.background.name)
                json.member("top_color", reward.background.topColor)
                json.member("bottom_color", reward.background.bottomColor)
            }
            json.member("milestone", reward.milestone)
            json.member("streak_milestone", reward.streakMilestone)
            json.member("awarded_at", reward.awardedAt, offset: presentation.clubZone)
            json.member("revoked_at", reward.revokedAt, offset: presentation.clubZone)
            json.member("meetup") { json in
                json.member("id", reward.meetupID)
                json.member("title", reward.meetupTitle)
                json.member("place_name", reward.placeName)
                json.member("starts_at", reward.meetupStartsAt, offset: meetupZone)
                json.member("time_zone", reward.meetupTimeZone)
            }
            json.member("render_status", reward.renderStatus.rawValue)
            json.key("images")
            if let images = reward.images {
                json.object { json in
                    for kind in RewardImageKind.allCases {
                        json.key(dynamic: kind.rawValue)
                        if let link = ImageLinkBody(rewardID: reward.id, kind: kind, images: images, presentation: presentation) {
                            link.write(to: &json)
                        } else {
                            json.null()
                        }
                    }
                }
            } else {
                json.null()
            }
            let imagePending = reward.images.map { $0.storyHash == nil } ?? (reward.renderStatus == .pending)
            json.member("retry_after_seconds", imagePending && !reward.isRevoked ? renderRetryAfterSeconds : nil)
            // Characters of the place name that no font has: the images leave them out, and
            // the app and the host can see so.
            let missing = presentation.fontCoverage?.missingCharacters(in: reward.placeName, language: presentation.clubLocale) ?? []
            json.key("missing_characters")
            json.array(missing) { json, character in
                json.object { json in
                    json.member("character", String(character))
                    json.key("code_points")
                    json.array(CodePoints.names(of: character)) { json, name in json.string(name) }
                }
            }
            json.member("share_url", presentation.absoluteURL("/v1/rewards/\(reward.id)/share"))
        }
    }

    public init(reward: Reward, presentation: Presentation) {
        self.reward = reward
        self.presentation = presentation
    }
}

/// One rendered image: where to fetch it and the ETag it is served with.
public struct ImageLinkBody: JSONRepresentable {
    public let rewardID: Int64
    public let kind: RewardImageKind
    private let file: (hash: String, fileExtension: String)
    public let presentation: Presentation

    public var url: String {
        presentation.absoluteURL(kind.path(rewardID: rewardID, hash: file.hash, fileExtension: file.fileExtension))
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("url", url)
            json.member("hash", file.hash)
            json.member("etag", "\"\(file.hash)\"")
            json.member("content_type", RewardImageKind.contentType(forExtension: file.fileExtension))
        }
    }

    /// Nil when `images` has no such image yet (the story follows the sticker).
    public init?(rewardID: Int64, kind: RewardImageKind, images: RenderedImages, presentation: Presentation) {
        guard let file = kind.file(of: images) else { return nil }
        self.rewardID = rewardID
        self.kind = kind
        self.file = file
        self.presentation = presentation
    }
}

/// The result of a check-in: the attendance, now `checked_in`, and the reward it earned.
public struct CheckInBody: JSONRepresentable {
    public let result: CheckInResult
    public let presentation: Presentation

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.key("attendance")
            AttendanceBody(attendance: result.attendance, presentation: presentation).write(to: &json)
            json.key("reward")
            if let reward = result.reward {
                RewardBody(reward: reward, presentation: presentation).write(to: &json)
            } else {
                json.null()
            }
        }
    }

    public init(result: CheckInResult, presentation: Presentation) {
        self.result = result
        self.presentation = presentation
    }
}
