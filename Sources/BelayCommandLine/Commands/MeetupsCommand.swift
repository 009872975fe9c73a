import Foundation
import BelayArguments
import BelayCore
import BelayDomain
import BelayRepresentations

/// `belay meetups create|list|show|update|cancel|code|kiosk`.
struct MeetupsCommand: ParsableCommand {
    /// The usage error for a `--time-zone` that is not one, with the closest name when one is near.
    static func unknownZone(_ name: String) -> String {
        let message = "--time-zone: '\(name)' is not an IANA time zone such as Asia/Seoul or Europe/Berlin"
        guard let near = Suggestion.closest(to: name, among: TimeZone.knownTimeZoneIdentifiers) else { return message }
        return message + "; did you mean '\(near)'?"
    }

    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "meetups", abstract: "Create, list, change and cancel meetups; show the check-in code.",
                             subcommands: [Create.self, List.self, Search.self, Show.self, Update.self, Cancel.self, Code.self, Kiosk.self, Cohosts.self, AddCohost.self, RemoveCohost.self, Publish.self, Unpublish.self])
    }

    static let id = Argument<Int64>("meetup-id", help: "The meetup's id (see `belay meetups list`).")
    static let timeHelp = "RFC 3339 (2026-12-05T19:00:00+09:00) or local time in the meetup's zone (2026-12-05 19:00)."

    /// `belay meetups create`.
    struct Create: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "create",
                abstract: "Create a meetup.",
                discussion: "Example: belay meetups create --title \"Friday bouldering\" --place \"The Cliff Seoul\" --starts \"2026-12-05 19:00\" --ends \"2026-12-05 22:00\" --capacity 12 --host jisoo"
            )
        }

        @Option("title", valueName: "text", help: "The meetup's title.") var title: String
        @OptionalOption("place", valueName: "name", help: "The gym or crag; drawn on the reward sticker (the gym's name with --gym).") var place: String?
        @OptionalOption("gym", valueName: "id", help: "The gym it is at (see `belay gyms list`): its zone, location, address and name.") var gym: Int64?
        @OptionalOption("address", valueName: "text", help: "The street address.") var address: String?
        @Option("description", valueName: "text", default: "", help: "Details for members.") var description: String
        @Option("starts", valueName: "time", help: "When it starts: \(MeetupsCommand.timeHelp)") var starts: String
        @Option("ends", valueName: "time", help: "When it ends, in the same forms.") var ends: String
        @OptionalOption("time-zone", valueName: "zone", help: "IANA time zone, e.g. Asia/Seoul (default: club.time_zone).") var timeZone: String?
        @Option("capacity", valueName: "n", help: "Places; later joiners are waitlisted.") var capacity: Int
        @Option("host", valueName: "handle", help: "The hosting user (role host or admin).") var host: String
        @Flag("past", help: "Record a meetup that already happened (then add its attendees and check them in with --at).") var past: Bool
        @OptionalOption("repeat", valueName: "weekly", help: "Make a series: the same meetup every week, at the same local time, up to --until.") var repeats: MeetupRepeat?
        @OptionalOption("until", valueName: "date", help: "The last day a --repeat series may have a meetup on (YYYY-MM-DD in the meetup's zone).") var until: String?
        @OptionalOption("location", valueName: "lat,lon", help: "Where it is, in degrees, so that \"near me\" searches find it.") var location: String?
        @OptionalOption("discipline", valueName: "kind", help: "bouldering, lead, top_rope or outdoor.") var discipline: MeetupDiscipline?
        @OptionalOption("level", valueName: "LOW..HIGH", help: "The grades it is for, e.g. V3..V5 or 5.10a..5.11d.") var level: String?
        @OptionalOption("tags", valueName: "list", help: "Comma-separated tags from the README's list, e.g. beginner_friendly,women.") var tags: String?
        @Flag("private", help: "Invite-only: in no list, search, feed or follow notice.") var isPrivate: Bool
        @Flag(.json) var json: Bool

        /// The discovery fields of the new meetup.
        func discovery(_ meetup: NewMeetup) throws -> NewMeetup {
            var meetup = meetup
            meetup.location = try location.map { try GeoPoint(parsing: $0, field: "--location") }
            meetup.discipline = discipline
            if let level {
                let bounds = level.components(separatedBy: "..")
                guard bounds.count == 2 else { throw CommandLineError.usage("--level is LOW..HIGH, such as V3..V5 (got \"\(level)\")") }
                meetup.level = try MeetupLevel.parse(lowest: bounds[0], highest: bounds[1], scale: nil, discipline: discipline,
                                                     preferences: LogbookPreferences(), field: "--level")
            }
            meetup.tags = try (tags ?? "").split(separator: ",").map { name in
                guard let tag = MeetupTag(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                    throw CommandLineError.usage("--tags: \"\(name)\" is not a tag; the tags are \(MeetupTag.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return tag
            }
            meetup.visibility = isPrivate ? .private : .public
            return meetup
        }

        func validate() throws {
            guard capacity >= 1 else { throw CommandLineError.usage("--capacity must be at least 1 (got \(capacity))") }
            guard place != nil || gym != nil else { throw CommandLineError.usage("Give --place NAME, or --gym ID for a meetup at a gym (see `belay gyms list`)") }
            if (repeats == nil) != (until == nil) { throw CommandLineError.usage("--repeat and --until go together: --repeat weekly --until 2027-03-31") }
            if repeats != nil && past { throw CommandLineError.usage("--past records one meetup that happened; a --repeat series starts now or later") }
            if let timeZone, !MeetupService.isTimeZoneName(timeZone) {
                throw CommandLineError.usage(MeetupsCommand.unknownZone(timeZone))
            }
        }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let atGym = try gym.map { try services.domain.gyms.gym(id: $0) }
            let zoneName = timeZone ?? atGym?.timeZone ?? services.configuration.club.timeZone
            let zone = TimeZone(identifier: zoneName) ?? services.configuration.club.zone
            let startsAt = try TimeFormatting.parse(starts, in: zone, option: "--starts")
            let endsAt = try TimeFormatting.parse(ends, in: zone, option: "--ends")
            guard endsAt > startsAt else {
                throw CommandLineError.usage("--ends (\(TimeFormatting.local(endsAt, in: zone))) must be after --starts (\(TimeFormatting.local(startsAt, in: zone)))")
            }
            let hostUser = try services.user(host)
            MeetupsCommand.noteZone(of: [starts, ends], read: startsAt, in: zone,
                                    from: timeZone != nil ? "--time-zone" : atGym != nil ? "the gym's zone" : "club.time_zone", context)
            if let repeats, let until {
                let lastDay = try TimeFormatting.parse(until, in: zone, option: "--until", allowDay: true)
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = zone
                let endOfDay = calendar.dateInterval(of: .day, for: lastDay)?.end.addingTimeInterval(-1) ?? lastDay
                let series = try services.meetups.createSeries(
                    try discovery(NewMeetup(title: title, description: description, placeName: place ?? "", address: address,
                                            startsAt: startsAt, endsAt: endsAt, timeZone: zoneName, capacity: capacity, hostID: hostUser.id,
                                            gymID: gym)),
                    repeat: repeats, until: endOfDay, by: .commandLine)
                if json { return context.printJSON(series.map(services.body)) }
                var table = Table(columns: ["id", "starts", "ends", "title"])
                for meetup in series {
                    table.append([String(meetup.id), TimeFormatting.local(meetup.startsAt, in: zone), TimeFormatting.local(meetup.endsAt, in: zone), meetup.title])
                }
                context.printTable(table)
                context.note("Created a weekly series of \(Plural.counted(series.count, "meetup")) (series \(series[0].id)). Change one with `belay meetups update ID`, or it and every later one with `--following`.")
                return
            }
            let meetup = try services.meetups.create(
                try discovery(NewMeetup(title: title, description: description, placeName: place ?? "", address: address,
                                        startsAt: startsAt, endsAt: endsAt, timeZone: zoneName, capacity: capacity, hostID: hostUser.id,
                                        gymID: gym)),
                recordPast: past, by: .commandLine)
            let window = services.meetups.checkInWindow(of: meetup)
            if json { return context.printJSON(services.body(meetup)) }
            MeetupsCommand.printDetails(meetup, host: hostUser.handle, window: window, context)
            if past {
                context.note("Recorded past meetup \(meetup.id). Add who came with `belay attendees add \(meetup.id) HANDLE…` and check them in with `belay attendees check-in \(meetup.id) HANDLE --at TIME`.")
            } else {
                context.note("Created meetup \(meetup.id). Add members with `belay attendees add \(meetup.id) HANDLE…`.")
            }
        }
    }

    /// Says which zone local times (`2026-12-06 19:00`) were read in, when that zone's offset
    /// differs from this machine's at that time: an admin whose own clock is elsewhere sees
    /// that 19:00 meant 19:00 there, and what it is here.
    static func noteZone(of typed: [String], read instant: Date, in zone: TimeZone, from source: String, _ context: CommandContext) {
        let machine = TimeZone.current
        guard typed.contains(where: { RFC3339.parse($0.trimmingCharacters(in: .whitespaces)) == nil }),
              zone.secondsFromGMT(for: instant) != machine.secondsFromGMT(for: instant) else { return }
        context.note("Times were read in \(zone.identifier) (\(source)), not in this machine's zone \(machine.identifier): \(TimeFormatting.local(instant, in: zone)) is \(TimeFormatting.local(instant, in: machine)) here. To mean another zone, give --time-zone or an RFC 3339 time with its offset.")
    }

    /// Key/value lines describing one meetup.
    static func printDetails(_ meetup: Meetup, host: String?, window: CheckInWindow, _ context: CommandContext) {
        let zone = meetup.zone
        var table = Table(columns: ["field", "value"])
        table.rows = [
            ["id", String(meetup.id)],
            ["title", meetup.title],
            ["place", meetup.placeName],
            ["address", meetup.address ?? "-"],
            ["starts", TimeFormatting.local(meetup.startsAt, in: zone) + " " + meetup.timeZone],
            ["ends", TimeFormatting.local(meetup.endsAt, in: zone) + " " + meetup.timeZone],
            ["check-in", TimeFormatting.local(window.opensAt, in: zone) + " – " + TimeFormatting.local(window.closesAt, in: zone)],
            ["host", host ?? String(meetup.hostID)],
            ["status", meetup.status.rawValue],
            ["capacity", String(meetup.capacity)],
            ["going", "\(meetup.goingCount) (\(Plural.counted(meetup.placesLeft, "place")) left)"],
            ["waitlisted", String(meetup.waitlistCount)],
            ["checked in", String(meetup.checkedInCount)],
        ]
        if !meetup.description.isEmpty { table.rows.insert(["description", meetup.description], at: 3) }
        for line in table.lines.dropFirst() { context.print(line) }
    }

    /// `belay meetups list`.
    struct List: ParsableCommand {
        enum Scope: String, ExpressibleByArgument, CaseIterable { case upcoming, past, all }

        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "list", abstract: "List meetups (upcoming by default, soonest first).")
        }

        @Option("scope", valueName: "which", default: .upcoming, help: "Which meetups to list.") var chosenScope: Scope
        @Flag("all", help: "Same as --scope all.") var all: Bool
        @OptionalOption("host", valueName: "handle", help: "Only meetups of this host.") var host: String?
        @OptionalOption("place", valueName: "name", help: "Only meetups at this place.") var place: String?
        @Flag("hide-cancelled", help: "Leave cancelled meetups out.") var hideCancelled: Bool
        @Flag(.json) var json: Bool

        /// `--scope`, or all with `--all`.
        var scope: Scope { all ? .all : chosenScope }

        func validate() throws {
            if all && $chosenScope.wasGiven && chosenScope != .all {
                throw CommandLineError.usage("--all and --scope \(chosenScope.rawValue) contradict each other; give one")
            }
        }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let hostID = try host.map { try services.user($0).id }
            let domainScope: MeetupQuery.Scope = switch scope { case .upcoming: .upcoming; case .past: .past; case .all: .all }
            let meetups = try ClubServices.all {
                var query = MeetupQuery(scope: domainScope, placeName: place, hostID: hostID, includeCancelled: !hideCancelled, limit: 200, cursor: $0)
                query.includePrivate = true  // the club's own shell lists every meetup
                return try services.meetups.list(query)
            }
            let handles = try MeetupsCommand.hostHandles(meetups, services)
            if json {
                return context.printJSON(meetups.map(services.body))
            }
            var table = Table(columns: ["id", "starts", "title", "place", "host", "status", "going", "waitlist", "checked in"])
            for meetup in meetups {
                table.append([String(meetup.id), TimeFormatting.local(meetup.startsAt, in: meetup.zone), meetup.title, meetup.placeName,
                              handles[meetup.hostID] ?? String(meetup.hostID), meetup.status.rawValue,
                              "\(meetup.goingCount)/\(meetup.capacity)", String(meetup.waitlistCount), String(meetup.checkedInCount)])
            }
            context.printTable(table, emptyMessage: "No \(scope == .all ? "" : scope.rawValue + " ")meetups. Create one with `belay meetups create`.")
        }
    }

    /// Handles of the hosts of `meetups`, by user id.
    static func hostHandles(_ meetups: [Meetup], _ services: ClubServices) throws -> [Int64: String] {
        var handles: [Int64: String] = [:]
        for id in Set(meetups.map(\.hostID)) { handles[id] = try? services.users.user(id: id).handle }
        return handles
    }

    /// `belay meetups show`.
    struct Show: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "show", abstract: "Show one meetup: times, check-in window, places and counts.")
        }

        @Argument(MeetupsCommand.id) var id: Int64
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let meetup = try services.meetup(id)
            let host = try? services.users.user(id: meetup.hostID).handle
            let window = services.meetups.checkInWindow(of: meetup)
            if json { return context.printJSON(services.body(meetup)) }
            MeetupsCommand.printDetails(meetup, host: host, window: window, context)
        }
    }

    /// `belay meetups update`.
    struct Update: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "update", abstract: "Change a meetup; only the options given change.")
        }

        @Argument(MeetupsCommand.id) var id: Int64
        @OptionalOption("title", valueName: "text", help: "New title.") var title: String?
        @OptionalOption("place", valueName: "name", help: "New place name.") var place: String?
        @OptionalOption("address", valueName: "text", help: "New address (\"\" removes it).") var address: String?
        @OptionalOption("description", valueName: "text", help: "New description.") var description: String?
        @OptionalOption("starts", valueName: "time", help: "New start: \(MeetupsCommand.timeHelp)") var starts: String?
        @OptionalOption("ends", valueName: "time", help: "New end, in the same forms.") var ends: String?
        @OptionalOption("time-zone", valueName: "zone", help: "New IANA time zone (times given here are read in it).") var timeZone: String?
        @OptionalOption("capacity", valueName: "n", help: "New capacity; raising it promotes waitlisted members, lowering it removes no one.") var capacity: Int?
        @OptionalOption("host", valueName: "handle", help: "New host.") var host: String?
        @Flag("following", help: "In a series: change this meetup and every later one (times move by the same local shift).") var following: Bool
        @Flag(.json) var json: Bool

        func validate() throws {
            if [title, place, address, description, starts, ends, timeZone, host].allSatisfy({ $0 == nil }) && capacity == nil {
                throw CommandLineError.usage("nothing to change; give at least one of --title, --place, --address, --description, --starts, --ends, --time-zone, --capacity, --host")
            }
            if let capacity, capacity < 1 { throw CommandLineError.usage("--capacity must be at least 1 (got \(capacity))") }
            if let timeZone, !MeetupService.isTimeZoneName(timeZone) {
                throw CommandLineError.usage(MeetupsCommand.unknownZone(timeZone))
            }
        }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let current = try services.meetup(id)
            let zone = timeZone.flatMap(TimeZone.init(identifier:)) ?? current.zone
            var changes = MeetupChanges(title: title, description: description, placeName: place,
                                        timeZone: timeZone, capacity: capacity)
            if let address { changes.address = .some(address.isEmpty ? nil : address) }
            if let starts { changes.startsAt = try TimeFormatting.parse(starts, in: zone, option: "--starts") }
            if let ends { changes.endsAt = try TimeFormatting.parse(ends, in: zone, option: "--ends") }
            if let instant = changes.startsAt ?? changes.endsAt {
                MeetupsCommand.noteZone(of: [starts, ends].compactMap { $0 }, read: instant, in: zone,
                                        from: timeZone == nil ? "the meetup's zone" : "--time-zone", context)
            }
            if let host { changes.hostID = try services.user(host).id }
            let before = current
            if following {
                let updated = try services.meetups.updateFollowing(id: id, changes, by: .commandLine)
                if json { return context.printJSON(updated.map(services.body)) }
                var table = Table(columns: ["id", "starts", "ends", "title", "place"])
                for meetup in updated {
                    table.append([String(meetup.id), TimeFormatting.local(meetup.startsAt, in: meetup.zone),
                                  TimeFormatting.local(meetup.endsAt, in: meetup.zone), meetup.title, meetup.placeName])
                }
                context.printTable(table)
                context.note("Updated \(Plural.counted(updated.count, "meetup")) from \(id) on.")
                return
            }
            let meetup = try services.meetups.update(id: id, changes, by: .commandLine)
            let hostHandle = try? services.users.user(id: meetup.hostID).handle
            let window = services.meetups.checkInWindow(of: meetup)
            if json { return context.printJSON(services.body(meetup)) }
            MeetupsCommand.printDetails(meetup, host: hostHandle, window: window, context)
            let promoted = before.waitlistCount - meetup.waitlistCount
            context.note("Updated meetup \(meetup.id)." + (promoted > 0 ? " \(promoted) waitlisted member\(promoted == 1 ? " was" : "s were") promoted to going." : ""))
        }
    }

    /// `belay meetups cancel`.
    struct Cancel: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "cancel", abstract: "Cancel a meetup (or it and the rest of its series); every attendance is cancelled with it. Final.",
                                 discussion: """
                                     With --following, a meetup of a weekly series is cancelled with every later scheduled one, in one \
                                     transaction (as POST /v1/meetups/{id}/cancel-following); earlier meetups, and later ones already \
                                     cancelled or completed, stay as they are.
                                     Example: belay meetups cancel 40 --following
                                     """)
        }

        @Argument(MeetupsCommand.id) var id: Int64
        @Flag("following", help: "In a series: cancel this meetup and every later scheduled one.") var following: Bool
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            _ = try services.meetup(id)
            if following {
                let cancelled = try services.meetups.cancelFollowing(id: id, by: .commandLine)
                if json { return context.printJSON(cancelled.map(services.body)) }
                var table = Table(columns: ["id", "starts", "title", "status"])
                for meetup in cancelled {
                    table.append([String(meetup.id), TimeFormatting.local(meetup.startsAt, in: meetup.zone), meetup.title, meetup.status.rawValue])
                }
                context.printTable(table)
                context.note("Cancelled \(Plural.counted(cancelled.count, "meetup")) from \(id) on; their attendances are cancelled too.")
                return
            }
            let meetup = try services.meetups.cancel(id: id, by: .commandLine)
            if json { return context.printJSON(services.body(meetup)) }
            context.print("\(meetup.id)  \(meetup.status.rawValue)")
            context.note("Cancelled meetup \(meetup.id) (\(meetup.title)); its attendances are cancelled too.")
        }
    }

    /// `belay meetups code`.
    struct Code: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "code",
                abstract: "Print the meetup's current check-in code, for the host to show.",
                discussion: "The code changes every check_in.code_step_seconds; the previous code is accepted for one more step. With less than 5 seconds left, the next code is shown instead (and accepted already)."
            )
        }

        @Argument(MeetupsCommand.id) var id: Int64
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let meetup = try services.meetup(id)
            let code = try services.meetups.currentCheckInCode(meetupID: id, by: .commandLine, showingAhead: true)
            if json {
                return context.printJSON(CheckInCodeBody(meetupID: id, code: code, zones: services.presentation.zones))
            }
            context.print(code.code)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = meetup.zone
            let expiry = calendar.dateComponents([.hour, .minute, .second], from: code.expiresAt)
            let ahead = code.isAhead(of: context.now()) ? "The next code (the current one had less than \(Int(CheckInCode.showAheadSeconds)) s left), accepted now and " : ""
            context.note(String(format: "%@%@ until %02d:%02d:%02d (%@); a new code every %d s.", ahead, ahead.isEmpty ? "Current" : "current",
                                expiry.hour ?? 0, expiry.minute ?? 0, expiry.second ?? 0, meetup.timeZone, code.stepSeconds))
        }
    }
}
