import BelayCore
import BelayDomain
import Foundation

/// A grade as every logbook answer shows it: the text as given (`V5`, a level's name), its
/// scale (null for a colour level), the same grade in the caller's scale (`6c`, or a level's
/// range `V4–V5`), its band, and its scores on the axis.
public struct GradeBody: JSONRepresentable {
    public let text: String
    public let scale: GradeScale?
    public let colour: String?
    public let range: GradeRange
    public let preferences: LogbookPreferences

    public init(text: String, scale: GradeScale?, colour: String? = nil, range: GradeRange, preferences: LogbookPreferences) {
        self.text = text
        self.scale = scale
        self.colour = colour
        self.range = range
        self.preferences = preferences
    }

    /// A tick's grade as it was logged: its colour when it was a gym's level.
    public init(tick: Tick, preferences: LogbookPreferences) {
        self.init(text: tick.grade, scale: tick.gradeScale, colour: tick.levelPosition != nil ? tick.colour : nil, range: tick.range,
                  preferences: preferences)
    }

    public func write(to json: inout JSONOutput) {
        let shownIn = preferences.scale(range.axis)
        json.object { json in
            json.member("text", text)
            json.member("scale", scale?.rawValue)
            json.member("colour", colour)
            json.member("axis", range.axis.rawValue)
            json.member("display", GradeTable.display(range, from: scale, in: shownIn))
            json.member("display_scale", shownIn.rawValue)
            json.member("band", GradeTable.band(of: range.lowest, on: range.axis).rawValue)
            json.member("score_min", range.lowest)
            json.member("score_max", range.highest)
        }
    }
}

/// A gym as `GET /v1/gyms/{id}` answers it, with its colour circuits.
public struct GymBody: JSONRepresentable {
    public let gym: Gym
    public let preferences: LogbookPreferences
    /// Kilometres from the point the caller searched near, when they did.
    public let distanceKilometres: Double?

    public init(gym: Gym, preferences: LogbookPreferences, distanceKilometres: Double? = nil) {
        self.gym = gym
        self.preferences = preferences
        self.distanceKilometres = distanceKilometres
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("id", gym.id)
            json.member("name", gym.name)
            json.key("names")
            Self.writeNames(gym.localizedNames, to: &json)
            json.member("address", gym.address)
            json.member("country", gym.country)
            json.key("location")
            if let latitude = gym.latitude, let longitude = gym.longitude {
                json.object { json in
                    json.member("latitude", latitude)
                    json.member("longitude", longitude)
                }
            } else {
                json.null()
            }
            if let distanceKilometres {
                json.member("distance_km", (distanceKilometres * 100).rounded() / 100)
            }
            json.member("time_zone", gym.timeZone)
            json.member("website", gym.website)
            json.member("boulder_grading", gym.boulderGrading.rawValue)
            json.member("route_grading", gym.routeGrading.rawValue)
            json.key("boulder_levels")
            json.array(gym.boulderLevels) { json, level in writeLevel(level, to: &json) }
            json.key("route_levels")
            json.array(gym.routeLevels) { json, level in writeLevel(level, to: &json) }
            json.member("created_at", utc: gym.createdAt)
            json.member("updated_at", utc: gym.updatedAt)
        }
    }

    private func writeLevel(_ level: GymLevel, to json: inout JSONOutput) {
        json.object { json in
            json.member("position", level.position)
            json.member("colour", level.colour)
            json.member("name", level.name)
            json.key("names")
            Self.writeNames(level.localizedNames, to: &json)
            json.key("grade")
            json.value(GradeBody(text: level.name, scale: nil, colour: level.colour, range: level.range, preferences: preferences))
            json.key("community_grade")
            if let community = level.communityRange {
                json.value(GradeBody(text: GradeTable.name(of: community, in: preferences.scale(community.axis)), scale: preferences.scale(community.axis),
                                     range: community, preferences: preferences))
            } else {
                json.null()
            }
            json.member("community_votes", level.votes)
        }
    }

    static func writeNames(_ names: [String: String], to json: inout JSONOutput) {
        json.object { json in
            for (language, name) in names.sorted(by: { $0.key < $1.key }) {
                json.key(dynamic: language)
                json.string(name)
            }
        }
    }
}

