import Foundation
import BelayArguments
import BelayCore
import BelayDomain
import BelayRepresentations

/// `belay moderation hide|dismiss|warn|suspend|lift|audit|grant|revoke`: acting on reported
/// subjects, every action written to the append-only log.
struct ModerationCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "moderation", abstract: "Act on reported meetups, members and pages; read the moderation log; name moderators.",
            discussion: """
                Every action needs --reason and closes the subject's open reports; their reporters see the outcome in the app. \
                The command line acts as the operator (the log's moderator is empty). Example: belay moderation hide meetup 42 --reason "Rule 2: spam"
                """,
            subcommands: [Hide.self, Dismiss.self, Warn.self, Suspend.self, Lift.self, Audit.self, Grant.self, Revoke.self])
    }

    /// `subjectID` as the domain takes it: a member named by handle becomes their id.
    static func subjectID(_ type: ReportSubjectType, _ subjectID: String, services: ClubServices) throws -> String {
        guard type == .member, Int64(subjectID) == nil else { return subjectID }
        return String(try services.user(subjectID).id)
    }

    /// Runs one action and prints its log entry.
    static func act(_ action: ModerationActionKind, _ type: ReportSubjectType, _ subjectID: String, reason: String, until: Date? = nil,
                    json: Bool, services: ClubServices, context: CommandContext) throws {
        let id = try Self.subjectID(type, subjectID, services: services)
        let logged = try services.domain.moderation.act(ModerationRequest(action: action, subjectType: type, subjectID: id, reason: reason, until: until),
                                                        by: .commandLine)
        if json { return context.printJSON(ModerationActionBody(action: logged)) }
        context.print(String(logged.id))
        let closed = logged.reportIDs.isEmpty ? "no open reports" : Plural.counted(logged.reportIDs.count, "report")
        context.note("\(action.rawValue) on \(type.rawValue) \(id) logged as entry \(logged.id); closed \(closed).")
    }

    /// The subject and reason every action takes.
    struct Subject: ArgumentGroup {
        @Argument("subject-type", help: "meetup, member, share_page or meetup_page.") var type: ReportSubjectType
        @Argument("subject-id", help: "The meetup's or member's id (a member's handle works too), or the share page's slug.") var id: String
        @Option("reason", valueName: "text", help: "Why, for the log (and the member, for warn and suspend).") var reason: String
        @Flag(.json) var json: Bool
    }

    /// `belay moderation hide`.
    struct Hide: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "hide", abstract: "Hide a meetup or page (it leaves lists, its page answers 410), or replace a member's name.")
        }
        let subject = Subject()
        func run(_ context: CommandContext) throws {
            try ModerationCommand.act(.hide, subject.type, subject.id, reason: subject.reason, json: subject.json, services: try context.services(), context: context)
        }
    }

    /// `belay moderation dismiss`.
    struct Dismiss: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "dismiss", abstract: "Close a subject's open reports without acting on it.")
        }
        let subject = Subject()
        func run(_ context: CommandContext) throws {
            try ModerationCommand.act(.dismiss, subject.type, subject.id, reason: subject.reason, json: subject.json, services: try context.services(), context: context)
        }
    }

    /// `belay moderation warn`.
    struct Warn: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "warn", abstract: "Record a warning for the member behind a subject.")
        }
        let subject = Subject()
        func run(_ context: CommandContext) throws {
            try ModerationCommand.act(.warn, subject.type, subject.id, reason: subject.reason, json: subject.json, services: try context.services(), context: context)
        }
    }

    /// `belay moderation suspend`.
    struct Suspend: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "suspend", abstract: "Suspend the member behind a subject: no sign-in, sessions and tokens end, their upcoming meetups are cancelled.",
                                 discussion: "Example: belay moderation suspend member jisoo --reason \"Rule 1: harassment\" --until \"2027-01-05 00:00\"")
        }
        let subject = Subject()
        @OptionalOption("until", valueName: "time", help: "When the suspension ends: \(MeetupsCommand.timeHelp) Leave out to suspend for good.") var until: String?
        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let end = try until.map { try TimeFormatting.parse($0, in: services.configuration.club.zone, option: "--until", allowDay: true) }
            try ModerationCommand.act(.suspend, subject.type, subject.id, reason: subject.reason, until: end, json: subject.json, services: services, context: context)
        }
    }

    /// `belay moderation lift`.
    struct Lift: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "lift", abstract: "End a member's suspension, or show a hidden meetup or page again.")
        }
        let subject = Subject()
        func run(_ context: CommandContext) throws {
            try ModerationCommand.act(.lift, subject.type, subject.id, reason: subject.reason, json: subject.json, services: try context.services(), context: context)
        }
    }

    /// `belay moderation audit`.
    struct Audit: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "audit", abstract: "Print the moderation log, newest first.")
        }
        @Option("limit", valueName: "count", default: 50, help: "How many entries (1 to 200).") var limit: Int
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            guard (1...200).contains(limit) else { throw CommandLineError.usage("--limit must be 1 to 200 (got \(limit)).") }
            let entries = try services.domain.moderation.audit(limit: limit, by: .commandLine).items
            if json { return context.printJSON(entries.map(ModerationActionBody.init)) }
            var table = Table(columns: ["id", "when", "moderator", "action", "subject", "reports", "reason"])
            for entry in entries {
                table.append([String(entry.id), TimeFormatting.local(entry.createdAt, in: services.configuration.club.zone),
                              entry.moderatorID.map(String.init) ?? (entry.action == .autoHide ? "belay" : "operator"), entry.action.rawValue,
                              "\(entry.subjectType.rawValue) \(entry.subjectID)", entry.reportIDs.map(String.init).joined(separator: ","), entry.reason])
            }
            context.printTable(table, emptyMessage: "The moderation log is empty.")
        }
    }

    /// `belay moderation grant`.
    struct Grant: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "grant", abstract: "Make a member a moderator (admins always are).")
        }
        @Argument("handle", help: "The member's handle.") var handle: String
        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let user = try services.user(handle)
            try services.domain.moderation.setModerator(userID: user.id, true)
            context.note("\(user.handle) is a moderator: they work the report queue in the app (GET /v1/moderation/reports).")
        }
    }

    /// `belay moderation revoke`.
    struct Revoke: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "revoke", abstract: "Make a moderator a member again.")
        }
        @Argument("handle", help: "The member's handle.") var handle: String
        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let user = try services.user(handle)
            try services.domain.moderation.setModerator(userID: user.id, false)
            context.note("\(user.handle) no longer moderates.")
        }
    }
}
