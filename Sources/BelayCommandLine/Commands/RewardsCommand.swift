import Foundation
import BelayArguments
import BelayDomain

/// `belay rewards list|award`: the holds members earned.
struct RewardsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "rewards", abstract: "See the holds members earned; award missing ones.",
                             subcommands: [List.self, Award.self])
    }

    /// `belay rewards list`.
    struct List: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "list", abstract: "List rewards of a member or a meetup, newest first.",
                                 discussion: "Give --member, --meetup, or both.")
        }

        @OptionalOption("member", valueName: "handle", help: "Rewards of this member.") var member: String?
        @OptionalOption("meetup", valueName: "id", help: "Rewards given at this meetup.") var meetup: Int64?
        @Flag("revoked", help: "Also list rewards revoked by an undone check-in.") var revoked: Bool
        @Flag(.json) var json: Bool

        func validate() throws {
            if member == nil && meetup == nil { throw CommandLineError.usage("give --member <handle>, --meetup <id>, or both") }
        }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            var members: [(id: Int64, handle: String)] = []
            if let member {
                let user = try services.user(member)
                members = [(user.id, user.handle)]
            } else if let meetup {
                _ = try services.meetup(meetup)
                members = try ClubServices.all { try services.attendance.attendees(meetupID: meetup, limit: 500, cursor: $0) }
                    .map { ($0.attendance.memberID, $0.handle) }
            }
            var rewards: [(reward: Reward, handle: String)] = []
            for (id, handle) in members {
                let all = try ClubServices.all { try services.rewards.rewards(memberID: id, includeRevoked: revoked, limit: 200, cursor: $0) }
                rewards += all.filter { meetup == nil || $0.meetupID == meetup }.map { ($0, handle) }
            }
            rewards.sort { ($0.reward.awardedAt, $0.reward.id) > ($1.reward.awardedAt, $1.reward.id) }
            if json { return context.printJSON(rewards.map { services.body($0.reward) }) }
            let zone = services.configuration.club.zone
            var table = Table(columns: ["id", "member", "meetup", "hold", "rarity", "awarded", "images"])
            for (reward, handle) in rewards {
                let kind = reward.kindLabel
                var images = reward.renderStatus.rawValue
                if let reason = reward.failureReason, reward.renderStatus == .failed { images += ": \(reason)" }
                if reward.revokedAt != nil { images = "revoked" }
                table.append([String(reward.id), handle, "\(reward.meetupID) \(reward.meetupTitle)", "\(reward.hold.name) (\(reward.hold.id))",
                              kind, TimeFormatting.local(reward.awardedAt, in: zone), images])
            }
            context.printTable(table, emptyMessage: "No rewards yet: members earn one when they check in.")
        }
    }

    /// `belay rewards award`.
    struct Award: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "award",
                abstract: "Award holds to check-ins that have none (e.g. made before the catalogue was imported).",
                discussion: "Uses the same deterministic pick as a live check-in; safe to repeat."
            )
        }

        @OptionalOption("meetup", valueName: "id", help: "Only check-ins at this meetup.") var meetup: Int64?
        @Flag(.json) var json: Bool

        struct Output: Encodable { var awarded: [Int64]; var skippedWithoutCatalog: Int }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            if let meetup { _ = try services.meetup(meetup) }
            var awarded: [Int64] = []
            var skipped = 0
            var report: AwardReport
            repeat {
                report = try services.rewards.awardMissingRewards(meetupID: meetup, limit: 10_000)
                awarded += report.awarded
                skipped = report.skippedWithoutCatalog
            } while report.hasMore && !report.awarded.isEmpty
            if json { return try context.printJSON(Output(awarded: awarded, skippedWithoutCatalog: skipped)) }
            for id in awarded { context.print(String(id)) }
            context.note("Awarded \(Plural.counted(awarded.count, "reward")).")
            if skipped > 0 { context.note("\(Plural.counted(skipped, "check-in")) still lack a reward: import the catalogue with `belay holds import`, then run this again.") }
        }
    }
}