/// A problem on a gym's wall.
public struct ProblemBody: JSONRepresentable {
    public let problem: Problem
    public let gym: Gym?
    public let preferences: LogbookPreferences

    public init(problem: Problem, gym: Gym?, preferences: LogbookPreferences) {
        self.problem = problem
        self.gym = gym
        self.preferences = preferences
    }

    public func write(to json: inout JSONOutput) {
        let level = problem.levelPosition.flatMap { position in gym?.levels(problem.discipline.axis).first { $0.position == position } }
        let scale: GradeScale? = if level == nil, let gym, case let .scale(scale) = gym.grading(problem.discipline.axis) { scale } else { nil }
        json.object { json in
            json.member("id", problem.id)
            json.member("gym_id", problem.gymID)
            json.member("wall", problem.wall)
            json.member("discipline", problem.discipline.rawValue)
            json.member("hold_colour", problem.holdColour)
            json.key("grade")
            json.value(GradeBody(text: problem.grade, scale: scale, colour: level?.colour, range: problem.range, preferences: preferences))
            json.member("name", problem.name)
            json.member("setter", problem.setter)
            json.member("set_on", problem.setOn)
            json.member("expected_removal_on", problem.expectedRemovalOn)
            json.member("removed_on", problem.removedOn)
            json.key("community_grade")
            if let score = problem.communityScore {
                let shownIn = preferences.scale(problem.discipline.axis)
                let name = GradeTable.name(of: score, in: shownIn)
                let range = GradeTable.range(of: name, in: shownIn) ?? GradeRange(axis: problem.discipline.axis, lowest: score, highest: score)
                json.value(GradeBody(text: name, scale: shownIn, range: range, preferences: preferences))
            } else {
                json.null()
            }
            json.member("votes", problem.votes)
        }
    }
}

/// A tick, with its grade as it was and in the caller's scale.
public struct TickBody: JSONRepresentable {
    public let tick: Tick
    public let preferences: LogbookPreferences

    public init(tick: Tick, preferences: LogbookPreferences) {
        self.tick = tick
        self.preferences = preferences
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("id", tick.id)
            json.member("user_id", tick.userID)
            json.member("client_tick_id", tick.clientTickID)
            json.member("kind", tick.kind.rawValue)
            json.member("problem_id", tick.problemID)
            json.member("gym_id", tick.gymID)
            json.member("meetup_id", tick.meetupID)
            json.member("discipline", tick.discipline.rawValue)
            json.key("grade")
            json.value(GradeBody(tick: tick, preferences: preferences))
            json.member("hold_colour", tick.levelPosition == nil ? tick.colour : nil)
            json.member("route_name", tick.routeName)
            json.member("crag", tick.crag)
            json.member("style", tick.style.rawValue)
            json.member("attempts", tick.attempts)
            json.member("climbed_at", utc: tick.climbedAt)
            json.member("climbed_on", tick.climbedOn)
            json.member("note", tick.note)
            json.member("stars", tick.stars)
            json.member("felt_grade", tick.feltGrade)
            json.member("visibility", tick.visibility.rawValue)
            json.member("created_at", utc: tick.createdAt)
            json.member("updated_at", utc: tick.updatedAt)
        }
    }
}

/// The answer to a batch of ticks: one result per tick, in the order sent.
public struct TickBatchBody: JSONRepresentable {
    public let clientTickIDs: [String]
    public let outcomes: [TickBatchOutcome]
    public let preferences: LogbookPreferences

    public init(clientTickIDs: [String], outcomes: [TickBatchOutcome], preferences: LogbookPreferences) {
        self.clientTickIDs = clientTickIDs
        self.outcomes = outcomes
        self.preferences = preferences
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.key("results")
            json.array(zip(clientTickIDs, outcomes)) { json, pair in
                json.object { json in
                    json.member("client_tick_id", pair.0)
                    switch pair.1 {
                    case let .created(tick):
                        json.member("status", "created")
                        json.key("tick")
                        json.value(TickBody(tick: tick, preferences: preferences))
                    case let .duplicate(tick):
                        json.member("status", "duplicate")
                        json.key("tick")
                        json.value(TickBody(tick: tick, preferences: preferences))
                    case let .refused(error):
                        json.member("status", "refused")
                        json.member("error") { json in
                            json.member("reason", error.reason.rawValue)
                            json.member("field", error.field)
                            json.member("message", error.message)
                        }
                    }
                }
            }
        }
    }
}

