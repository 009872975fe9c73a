import Foundation
import BelayArguments
import BelayDomain
import BelayRepresentations

extension MeetupsCommand {
    /// `belay meetups kiosk`.
    struct Kiosk: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "kiosk",
                abstract: "Make a link to the front-desk check-in screen (a rotating QR code and the count), or --revoke them.",
                discussion: """
                Open the link on the front desk tablet: it shows the meetup, the current check-in code as a QR code and \
                six digits, and how many have checked in, and moves on by itself. It works until the check-in window \
                closes; anyone with it sees the code, so revoke it (every link of the meetup at once) if it leaks.
                Example: belay meetups kiosk 3
                """
            )
        }

        @Argument(MeetupsCommand.id) var id: Int64
        @Flag("revoke", help: "Turn off every kiosk link of the meetup instead; their screens say so at once.") var revoke: Bool
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let meetup = try services.meetup(id)
            if revoke {
                let count = try services.domain.kiosks.revokeLinks(meetupID: id, by: .commandLine)
                if json { return context.printJSON(KioskRevocationBody(meetupID: id, revoked: count)) }
                context.print("\(id)  \(Plural.counted(count, "kiosk link")) revoked")
                return
            }
            let link = try services.domain.kiosks.createLink(meetupID: id, by: .commandLine)
            let body = KioskLinkBody(link: link, presentation: services.presentation)
            if json { return context.printJSON(body) }
            context.print(body.url)
            context.note("Put this link on the front desk tablet: it works until check-in closes at \(TimeFormatting.local(link.validUntil, in: meetup.zone)) (\(meetup.timeZone)). `belay meetups kiosk \(id) --revoke` turns it off.")
        }
    }
}
