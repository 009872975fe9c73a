import Foundation
import BelayArguments
import BelayDomain

/// `belay calendar rotate-secret`: the secret members' calendar feed URLs are made with.
struct CalendarCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "calendar", abstract: "Manage members' private calendar feeds.",
                             subcommands: [RotateSecret.self])
    }

    /// `belay calendar rotate-secret`.
    struct RotateSecret: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "rotate-secret",
                abstract: "Make a new feed secret: every member's calendar URL changes at once.",
                discussion: "Use it when a backup or a copy of the database (which holds the secret) went astray. Every subscribed calendar stops updating; members find their new URL in the app (GET /v1/me, calendar_url) and subscribe again.")
        }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            try services.domain.calendar.rotateSecret()
            context.print("rotated")
            context.note("Every member's calendar feed URL has changed; the old ones answer 404 from now on. Members subscribe again with the calendar_url of GET /v1/me.")
        }
    }
}
