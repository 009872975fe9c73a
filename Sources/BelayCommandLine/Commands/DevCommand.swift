import BelayCore
import Foundation
import BelayArguments
import BelayDomain

/// `belay dev …`: tools for development and benchmarks, never for a live club's data.
struct DevCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "dev", abstract: "Tools for development and benchmarks (not for a live club's database).",
                             subcommands: [SeedHistory.self, SeedBench.self, SeedLogbook.self])
    }

    /// `belay dev seed-history`: historical meetups with checked-in members.
    struct SeedHistory: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "seed-history",
                abstract: "Create past meetups where every member checked in, as an import of old attendance would.",
                discussion: """
                Goes through the same rules as live check-ins (joins, then a host check-in inside each window), with the
                clock set to when each meetup happened. Run it before `belay holds import` and the check-ins get no
                rewards, like attendance imported before the catalogue existed; `belay backfill` then awards them.
                Example (the benchmark's data): belay dev seed-history --meetups 40 --members 50
                """
            )
        }

        @Option("meetups", valueName: "n", default: 40, help: "Meetups to create, a week apart.") var meetups: Int
        @Option("members", valueName: "n", default: 50, help: "Members, each checked in at every meetup.") var members: Int
        @OptionalOption("start", valueName: "day", help: "The first meetup's day (default: a year before now); meetups start at 19:00 in the club's zone.") var start: String?
        @Flag(.json) var json: Bool

        func validate() throws {
            guard (1...10_000).contains(meetups) else { throw CommandLineError.usage("--meetups must be 1–10000 (got \(meetups))") }
            guard (1...10_000).contains(members) else { throw CommandLineError.usage("--members must be 1–10000 (got \(members))") }
        }

        struct Report: Encodable {
            var meetups: Int
            var members: Int
            var checkIns: Int
            var rewardsGiven: Int
            var firstMeetupId: Int64
            var lastMeetupId: Int64
        }

        static let places = ["더클라임 강남점", "Seoul Forest Gym", "클라이밍파크 종로 🧗", "Bukhansan Insubong",
                             "더클라임 신림점", "Climbing Lab Hongdae", "피커스 구로", "Boulder Planet ✨"]

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let zone = services.configuration.club.zone
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let firstDay = try start.map { try TimeFormatting.parse($0, in: zone, option: "--start", allowDay: true) }
                ?? calendar.date(byAdding: .year, value: -1, to: context.now())!
            let firstStart = calendar.date(bySettingHour: 19, minute: 0, second: 0, of: firstDay)!
            guard calendar.date(byAdding: .day, value: 7 * (meetups - 1) + 1, to: firstStart)! < context.now() else {
                throw CommandLineError.usage("--start: the last of \(meetups) weekly meetups would not be over yet; start earlier")
            }

            let clock = ManualTimeSource(firstStart.addingTimeInterval(-86_400))
            let domain = try DomainServices(pool: services.domain.pool, clock: clock, settings: try DomainSettings(configuration: services.configuration))
            let tag = String(UInt32.random(in: 0 ... .max), radix: 36)
            let host = try domain.users.createUser(NewUser(handle: "seed-host-\(tag)", displayName: "Seed Host", role: .host))
            let people = try (0..<members).map { index in
                try domain.users.createUser(NewUser(handle: "seed-\(tag)-\(index + 1)", displayName: "Climber \(index + 1)"))
            }
            var report = Report(meetups: meetups, members: members, checkIns: 0, rewardsGiven: 0, firstMeetupId: 0, lastMeetupId: 0)
            let hostActor = Actor.user(host.id, role: .host)
            for index in 0..<meetups {
                let startsAt = calendar.date(byAdding: .day, value: 7 * index, to: firstStart)!
                clock.set(startsAt.addingTimeInterval(-86_400))
                let meetup = try domain.meetups.create(
                    NewMeetup(title: "Evening session \(index + 1)", placeName: Self.places[index % Self.places.count],
                              startsAt: startsAt, endsAt: startsAt.addingTimeInterval(3 * 3_600), timeZone: zone.identifier,
                              capacity: max(members, 1), hostID: host.id),
                    by: hostActor)
                for person in people {
                    _ = try domain.attendance.join(meetupID: meetup.id, memberID: person.id, by: .user(person.id, role: .member))
                }
                clock.set(startsAt.addingTimeInterval(15 * 60))
                for person in people {
                    let result = try domain.checkIns.checkIn(CheckInRequest(meetupID: meetup.id, memberID: person.id, proof: .host),
                                                             by: hostActor)
                    report.checkIns += 1
                    if result.reward != nil { report.rewardsGiven += 1 }
                }
                if index == 0 { report.firstMeetupId = meetup.id }
                report.lastMeetupId = meetup.id
            }
            if json { return try context.printJSON(report) }
            context.print("\(Plural.counted(report.checkIns, "check-in")) at \(Plural.counted(meetups, "meetup")) (\(report.firstMeetupId)–\(report.lastMeetupId)) by \(Plural.counted(members, "member"))")
            context.note(report.rewardsGiven == 0
                ? "No rewards were given (no catalogue yet). Import it with `belay holds import`, then run `belay backfill`."
                : "\(report.rewardsGiven) rewards were given at check-in (the catalogue is loaded); `belay backfill` renders them.")
        }
    }
}
