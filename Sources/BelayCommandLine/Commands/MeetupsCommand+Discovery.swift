import BelayArguments
import BelayComposition
import BelayCore
import BelayDomain
import Foundation

extension MeetupDiscipline: ExpressibleByArgument {}
extension MeetupTag: ExpressibleByArgument {}
extension MeetupSearch.Sort: ExpressibleByArgument {}

extension MeetupsCommand {
    /// `belay meetups search`: the filters of `GET /v1/meetups`, as the app's search has them.
    struct Search: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "search", abstract: "Find upcoming meetups: near a point, at a gym, on days, by words, at a level.")
        }

        @OptionalOption("near", valueName: "lat,lon", help: "Only meetups within --radius km of this point (degrees).") var near: String?
        @OptionalOption("radius", valueName: "km", help: "With --near: the radius in km (default 25, at most 100).") var radius: Double?
        @OptionalOption("gym", valueName: "id", help: "Only meetups at this gym.") var gym: Int64?
        @OptionalOption("from", valueName: "YYYY-MM-DD", help: "Only meetups starting on or after this day (in each meetup's zone).") var from: String?
        @OptionalOption("to", valueName: "YYYY-MM-DD", help: "Only meetups starting on or before this day.") var to: String?
        @OptionalOption("q", valueName: "words", help: "Words in the title, description, place or gym (any script, two letters or more).") var text: String?
        @OptionalOption("level", valueName: "grade", help: "A grade (V4, 6b+, 5.11a): meetups whose level holds it.") var level: String?
        @OptionalOption("discipline", valueName: "kind", help: "bouldering, lead, top_rope or outdoor.") var discipline: MeetupDiscipline?
        @OptionalOption("tag", valueName: "tag", help: "Only meetups with this tag (see the README's list).") var tag: MeetupTag?
        @Flag("has-spots", help: "Only meetups with places left.") var hasSpots: Bool
        @Option("sort", valueName: "order", default: .startsAt, help: "starts_at, or distance (with --near).") var sort: MeetupSearch.Sort
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            var search = MeetupSearch()
            search.near = try near.map { try GeoPoint(parsing: $0, field: "--near") }
            search.radiusKilometres = radius
            search.gymID = gym
            search.from = try from.map { try Self.day($0, "--from") }
            search.to = try to.map { try Self.day($0, "--to") }
            search.text = text
            search.level = level
            search.discipline = discipline
            search.tag = tag
            search.hasSpots = hasSpots
            search.sort = sort
            var query = MeetupQuery(scope: .upcoming, includeCancelled: false, limit: 200)
            query.search = search
            let meetups = try ClubServices.all { cursor in
                var page = query
                page.cursor = cursor
                return try services.meetups.list(page)
            }
            if json { return context.printJSON(meetups.map(services.body)) }
            let handles = try MeetupsCommand.hostHandles(meetups, services)
            var table = Table(columns: search.near == nil ? ["id", "starts", "title", "place", "host", "going", "level"]
                                                          : ["id", "starts", "title", "place", "host", "going", "level", "km"])
            for meetup in meetups {
                var row = [String(meetup.id), TimeFormatting.local(meetup.startsAt, in: meetup.zone), meetup.title, meetup.placeName,
                           handles[meetup.hostID] ?? String(meetup.hostID), "\(meetup.goingCount)/\(meetup.capacity)",
                           meetup.level.map { "\($0.lowestGrade)–\($0.highestGrade)" } ?? ""]
                if let near = search.near {
                    row.append(meetup.location.map { String(format: "%.1f", near.distanceKilometres(to: $0)) } ?? "")
                }
                table.append(row)
            }
            context.printTable(table, emptyMessage: "No upcoming meetup matches; loosen a filter (a larger --radius, fewer words).")
        }

        static func day(_ text: String, _ option: String) throws -> CalendarDay {
            guard let day = CalendarDay(text) else { throw CommandLineError.usage("\(option) is a day, YYYY-MM-DD (got \"\(text)\")") }
            return day
        }
    }

    /// `belay meetups publish`.
    struct Publish: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "publish", abstract: "Publish a meetup's public page (/m/…) and print its address.")
        }

        @Argument(MeetupsCommand.id) var id: Int64
        @Flag("show-host", help: "Name the host (display name only) on the page.") var showHost: Bool
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let meetup = try services.meetups.publishPage(meetupID: id, showsHost: showHost, by: .commandLine)
            if json { return context.printJSON(services.body(meetup)) }
            context.print(services.presentation.absoluteURL("/m/\(meetup.page?.slug ?? "")"))
            context.note("Published meetup \(meetup.id)'s page; `belay meetups unpublish \(meetup.id)` takes it down (its address then answers 410).")
        }
    }

    /// `belay meetups unpublish`.
    struct Unpublish: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "unpublish", abstract: "Take a meetup's public page down; its address answers 410.")
        }

        @Argument(MeetupsCommand.id) var id: Int64
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let meetup = try services.meetups.unpublishPage(meetupID: id, by: .commandLine)
            if json { return context.printJSON(services.body(meetup)) }
            context.print("\(meetup.id)  unpublished")
            context.note("Meetup \(meetup.id)'s page is down; `belay meetups publish \(meetup.id)` puts it back at the same address.")
        }
    }
}
