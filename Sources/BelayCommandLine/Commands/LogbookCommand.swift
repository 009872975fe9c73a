import Foundation
import BelayArguments
import BelayCore
import BelayDomain
import BelayRepresentations

/// `belay logbook HANDLE`: what a member climbed, newest day first, and the period's summary.
struct LogbookCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "logbook", abstract: "Show what a member climbed: their ticks and the period's summary.",
                             discussion: "The operator sees every tick, private ones included. Example: belay logbook jisoo --from 2026-11-01")
    }

    @Argument(Argument<String>("handle", help: "The member's handle.")) var handle: String
    @OptionalOption("from", valueName: "date", help: "The first day, YYYY-MM-DD (default: the first tick).") var from: String?
    @OptionalOption("to", valueName: "date", help: "The last day, YYYY-MM-DD (default: today in the club's zone).") var to: String?
    @Flag(.json) var json: Bool

    func validate() throws {
        for (option, value) in [("--from", from), ("--to", to)] {
            if let value, CalendarDay(value) == nil { throw CommandLineError.usage("\(option) is a day, YYYY-MM-DD (got '\(value)')") }
        }
    }

    func run(_ context: CommandContext) throws {
        let services = try context.services()
        let member = try services.user(handle)
        let logbook = services.domain.logbook
        let preferences = try logbook.preferences(memberID: member.id)
        let ticks = try ClubServices.all { cursor in
            try logbook.logbook(memberID: member.id, viewerID: member.id, filter: TickFilter(from: from, to: to), limit: 200, cursor: cursor)
        }
        let summary = try logbook.summary(memberID: member.id, viewerID: member.id, from: from, to: to)
        if json {
            return context.printJSON(LogbookSummaryBody(summary: summary, preferences: preferences))
        }
        var table = Table(columns: ["day", "grade", "shown as", "style", "tries", "where", "meetup"])
        for tick in ticks {
            let place = tick.routeName.map { "\($0)\(tick.crag.map { " (\($0))" } ?? "")" } ?? tick.crag ?? tick.gymID.map { "gym \($0)" } ?? "-"
            table.append([tick.climbedOn, tick.grade, GradeTable.display(tick.range, from: tick.gradeScale, in: preferences.scale(tick.range.axis)),
                          tick.style.rawValue, String(tick.attempts), place, tick.meetupID.map(String.init) ?? "-"])
        }
        context.printTable(table, emptyMessage: "\(member.handle) has logged no climbs\(from == nil && to == nil ? "" : " in that period").")
        guard !ticks.isEmpty else { return }
        for axis in summary.axes {
            let scale = preferences.scale(axis.axis)
            let pyramid = axis.pyramid.map { "\(GradeTable.name(of: $0.range, in: scale)) ×\($0.sends + $0.flashes)" }.joined(separator: ", ")
            let hardest = axis.hardestSend.map { GradeTable.display($0.range, from: $0.gradeScale, in: scale) } ?? "-"
            context.note("\(axis.axis.rawValue)s: hardest send \(hardest); \(pyramid)")
        }
        context.note("\(Plural.counted(summary.sessions.count, "session")), \(summary.sessionsPerWeek) a week; \(Plural.counted(summary.personalBests.count, "personal best")).")
    }
}
