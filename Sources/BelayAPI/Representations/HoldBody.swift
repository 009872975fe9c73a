import BelayCore
import BelayDomain
import Foundation

/// A hold of the catalogue, with the URL of its artwork.
struct HoldBody: JSONRepresentable {
    let hold: Hold
    /// The check-in count whose milestone gives this hold, if any.
    let milestoneCheckIn: Int?
    /// The streak length (weeks in a row) whose milestone gives this hold, if any.
    let milestoneStreakWeeks: Int?
    let presentation: Presentation

    func write(to json: inout JSONOutput) {
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
}

/// A member's progress, as `/v1/me` shows it.
struct ProgressBody: JSONRepresentable {
    let progress: MemberProgress

    func write(to json: inout JSONOutput) {
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
            json.key("next_milestone")
            if let next = progress.nextMilestone {
                json.object { json in
                    json.member("check_in", next.checkIn)
                    json.member("hold_id", next.holdID)
                    json.member("remaining", next.remaining)
                }
            } else {
                json.null()
            }
            json.member("streak") { json in
                json.member("current_weeks", progress.streak.current)
                json.member("longest_weeks", progress.streak.longest)
                json.member("this_week_done", progress.streak.thisWeekDone)
            }
            json.key("next_streak_milestone")
            if let next = progress.nextStreakMilestone {
                json.object { json in
                    json.member("weeks", next.weeks)
                    json.member("hold_id", next.holdID)
                    json.member("remaining", next.remaining)
                }
            } else {
                json.null()
            }
        }
    }
}
