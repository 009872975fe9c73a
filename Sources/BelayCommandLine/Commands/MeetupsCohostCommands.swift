import Foundation
import BelayArguments
import BelayDomain
import BelayRepresentations

extension MeetupsCommand {
    static let cohostHandle = Argument<String>("handle", help: "The co-host's handle (a host or admin).")

    /// The co-hosts as a table, or `--json`.
    static func printCohosts(_ ids: [Int64], meetupID: Int64, services: ClubServices, json: Bool, _ context: CommandContext) throws {
        let users = try ids.map { try services.users.user(id: $0) }
        if json {
            return context.printJSON(users.map(CohostBody.init))
        }
        var table = Table(columns: ["id", "handle", "name", "role"])
        for user in users { table.append([String(user.id), user.handle, user.displayName, user.role.rawValue]) }
        context.printTable(table, emptyMessage: "Meetup \(meetupID) has no co-hosts. Add one with `belay meetups add-cohost \(meetupID) HANDLE`.")
    }

    /// `belay meetups cohosts`.
    struct Cohosts: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "cohosts", abstract: "List a meetup's co-hosts (they have the host's rights on it).")
        }

        @Argument(MeetupsCommand.id) var meetupID: Int64
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            _ = try services.meetup(meetupID)
            try MeetupsCommand.printCohosts(try services.meetups.cohosts(meetupID: meetupID), meetupID: meetupID, services: services,
                                            json: json, context)
        }
    }

    /// `belay meetups add-cohost`.
    struct AddCohost: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "add-cohost", abstract: "Give a host the host's rights on a meetup: its attendees, check-ins, code and changes.")
        }

        @Argument(MeetupsCommand.id) var meetupID: Int64
        @Argument(MeetupsCommand.cohostHandle) var handle: String
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            _ = try services.meetup(meetupID)
            let user = try services.user(handle)
            let ids = try services.meetups.addCohost(meetupID: meetupID, userID: user.id, by: .commandLine)
            try MeetupsCommand.printCohosts(ids, meetupID: meetupID, services: services, json: json, context)
            context.note("\(user.handle) co-hosts meetup \(meetupID).")
        }
    }

    /// `belay meetups remove-cohost`.
    struct RemoveCohost: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "remove-cohost", abstract: "Take a co-host's rights on a meetup away.")
        }

        @Argument(MeetupsCommand.id) var meetupID: Int64
        @Argument(MeetupsCommand.cohostHandle) var handle: String
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            _ = try services.meetup(meetupID)
            let user = try services.user(handle)
            let ids = try services.meetups.removeCohost(meetupID: meetupID, userID: user.id, by: .commandLine)
            try MeetupsCommand.printCohosts(ids, meetupID: meetupID, services: services, json: json, context)
            context.note("\(user.handle) no longer co-hosts meetup \(meetupID).")
        }
    }
}
