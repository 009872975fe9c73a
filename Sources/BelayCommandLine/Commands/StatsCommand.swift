import Foundation
import BelayArguments
import BelayDomain

/// `belay stats shares`: where members share their stickers.
struct StatsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "stats", abstract: "Statistics for admins.", subcommands: [Shares.self])
    }

    /// `belay stats shares`.
    struct Shares: ParsableCommand {
        typealias Grouping = ShareStatisticGrouping

        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "shares",
                abstract: "Count share events per meetup, day and target (or per day, target or meetup with --by).",
                discussion: "Targets: instagram_stories, facebook_stories, share_sheet, other. Days are in the club's time zone.\nCompleted: the app reported success; failed: it reported an error; dismissed: neither (the sheet was closed)."
            )
        }

        @OptionalOption("meetup", valueName: "id", help: "Only shares of rewards from this meetup.") var meetup: Int64?
        @OptionalOption("from", valueName: "time", help: "Only shares at or after this time: a day (2026-12-01, midnight in the club's zone), a local time or RFC 3339.") var from: String?
        @OptionalOption("to", valueName: "time", help: "Only shares before this time, in the same forms.") var to: String?
        @OptionalOption("by", valueName: "grouping", help: "One row per day, per target or per meetup, summing the rest (default: a row per meetup, day and target).") var by: Grouping?
        @Flag(.json) var json: Bool

        /// One row of the table: the columns `--by` keeps, and the counts summed over the rest.
        struct Row: Encodable {
            var meetupId: Int64?
            var meetupTitle: String?
            var day: String?
            var target: String?
            var events: Int, completed: Int, failed: Int, dismissed: Int

            init(_ group: ShareStatisticGroup) {
                meetupId = group.meetupID
                meetupTitle = group.meetupTitle
                day = group.day
                target = group.target?.rawValue
                (events, completed, failed, dismissed) = (group.events, group.completed, group.failed, group.dismissed)
            }
        }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let zone = services.configuration.club.zone
            let fromDate = try from.map { try TimeFormatting.parse($0, in: zone, option: "--from", allowDay: true) }
            let toDate = try to.map { try TimeFormatting.parse($0, in: zone, option: "--to", allowDay: true) }
            if let fromDate, let toDate, toDate <= fromDate { throw CommandLineError.usage("--to must be after --from") }
            if let meetup { _ = try services.meetup(meetup) }
            let statistics = try services.shares.statistics(meetupID: meetup, from: fromDate, to: toDate)
            let rows = ShareStatisticGroup.groups(statistics, by: by).map(Row.init)
            let keepsMeetup = by == nil || by == .meetup, keepsDay = by == nil || by == .day, keepsTarget = by == nil || by == .target
            if json { return try context.printJSON(rows) }
            var columns: [String] = []
            if keepsMeetup { columns.append("meetup") }
            if keepsDay { columns.append("day") }
            if keepsTarget { columns.append("target") }
            var table = Table(columns: columns + ["events", "completed", "failed", "dismissed"])
            for row in rows {
                var cells: [String] = []
                if let meetupId = row.meetupId { cells.append("\(meetupId) \(row.meetupTitle ?? "")") }
                if let day = row.day { cells.append(day) }
                if let target = row.target { cells.append(target) }
                table.append(cells + [String(row.events), String(row.completed), String(row.failed), String(row.dismissed)])
            }
            context.printTable(table, emptyMessage: "No share events\(meetup.map { " for meetup \($0)" } ?? "") yet.")
            if !rows.isEmpty {
                let total = rows.reduce(0) { $0 + $1.events }, completed = rows.reduce(0) { $0 + $1.completed }
                context.note("\(Plural.counted(total, "share event")), \(completed) completed.")
            }
        }
    }
}

extension ShareStatisticGrouping: ExpressibleByArgument {}
