import BelayStorage
import Foundation

/// The reward `RewardAwarder.award` made sure a checked-in attendance has.
struct AwardedReward {
    /// The reward's id; for a reward the award created, answered by its commit at the latest
    /// (see `Database.queryLater`).
    let id: DatabaseAnswer<Int64>
    /// What was written, when the award created the reward (nil: it was there already).
    let created: Created?

    /// A reward as `award` wrote it.
    struct Created {
        let attendanceID: Int64
        let memberID: Int64
        let meetupID: Int64
        let hold: Hold
        let background: Background
        let pick: RewardPicker.Pick
        let awardedAt: Date
        let checkInNumber: Int
    }

    /// The new reward as a read of it would return it, from what was written and the meetup
    /// it was for, so that a check-in does not read back what it has just written; nil when
    /// the reward was there already.
    /// - Throws: the error of the statement that inserted it.
    func reward(of meetup: MeetupRepository.Essentials) throws -> Reward? {
        guard let created else { return nil }
        return Reward(id: try id.get(), attendanceID: created.attendanceID, memberID: created.memberID, meetupID: created.meetupID,
                      hold: created.hold, background: created.background, milestone: created.pick.milestone,
                      streakMilestone: created.pick.streakMilestone,
                      // As stored: to the millisecond.
                      awardedAt: Date(millisecondsSince1970: created.awardedAt.millisecondsSince1970),
                      revokedAt: nil, renderStatus: .pending, images: nil, failureReason: nil, meetupTitle: meetup.title,
                      placeName: meetup.placeName, meetupStartsAt: meetup.startsAt, meetupTimeZone: meetup.timeZone,
                      checkInNumber: created.checkInNumber)
    }
}
