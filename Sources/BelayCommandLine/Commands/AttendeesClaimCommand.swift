import Foundation
import BelayArguments
import BelayDomain

extension AttendeesCommand {
    /// `belay attendees claim`.
    struct Claim: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "claim",
                abstract: "Claim the place a waitlisted member was offered, for them: they are going.",
                discussion: "With waitlist.claim_minutes set, a freed place is offered to the first waitlisted member for that long. To decline it, remove the member with `belay attendees remove`."
            )
        }

        @Argument(AttendeesCommand.meetup) var meetupID: Int64
        @Argument(AttendeesCommand.member) var handle: String
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            _ = try services.meetup(meetupID)
            let user = try services.user(handle)
            let attendance = try services.attendance.claim(meetupID: meetupID, memberID: user.id, by: .commandLine)
            if json { return context.printJSON(services.body(attendance, of: user)) }
            var table = Table(columns: ["handle", "status"])
            table.append([user.handle, AttendeesCommand.describe(attendance)])
            context.printTable(table)
            context.note("\(user.handle) claimed their place at meetup \(meetupID).")
        }
    }
}
