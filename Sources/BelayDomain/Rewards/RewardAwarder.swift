import BelayStorage
import Foundation
import Synchronization

/// Gives a checked-in attendance its reward and render job, inside the caller's transaction.
///
/// Keeps the catalogue in memory and reloads it when an import (in any process) has bumped
/// `catalog_generation`, so a check-in reads one small row instead of the whole catalogue.
final class RewardAwarder: Sendable {
    let picker: RewardPicker
    /// Weekly streaks are counted in the club's zone.
    private let clubTimeZone: TimeZone
    private let cached = Mutex<CatalogSnapshot?>(nil)

    init(policy: RewardPolicy, clubTimeZone: TimeZone) {
        picker = RewardPicker(policy: policy)
        self.clubTimeZone = clubTimeZone
    }

    /// The catalogue at `generation`, read again only when an import has bumped it.
    func catalog(generation: Int64, in db: Database) throws -> CatalogSnapshot {
        if let snapshot = cached.withLock({ $0 }), snapshot.generation == generation { return snapshot }
        let snapshot = CatalogSnapshot(generation: generation, holds: try CatalogRepository.holds(in: db),
                                       backgrounds: try CatalogRepository.backgrounds(in: db))
        cached.withLock { $0 = snapshot }
        return snapshot
    }

    /// Makes sure the checked-in attendance has an active reward with a render job when it
    /// needs one: creates it (a milestone by `checkInNumber`, the number the check-in was
    /// given), or reinstates a reward revoked by an undone check-in.
    /// - Parameter context: the attendance's award context when the caller has read it
    ///   already (nil: read here).
    /// - Returns: the reward, or nil when the catalogue has nothing to award yet.
    func award(attendanceID: Int64, memberID: Int64, meetupID: Int64, checkedInAt: Date, checkInNumber number: Int,
               context known: RewardRepository.AwardContext? = nil, reason: RenderJobReason, now: Date,
               in db: Database) throws -> AwardedReward? {
        let context = try known ?? RewardRepository.awardContext(attendanceID: attendanceID, in: db)
        if let existingID = context.rewardID {
            if let existing = try RewardRepository.standing(attendanceID: attendanceID, in: db) {
                if existing.revoked { try RewardRepository.setRevoked(nil, id: existing.id, in: db) }
                if existing.renderStatus != .ready {
                    _ = try RenderJobRepository.enqueue(rewardID: existing.id, reason: reason, availableAt: now, now: now, in: db)
                }
            }
            return AwardedReward(id: DatabaseAnswer(.success(existingID)), created: nil)
        }
        // Only clubs with streak milestones pay for reading the member's history here.
        var streakLengths: ClosedRange<Int>?
        if !picker.policy.streakMilestones.isEmpty {
            let before = try AttendanceRepository.checkInTimes(memberID: memberID, before: checkedInAt, attendanceID: attendanceID, in: db)
            streakLengths = WeeklyStreak.lengthsReached(by: checkedInAt, before: before, zone: clubTimeZone)
        }
        let catalog = try catalog(generation: context.catalogGeneration, in: db)
        guard let pick = picker.pick(memberID: memberID, meetupID: meetupID, checkInNumber: number, streakLengths: streakLengths,
                                     catalog: catalog) else { return nil }
        let rewardID = try RewardRepository.insertQueueingRender(attendanceID: attendanceID, memberID: memberID, meetupID: meetupID,
                                                                 pick: pick, reason: reason, at: now, in: db)
        // The pick comes from this catalogue, so both are in it.
        guard let hold = catalog.holdsByID[pick.holdID], let background = catalog.backgrounds.first(where: { $0.id == pick.backgroundID })
        else { return AwardedReward(id: rewardID, created: nil) }
        return AwardedReward(id: rewardID, created: AwardedReward.Created(attendanceID: attendanceID, memberID: memberID,
                                                                          meetupID: meetupID, hold: hold, background: background,
                                                                          pick: pick, awardedAt: now, checkInNumber: number))
    }
}
