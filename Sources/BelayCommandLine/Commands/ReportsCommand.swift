import Foundation
import BelayArguments
import BelayCore
import BelayDomain
import BelayRepresentations

/// `belay reports list|show`: the moderators' queue of reported meetups, members and pages.
struct ReportsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "reports", abstract: "See what members reported, grouped by what they reported.",
            discussion: "Act on a subject with `belay moderation`. Reporters are never shown. Moderators do the same in the app (GET /v1/moderation/reports).",
            subcommands: [List.self, Show.self])
    }

    /// `belay reports list`.
    struct List: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "list", abstract: "List subjects with open reports, the longest waiting first.")
        }

        @Option("limit", valueName: "count", default: 50, help: "How many subjects at most (1 to 200).") var limit: Int
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            guard (1...200).contains(limit) else { throw CommandLineError.usage("--limit must be 1 to 200 (got \(limit)).") }
            let subjects = try services.domain.moderation.queue(limit: limit, by: .commandLine)
            if json { return context.printJSON(subjects.map(ReportedSubjectBody.init)) }
            var table = Table(columns: ["subject", "reports", "reasons", "first reported", "hidden"])
            for subject in subjects {
                let reasons = subject.reasons.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
                table.append(["\(subject.subjectType.rawValue) \(subject.subjectID)", String(subject.reports.count), reasons,
                              subject.firstReportedAt.map { TimeFormatting.local($0, in: services.configuration.club.zone) } ?? "",
                              subject.hidden ? "yes" : "no"])
            }
            context.printTable(table, emptyMessage: "No open reports.")
        }
    }

    /// `belay reports show`.
    struct Show: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "show", abstract: "Show a subject as first reported, and its open reports.",
                                 discussion: "Example: belay reports show meetup 42")
        }

        @Argument("subject-type", help: "meetup, member, share_page or meetup_page.") var subjectType: ReportSubjectType
        @Argument("subject-id", help: "The meetup's or member's id (a member's handle works too), or the share page's slug.") var subjectID: String
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let id = try ModerationCommand.subjectID(subjectType, subjectID, services: services)
            let subject = try services.domain.moderation.subject(subjectType, id, by: .commandLine)
            if json { return context.printJSON(ReportedSubjectBody(subject: subject)) }
            context.print("\(subject.subjectType.rawValue) \(subject.subjectID)\(subject.hidden ? " (hidden)" : "")")
            if let userID = subject.subjectUserID { context.print("member: \(userID)") }
            context.print("as first reported: \(subject.snapshot)")
            var table = Table(columns: ["report", "reason", "filed", "note"])
            for report in subject.reports {
                table.append([String(report.id), report.reason.rawValue, TimeFormatting.local(report.createdAt, in: services.configuration.club.zone),
                              report.note])
            }
            context.printTable(table, emptyMessage: "No open reports.")
        }
    }
}

extension ReportSubjectType: ExpressibleByArgument {}
