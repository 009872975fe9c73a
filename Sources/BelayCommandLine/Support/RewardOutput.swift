import Foundation
import BelayDomain

/// A reward as `--json` output and tables show it.
struct RewardOutput: Encodable {
    var id: Int64
    var member: String
    var memberId: Int64
    var meetupId: Int64
    var meetupTitle: String
    var holdId: String
    var holdName: String
    var rarity: String
    var background: String
    var milestone: Int?
    var streakMilestone: Int?
    var awardedAt: Date
    var revokedAt: Date?
    var renderStatus: String
    var failureReason: String?
    var stickerPath: String?
    var storyPath: String?

    init(_ reward: Reward, member: String) {
        id = reward.id
        self.member = member
        memberId = reward.memberID
        meetupId = reward.meetupID
        meetupTitle = reward.meetupTitle
        holdId = reward.hold.id
        holdName = reward.hold.name
        rarity = reward.hold.rarity.rawValue
        background = reward.background.id
        milestone = reward.milestone
        streakMilestone = reward.streakMilestone
        awardedAt = reward.awardedAt
        revokedAt = reward.revokedAt
        renderStatus = reward.renderStatus.rawValue
        failureReason = reward.failureReason
        stickerPath = reward.images?.stickerPath
        storyPath = reward.images?.storyPath
    }
}
