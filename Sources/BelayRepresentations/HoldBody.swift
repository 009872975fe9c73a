import BelayCore
import BelayDomain
import Foundation

/// A hold of the catalogue, with the URL of its artwork.
public struct HoldBody: JSONRepresentable {
    public let hold: Hold
    /// The check-in count whose milestone gives this hold, if any.
    public let milestoneCheckIn: Int?
    /// The streak length (weeks in a row) whose milestone gives this hold, if any.
    public let milestoneStreakWeeks: Int?
    public let presentation: Presentation

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("id", hold.id)
            json.member("name", hold.name)
            json.member("type", hold.type)
            json.member("color", hold.color)
            json.member("rarity", hold.rarity.rawValue)
            json.member("milestone_only", hold.milestoneOnly)
            json.member("milestone_check_in", milestoneCheckIn)
            json.member("milestone_streak_weeks", milestoneStreakWeeks)
            json.member("artwork_url", presentation.baseURL.url + "/v1/holds/\(hold.id)/artwork.png")
        }
    }

    public init(hold: Hold, milestoneCheckIn: Int?, milestoneStreakWeeks: Int?, presentation: Presentation) {
        self.hold = hold
        self.milestoneCheckIn = milestoneCheckIn
        self.milestoneStreakWeeks = milestoneStreakWeeks
        self.presentation = presentation
    }

    /// `hold` with the first check-in count and the shortest streak whose milestones give it
    /// under `rewards` (`rewards.milestones`, `rewards.streak_milestones`).
    public init(hold: Hold, rewards: RewardPolicy, presentation: Presentation) {
        self.init(hold: hold, milestoneCheckIn: rewards.milestones.filter { $0.value == hold.id }.keys.min(),
                  milestoneStreakWeeks: rewards.streakMilestones.filter { $0.value == hold.id }.keys.min(), presentation: presentation)
    }
}

/// A member's progress, as `/v1/me` shows it.
public struct ProgressBody: JSONRepresentable {
    public let progress: MemberProgress

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("check_ins", progress.checkIns)
            json.member("holds_collected", progress.collected)
            json.member("holds_total", progress.total)
            json.key("by_rarity")
            json.array(progress.byRarity) { json, count in
                json.object { json in
                    json.member("rarity", count.rarity.rawValue)
                    json.member("collected", count.collected)
                    json.member("total", count.total)
                }
            }
            Self.writeNext("next_milestone", progress.nextMilestone.map { ("check_in", $0.checkIn, $0.holdID, $0.remaining) }, to: &json)
            json.member("streak") { json in
                json.member("current_weeks", progress.streak.current)
                json.member("longest_weeks", progress.streak.longest)
                json.member("this_week_done", progress.streak.thisWeekDone)
            }
            Self.writeNext("next_streak_milestone", progress.nextStreakMilestone.map { ("weeks", $0.weeks, $0.holdID, $0.remaining) },
                           to: &json)
        }
    }

    /// A next milestone as `{<at>: n, hold_id, remaining}`, or null when there is none.
    private static func writeNext(_ key: StaticString, _ next: (at: StaticString, value: Int, holdID: String, remaining: Int)?,
                                  to json: inout JSONOutput) {
        json.key(key)
        guard let next else { return json.null() }
        json.object { json in
            json.member(next.at, next.value)
            json.member("hold_id", next.holdID)
            json.member("remaining", next.remaining)
        }
    }

    public init(progress: MemberProgress) {
        self.progress = progress
    }
}
