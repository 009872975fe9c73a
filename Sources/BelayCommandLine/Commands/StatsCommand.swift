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
        enum Grouping: String, ExpressibleByArgument, CaseIterable { case day, target, meetup }

        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "shares",
                abstract: "Count share events per meetup, target and day.",
                discussion: "Targets: instagram_stories, facebook_stories, share_sheet, other. Days are in the club's time zone.\nCompleted: the app reported success; failed: it reported an error; dismissed: neither (the sheet was closed)."
            )
        }

        @OptionalOption("meetup", valueName: "id", help: "Only shares of rewards from this meetup.") var meetup: Int64?
        @OptionalOption("from", valueName: "time", help: "Only shares at or after this time: a day (2026-12-01, midnight in the club's zone), a local time or RFC 3339.") var from: String?
        @OptionalOption("to", valueName: "time", help: "Only shares before this time, in the same forms.") var to: String?
        @Option("by", valueName: "grouping", default: .day, help: "Rows per meetup, target and day (day), per meetup and target (target), or per meetup (meetup).") var by: Grouping
        @Flag(.json) var json: Bool

        struct Row: Encodable {
            var meetupId: Int64
            var meetupTitle: String
            var target: String?
            var day: String?
            var events: Int, completed: Int, failed: Int, dismissed: Int
        }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let zone = services.configuration.club.zone
            let fromDate = try from.map { try TimeFormatting.parse($0, in: zone, option: "--from", allowDay: true) }
            let toDate = try to.map { try TimeFormatting.parse($0, in: zone, option: "--to", allowDay: true) }
            if let fromDate, let toDate, toDate <= fromDate { throw CommandLineError.usage("--to must be after --from") }
            if let meetup { _ = try services.meetup(meetup) }
            let statistics = try services.shares.statistics(meetupID: meetup, from: fromDate, to: toDate)

            var rows: [Row] = []
            for statistic in statistics {
                let target: String? = by == .meetup ? nil : statistic.target.rawValue
                let day: String? = by == .day ? statistic.day : nil
                if let index = rows.firstIndex(where: { $0.meetupId == statistic.meetupID && $0.target == target && $0.day == day }) {
                    rows[index].events += statistic.events
                    rows[index].completed += statistic.completed
                    rows[index].failed += statistic.failed
                    rows[index].dismissed += statistic.dismissed
                } else {
                    rows.append(Row(meetupId: statistic.meetupID, meetupTitle: statistic.meetupTitle, target: target, day: day,
                                    events: statistic.events, completed: statistic.completed, failed: statistic.failed, dismissed: statistic.dismissed))
                }
            }
            if json { return try context.printJSON(rows) }
            var columns = ["meetup"]
            if by == .day { columns.append("day") }
            if by != .meetup { columns.append("target") }
            var table = Table(columns: columns + ["events", "completed", "failed", "dismissed"])
            for row in rows {
                var cells = ["\(row.meetupId) \(row.meetupTitle)"]
                if let day = row.day { cells.append(day) }
                if let target = row.target { cells.append(target) }
                table.append(cells + [String(row.events), String(row.completed), String(row.failed), String(row.dismissed)])
            }
            context.printTable(table, emptyMessage: "No share events\(meetup.map { " for meetup \($0)" } ?? "") yet.")
            if !rows.isEmpty {
                let total = rows.reduce(0) { $0 + $1.events }, completed = rows.reduce(0) { $0 + $1.completed }
                context.note("\(total) share event\(total == 1 ? "" : "s"), \(completed) completed.")
            }
        }
    }
}