/// A member's logbook preferences.
public struct LogbookPreferencesBody: JSONRepresentable {
    public let preferences: LogbookPreferences

    public init(preferences: LogbookPreferences) {
        self.preferences = preferences
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("boulder_scale", preferences.boulderScale.rawValue)
            json.member("route_scale", preferences.routeScale.rawValue)
            json.member("default_visibility", preferences.defaultVisibility.rawValue)
            json.member("in_rankings", preferences.inRankings)
        }
    }
}

/// `GET /v1/gyms/{id}/ranking`: each entry with the member's handle and name.
public struct GymRankingBody: JSONRepresentable {
    public let ranking: GymRanking
    public let users: [Int64: User]
    public let preferences: LogbookPreferences

    public init(ranking: GymRanking, users: [Int64: User], preferences: LogbookPreferences) {
        self.ranking = ranking
        self.users = users
        self.preferences = preferences
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("gym_id", ranking.gymID)
            json.member("best", ranking.best)
            json.member("from", ranking.from)
            json.key("items")
            json.array(ranking.entries) { json, entry in
                json.object { json in
                    json.member("rank", entry.rank)
                    json.member("user_id", entry.userID)
                    json.member("handle", users[entry.userID]?.handle ?? "")
                    json.member("display_name", users[entry.userID]?.displayName ?? "")
                    json.member("points", entry.points)
                    json.member("sends", entry.counted.count)
                    json.key("hardest")
                    if let hardest = entry.counted.first {
                        json.value(GradeBody(tick: hardest, preferences: preferences))
                    } else {
                        json.null()
                    }
                    json.member("reached_at", utc: entry.reachedAt)
                }
            }
        }
    }
}

/// `GET /v1/me/logbook/summary`.
public struct LogbookSummaryBody: JSONRepresentable {
    public let summary: LogbookSummary
    public let preferences: LogbookPreferences

    public init(summary: LogbookSummary, preferences: LogbookPreferences) {
        self.summary = summary
        self.preferences = preferences
    }

    private func grade(_ range: GradeRange, colour: String? = nil) -> GradeBody {
        let scale = preferences.scale(range.axis)
        return GradeBody(text: GradeTable.display(range, from: scale, in: scale), scale: scale, colour: colour, range: range, preferences: preferences)
    }

    public func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("from", summary.from)
            json.member("to", summary.to)
            json.member("sessions_per_week", summary.sessionsPerWeek)
            json.key("sessions")
            json.array(summary.sessions) { json, session in
                json.object { json in
                    json.member("day", session.day)
                    json.member("gym_id", session.gymID)
                    json.member("crag", session.crag)
                    json.member("meetup_id", session.meetupID)
                    json.member("sends", session.sends)
                    json.member("flashes", session.flashes)
                    json.member("attempts", session.attempts)
                    json.key("hardest")
                    json.array(session.hardest) { json, range in json.value(grade(range)) }
                }
            }
            json.key("axes")
            json.array(summary.axes) { json, axis in
                json.object { json in
                    json.member("axis", axis.axis.rawValue)
                    json.member("scale", preferences.scale(axis.axis).rawValue)
                    json.key("pyramid")
                    json.array(axis.pyramid) { json, step in
                        json.object { json in
                            json.key("grade")
                            json.value(grade(step.range, colour: step.colour))
                            json.member("sends", step.sends)
                            json.member("flashes", step.flashes)
                        }
                    }
                    json.key("hardest_send")
                    if let tick = axis.hardestSend { json.value(TickBody(tick: tick, preferences: preferences)) } else { json.null() }
                    json.key("hardest_flash")
                    if let tick = axis.hardestFlash { json.value(TickBody(tick: tick, preferences: preferences)) } else { json.null() }
                }
            }
            json.key("personal_bests")
            json.array(summary.personalBests) { json, best in
                json.object { json in
                    json.member("axis", best.axis.rawValue)
                    json.member("kind", best.kind.rawValue)
                    json.key("grade")
                    json.value(grade(best.range))
                    json.member("day", best.day)
                    json.member("tick_id", best.tickID)
                }
            }
        }
    }
}
