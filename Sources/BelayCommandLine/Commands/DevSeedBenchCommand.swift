import Foundation
import Synchronization
import BelayArguments
import BelayComposition
import BelayDomain

extension DevCommand {
    /// `belay dev seed-bench`: what `bench/http` measures against: members with tokens who are
    /// going to meetups happening now, and a page's worth of upcoming meetups.
    struct SeedBench: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "seed-bench",
                abstract: "Create members with tokens going to meetups happening now, for the HTTP benchmark.",
                discussion: """
                The meetups started five minutes ago and last three hours, so their check-in windows are open.
                Prints the host's token, the meetups' ids and the other numbers bench/http needs, as JSON with --json.
                With --console-meetups, the host also gets that many upcoming meetups (the first with --console-going
                members going) and a console session, whose cookie and form token are printed.
                Example: belay dev seed-bench --members 60000 --tokens /tmp/tokens.txt --json
                Example: belay dev seed-bench --members 1000 --tokens /tmp/tokens.txt --member-ids /tmp/ids.txt --console-meetups 200 --json
                """
            )
        }

        @Option("members", valueName: "n", default: 1_000, help: "Members to create, each with a token and going to one meetup happening now.") var members: Int
        @Option("capacity", valueName: "n", default: 10_000, help: "Members per meetup; more members spread over more meetups.") var capacity: Int
        @Option("upcoming", valueName: "n", default: 60, help: "Extra upcoming meetups for the list endpoint.") var listed: Int
        @Option("feed-meetups", valueName: "n", default: 0, help: "Upcoming meetups one more member goes to, for the calendar feed (at most the feed's limit, 500).") var feedMeetups: Int
        @Option("gyms", valueName: "n", default: 0, help: "Gyms across Korea and Japan for the search rows (with --discovery-meetups).") var gyms: Int
        @Option("discovery-meetups", valueName: "n", default: 0, help: "Meetups at those gyms over two years, a year past and a year to come, for the search rows.") var discoveryMeetups: Int
        @Option("tokens", valueName: "file", help: "Where to write one line per member: <token> <meetup id>.") var tokens: String
        @OptionalOption("member-ids", valueName: "file", help: "Where to write one line per member, in the --tokens file's order: <meetup id> <user id>.") var memberIDs: String?
        @Option("console-meetups", valueName: "n", default: 0, help: "Upcoming meetups of the host for the console's dashboard, and a console session for the host.") var consoleMeetups: Int
        @Option("console-going", valueName: "n", default: 300, help: "Members going to the first of the --console-meetups (its door list).") var consoleGoing: Int
        @Flag(.json) var json: Bool

        func validate() throws {
            guard (1...1_000_000).contains(members) else { throw CommandLineError.usage("--members must be 1–1000000 (got \(members))") }
            guard (1...10_000).contains(capacity) else { throw CommandLineError.usage("--capacity must be 1–10000 (got \(capacity))") }
            guard (0...10_000).contains(listed) else { throw CommandLineError.usage("--upcoming must be 0–10000 (got \(listed))") }
            guard (0...CalendarService.feedLimit).contains(feedMeetups) else {
                throw CommandLineError.usage("--feed-meetups must be 0–\(CalendarService.feedLimit) (got \(feedMeetups))")
            }
            guard (0...100_000).contains(gyms) else { throw CommandLineError.usage("--gyms must be 0–100000 (got \(gyms))") }
            guard (0...1_000_000).contains(discoveryMeetups) else { throw CommandLineError.usage("--discovery-meetups must be 0–1000000 (got \(discoveryMeetups))") }
            guard (0...10_000).contains(consoleMeetups) else { throw CommandLineError.usage("--console-meetups must be 0–10000 (got \(consoleMeetups))") }
            guard (1...10_000).contains(consoleGoing) else { throw CommandLineError.usage("--console-going must be 1–10000 (got \(consoleGoing))") }
            guard (gyms == 0) == (discoveryMeetups == 0) else {
                throw CommandLineError.usage("--gyms and --discovery-meetups go together: give both (e.g. --gyms 2000 --discovery-meetups 100000) or neither")
            }
        }

        struct Report: Encodable {
            var hostToken: String
            var memberToken: String
            var checkInMeetupIds: [Int64]
            var firstUpcomingMeetupId: Int64?
            var members: Int
            var tokensFile: String
            /// The path of the calendar feed of the member going to `--feed-meetups` meetups.
            var calendarFeedPath: String?
            /// What the search rows ask for, with `--gyms` and `--discovery-meetups`.
            var discovery: DiscoveryBenchSeed.Report?
            /// The host's console session and pages, with `--console-meetups`.
            var console: ConsoleReport?
        }

        /// What the console rows need: the host's session cookie (`Cookie` header) and form
        /// token, and the meetup whose door list has `--console-going` members.
        struct ConsoleReport: Encodable {
            var cookie: String
            var formToken: String
            var doorListMeetupId: Int64
            var going: Int
            var meetups: Int
        }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let domain = services.domain
            let zone = services.configuration.club.zone
            let tag = String(UInt32.random(in: 0 ... .max), radix: 36)
            let hostEmail = "bench-host-\(tag)@bench.example"
            let host = try domain.users.createUser(NewUser(handle: "bench-host-\(tag)", displayName: "Bench Host", email: hostEmail, role: .host))
            let hostActor = Actor.user(host.id, role: .host)
            let now = context.now()

            let meetupCount = (members + capacity - 1) / capacity
            let meetups = try (0..<meetupCount).map { index in
                try domain.meetups.create(NewMeetup(title: "Benchmark session \(index + 1)", placeName: "Bench Gym \(index + 1)",
                                                    startsAt: now.addingTimeInterval(-300), endsAt: now.addingTimeInterval(3 * 3_600),
                                                    timeZone: zone.identifier, capacity: capacity, hostID: host.id), by: hostActor)
            }
            var firstUpcoming: Int64?
            for index in 0..<listed {
                let start = now.addingTimeInterval(Double(index + 1) * 86_400)
                let meetup = try domain.meetups.create(NewMeetup(title: "Upcoming session \(index + 1)", description: "Bring chalk.",
                                                                 placeName: "더클라임 강남점", address: "Seoul", startsAt: start,
                                                                 endsAt: start.addingTimeInterval(10_800), timeZone: zone.identifier,
                                                                 capacity: 20, hostID: host.id), by: hostActor)
                if firstUpcoming == nil { firstUpcoming = meetup.id }
            }

            // One member going to many meetups after the listed ones, whose calendar feed is measured.
            var calendarFeedPath: String?
            if feedMeetups > 0 {
                let person = try domain.users.createUser(NewUser(handle: "bench-feed-\(tag)", displayName: "Calendar Climber"))
                for index in 0..<feedMeetups {
                    let start = now.addingTimeInterval(Double(listed + index + 1) * 86_400)
                    let meetup = try domain.meetups.create(NewMeetup(title: "Calendar session \(index + 1)", description: "Bring chalk.",
                                                                     placeName: "더클라임 강남점", address: "Seoul", startsAt: start,
                                                                     endsAt: start.addingTimeInterval(10_800), timeZone: zone.identifier,
                                                                     capacity: 20, hostID: host.id), by: hostActor)
                    _ = try domain.attendance.join(meetupID: meetup.id, memberID: person.id, by: .user(person.id, role: .member))
                }
                calendarFeedPath = "/v1/calendar/\(try domain.calendar.feedToken(memberID: person.id)).ics"
            }

            var console: ConsoleReport?
            if consoleMeetups > 0 {
                console = try seedConsole(domain: domain, host: host.id, email: hostEmail, zone: zone, now: now, tag: tag)
            }

            var discovery: DiscoveryBenchSeed.Report?
            if discoveryMeetups > 0 {
                let admin = try domain.users.createUser(NewUser(handle: "bench-admin-\(tag)", displayName: "Bench Admin", role: .admin))
                let hosts = try (0..<200).map { index in
                    try domain.users.createUser(NewUser(handle: "bench-host-\(tag)-\(index + 1)", displayName: "Host \(index + 1)", role: .host)).id
                }
                discovery = try DiscoveryBenchSeed(domain: domain, gymCount: gyms, meetupCount: discoveryMeetups, now: now)
                    .run(admin: .user(admin.id, role: .admin), hosts: hosts) { count, make in
                        try Self.concurrently(count: count, threads: Self.seedingThreads, make)
                    }
            }

            let path = context.absolutePath(tokens)
            guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
                throw CommandLineError.failure("Cannot write \(path); choose a writable --tokens file.")
            }
            defer { try? file.close() }
            // Members are created by several threads at once: on PostgreSQL each creation waits for
            // its round trips, so one thread would take minutes for the benchmark's 100,000.
            let seeded = try Self.concurrently(count: members, threads: Self.seedingThreads) { index in
                let meetup = meetups[index / capacity]
                let person = try domain.users.createUser(NewUser(handle: "bench-\(tag)-\(index + 1)", displayName: "Climber \(index + 1)"))
                let token = try domain.users.issueToken(userID: person.id, label: "bench").secret
                _ = try domain.attendance.join(meetupID: meetup.id, memberID: person.id, by: .user(person.id, role: .member))
                return (token: token, meetupID: meetup.id, userID: person.id)
            }
            let firstToken = seeded.first?.token ?? ""
            var buffer = ""
            for member in seeded {
                buffer += "\(member.token) \(member.meetupID)\n"
                if buffer.utf8.count > 64 * 1024 {
                    try file.write(contentsOf: Data(buffer.utf8))
                    buffer = ""
                }
            }
            try file.write(contentsOf: Data(buffer.utf8))
            if let memberIDs {
                let idsPath = context.absolutePath(memberIDs)
                let lines = seeded.map { "\($0.meetupID) \($0.userID)\n" }.joined()
                guard FileManager.default.createFile(atPath: idsPath, contents: Data(lines.utf8)) else {
                    throw CommandLineError.failure("Cannot write \(idsPath); choose a writable --member-ids file.")
                }
            }

            let report = Report(hostToken: try domain.users.issueToken(userID: host.id, label: "bench").secret, memberToken: firstToken,
                                checkInMeetupIds: meetups.map(\.id), firstUpcomingMeetupId: firstUpcoming, members: members,
                                tokensFile: path, calendarFeedPath: calendarFeedPath, discovery: discovery, console: console)
            if json { return try context.printJSON(report) }
            context.print("\(members) members going to meetups \(meetups.map { String($0.id) }.joined(separator: ", ")); tokens in \(path)")
            context.print("host token: \(report.hostToken)")
            if let console {
                context.print("console: door list /console/meetups/\(console.doorListMeetupId) (\(console.going) going), \(console.meetups) upcoming meetups")
                context.print("console cookie: \(console.cookie)")
                context.print("console form token: \(console.formToken)")
            }
        }

        /// The host's upcoming meetups for the console's dashboard, the first with
        /// `consoleGoing` members going (its door list), and a console session for the host,
        /// signed in by email as the console's sign-in would.
        private func seedConsole(domain: DomainServices, host: Int64, email: String, zone: TimeZone, now: Date, tag: String) throws -> ConsoleReport {
            let hostActor = Actor.user(host, role: .host)
            let meetups = try (0..<consoleMeetups).map { index in
                let start = now.addingTimeInterval(Double(index + 2) * 86_400 + 3_600)
                return try domain.meetups.create(NewMeetup(title: "저녁 볼더링 \(index + 1)", description: "Bring chalk.",
                                                           placeName: "더클라임 신림점", address: "Seoul", startsAt: start,
                                                           endsAt: start.addingTimeInterval(10_800), timeZone: zone.identifier,
                                                           capacity: index == 0 ? consoleGoing : 24, hostID: host), by: hostActor)
            }
            let door = meetups[0]
            _ = try Self.concurrently(count: consoleGoing, threads: Self.seedingThreads) { index in
                let person = try domain.users.createUser(NewUser(handle: "bench-door-\(tag)-\(index + 1)", displayName: "클라이머 \(index + 1)"))
                _ = try domain.attendance.join(meetupID: door.id, memberID: person.id, by: .user(person.id, role: .member))
                return person.id
            }
            let grant = try domain.accounts.signIn(ProvenIdentity(method: .email, subject: email, email: email, emailVerified: true),
                                                   device: DeviceDescription(name: "Belay console", platform: "web"))
            let cookie = ConsoleSignInCookie.make(for: grant)
            return ConsoleReport(cookie: cookie.header, formToken: cookie.formToken, doorListMeetupId: door.id, going: consoleGoing,
                                 meetups: consoleMeetups)
        }

        private static let seedingThreads = 8

        /// `make(i)` for every `i` in `0..<count`, spread over `threads` threads, in index order;
        /// rethrows the first error (the other threads stop at their next item).
        private static func concurrently<Value: Sendable>(count: Int, threads: Int,
                                                          _ make: @escaping @Sendable (Int) throws -> Value) throws -> [Value] {
            let results = Mutex<(values: [Value?], error: (any Error)?)>((Array(repeating: nil, count: count), nil))
            let group = DispatchGroup()
            for thread in 0..<max(1, threads) {
                group.enter()
                Thread {
                    defer { group.leave() }
                    for index in stride(from: thread, to: count, by: max(1, threads)) {
                        guard results.withLock({ $0.error == nil }) else { return }
                        do {
                            let value = try make(index)
                            results.withLock { $0.values[index] = value }
                        } catch {
                            results.withLock { if $0.error == nil { $0.error = error } }
                            return
                        }
                    }
                }.start()
            }
            group.wait()
            return try results.withLock { state in
                if let error = state.error { throw error }
                return state.values.compactMap { $0 }
            }
        }
    }
}
