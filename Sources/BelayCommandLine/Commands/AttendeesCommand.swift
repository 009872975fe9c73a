import BelayCore
import Foundation
import BelayDomain
import BelayRepresentations
import BelayArguments

/// `belay attendees list|add|remove|check-in|undo-check-in`.
struct AttendeesCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "attendees", abstract: "See who is going, add and remove members, check them in.",
                             subcommands: [List.self, Add.self, Remove.self, CheckIn.self, UndoCheckIn.self, Import.self, Claim.self])
    }

    static let meetup = Argument<Int64>("meetup-id", help: "The meetup's id (see `belay meetups list`).")
    static let member = Argument<String>("handle", help: "The member's handle.")

    /// `going`, `waitlisted #2`, `checked_in`, …
    static func describe(_ attendance: Attendance) -> String {
        if attendance.status == .waitlisted, let position = attendance.waitlistPosition {
            if let until = attendance.offerExpiresAt {
                return "waitlisted #\(position), offered until " + RFC3339.string(from: until, fraction: .none)
            }
            return "waitlisted #\(position)"
        }
        return attendance.status.rawValue
    }

    /// `belay attendees list`.
    struct List: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "list", abstract: "List a meetup's attendees in join order, with the waitlist.")
        }

        @Argument(AttendeesCommand.meetup) var meetupID: Int64
        @OptionalOption("status", valueName: "status", help: "Only attendees with this status.") var status: AttendanceStatus?
        @Flag("csv", help: "Print CSV (RFC 4180: handle, name, status, waitlist position, joined, checked in, method) for the door list or records.") var csv: Bool
        @Flag(.json) var json: Bool

        func validate() throws {
            if csv && json { throw CommandLineError.usage("give --csv or --json, not both") }
        }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let meetup = try services.meetup(meetupID)
            let attendees = try ClubServices.all { try services.attendance.attendees(meetupID: meetupID, status: status, limit: 500, cursor: $0) }
            if json {
                return context.printJSON(attendees.map { AttendeeBody(attendee: $0, presentation: services.presentation) })
            }
            if csv {
                return context.output.write(AttendeeCSV.text(attendees, zone: meetup.zone))
            }
            var table = Table(columns: ["handle", "name", "status", "joined", "checked in"])
            for attendee in attendees {
                let attendance = attendee.attendance
                table.append([attendee.handle, attendee.displayName, AttendeesCommand.describe(attendance),
                              TimeFormatting.local(attendance.joinedAt, in: meetup.zone),
                              attendance.checkedInAt.map { TimeFormatting.local($0, in: meetup.zone) + " (\(attendance.checkInMethod?.rawValue ?? "?"))" } ?? "-"])
            }
            context.printTable(table, emptyMessage: "No attendees\(status.map { " with status \($0.rawValue)" } ?? ""). Add members with `belay attendees add \(meetupID) HANDLE…`.")
            context.note("Meetup \(meetup.id): \(meetup.goingCount)/\(meetup.capacity) going, \(meetup.waitlistCount) waitlisted, \(meetup.checkedInCount) checked in.")
        }
    }

    /// `belay attendees add`.
    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "add",
                abstract: "Add members to a meetup: going while there is room, then waitlisted in order.",
                discussion: "Example: belay attendees add 3 minji dahye jun\nMembers already attending stay as they are. A member who cannot be added is reported and the others are still added (exit 1)."
            )
        }

        @Argument(AttendeesCommand.meetup) var meetupID: Int64
        @RepeatedArgument("handle", help: "The members' handles, in the order they join.") var handles: [String]
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            _ = try services.meetup(meetupID)
            var results: [AttendeeBody] = []
            var table = Table(columns: ["handle", "status", "change"])
            var failures: [String] = []
            for handle in handles {
                do {
                    let user = try services.user(handle)
                    let result = try services.attendance.join(meetupID: meetupID, memberID: user.id, by: .commandLine)
                    results.append(services.body(result.attendance, of: user))
                    table.append([user.handle, AttendeesCommand.describe(result.attendance), result.changed ? "added" : "already attending"])
                } catch {
                    failures.append("\(handle): \(BelayCLI.describe(error) ?? String(describing: error))")
                }
            }
            if json { context.printJSON(results) } else if !results.isEmpty { context.printTable(table) }
            guard failures.isEmpty else {
                throw CommandLineError.failure("Could not add \(failures.count) of \(Plural.counted(handles.count, "member")):\n  " + failures.joined(separator: "\n  "))
            }
        }
    }

    /// `belay attendees remove`.
    struct Remove: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "remove",
                abstract: "Take a member off a meetup; the first waitlisted member moves up to going."
            )
        }

        @Argument(AttendeesCommand.meetup) var meetupID: Int64
        @Argument(AttendeesCommand.member) var handle: String
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            _ = try services.meetup(meetupID)
            let user = try services.user(handle)
            let result = try services.attendance.leave(meetupID: meetupID, memberID: user.id, by: .commandLine)
            let promoted = try result.promoted.map { attendance in
                services.body(attendance, of: try services.users.user(id: attendance.memberID))
            }
            if json {
                return context.printJSON(AttendeeRemovalBody(removed: services.body(result.attendance, of: user), promoted: promoted))
            }
            var table = Table(columns: ["handle", "status", "change"])
            table.append([user.handle, result.attendance.status.rawValue, "removed"])
            for member in promoted {
                table.append([member.attendee.handle, member.attendee.attendance.status.rawValue, "promoted from the waitlist"])
            }
            context.printTable(table)
        }
    }

    /// `belay attendees check-in`.
    struct CheckIn: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "check-in",
                abstract: "Check a member in (now, or --at an earlier time); awards their hold.",
                discussion: "Checking in someone already checked in changes nothing and shows the first result."
            )
        }

        @Argument(AttendeesCommand.meetup) var meetupID: Int64
        @Argument(AttendeesCommand.member) var handle: String
        @OptionalOption("at", valueName: "time", help: "Record an earlier check-in made offline, at this time inside the window: \(MeetupsCommand.timeHelp)") var at: String?
        @OptionalOption("code", valueName: "digits", help: "Check in with the code the member typed, as the app does (wrong codes count against the member).") var code: String?
        @Flag(.json) var json: Bool

        func validate() throws {
            if at != nil && code != nil { throw CommandLineError.usage("--at and --code cannot be combined: a code check-in happens now") }
        }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let meetup = try services.meetup(meetupID)
            let user = try services.user(handle)
            let proof: CheckInRequest.Proof
            let actor: Actor
            if let at {
                proof = .offline(at: try TimeFormatting.parse(at, in: meetup.zone, option: "--at"))
                actor = .commandLine
            } else if let code {
                proof = .code(code)
                actor = .user(user.id, role: user.role)
            } else {
                proof = .host
                actor = .commandLine
            }
            let result = try services.checkIns.checkIn(CheckInRequest(meetupID: meetupID, memberID: user.id, proof: proof), by: actor)
            let reward = result.reward
            if json {
                context.printJSON(CheckInBody(result: result, presentation: services.presentation))
            } else {
                var table = Table(columns: ["handle", "status", "checked in", "reward", "hold", "rarity"])
                table.append([user.handle, result.attendance.status.rawValue,
                              result.attendance.checkedInAt.map { TimeFormatting.local($0, in: meetup.zone) } ?? "-",
                              reward.map { String($0.id) } ?? "-", reward.map { "\($0.hold.name) (\($0.hold.id))" } ?? "-",
                              reward.map(\.kindLabel) ?? "-"])
                context.printTable(table)
            }
            if result.isRepeat { context.note("\(user.handle) was already checked in; nothing changed.") }
            if result.reward == nil { context.note("No hold could be awarded yet: import the catalogue with `belay holds import`; the backfill awards it later.") }
        }
    }

    /// `belay attendees undo-check-in`.
    struct UndoCheckIn: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "undo-check-in",
                abstract: "Undo a check-in: the member is going again and the reward is revoked (kept, not deleted)."
            )
        }

        @Argument(AttendeesCommand.meetup) var meetupID: Int64
        @Argument(AttendeesCommand.member) var handle: String
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            _ = try services.meetup(meetupID)
            let user = try services.user(handle)
            let attendance = try services.checkIns.undoCheckIn(meetupID: meetupID, memberID: user.id, by: .commandLine)
            if json { return context.printJSON(services.body(attendance, of: user)) }
            context.print("Undid \(user.handle)'s check-in at meetup \(meetupID): \(user.handle) is \(attendance.status.rawValue) again and their reward is revoked.")
        }
    }
}
