import Foundation
import BelayArguments
import BelayCore
import BelayDomain

extension AttendeesCommand {
    /// `belay attendees import`.
    struct Import: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "import",
                abstract: "Add attendees from a CSV file, checking them in at the times it gives; awards their holds.",
                discussion: "For bringing history in: record the meetup with `belay meetups create … --past` first. Columns are found by name in the header (the file `belay attendees list ID --csv` writes works as is); checked_in_at is RFC 3339 or \"YYYY-MM-DD HH:MM\" in the meetup's zone, empty for an attendee who did not check in. The whole file is checked before anything is written; importing it again changes nothing."
            )
        }

        @Argument(AttendeesCommand.meetup) var meetupID: Int64
        @Argument("file", help: "A CSV file with a header row naming the columns handle and, optionally, checked_in_at.") var file: String
        @Flag(.json) var json: Bool

        struct Output: Encodable {
            var handle: String, status: String, checkedInAt: Date?, holdId: String?, changed: Bool
        }

        private struct Row {
            let line: Int
            let user: User
            let checkedInAt: Date?
        }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let meetup = try services.meetup(meetupID)
            let path = context.absolutePath(file)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandLineError.failure("Cannot read \(path); check the path and its permissions.")
            }
            let rows = try Self.rows(String(decoding: data, as: UTF8.self), meetup: meetup, services: services, now: context.now())

            var outputs: [Output] = []
            var failures: [String] = []
            var table = Table(columns: ["line", "handle", "status", "checked in", "hold"])
            for row in rows {
                do {
                    let joined = try services.attendance.join(meetupID: meetupID, memberID: row.user.id, by: .commandLine)
                    var attendance = joined.attendance
                    var hold: String?
                    var changed = joined.changed
                    if let at = row.checkedInAt {
                        let result = try services.checkIns.checkIn(CheckInRequest(meetupID: meetupID, memberID: row.user.id, proof: .offline(at: at)),
                                                                   by: .commandLine)
                        attendance = result.attendance
                        hold = result.reward?.hold.id
                        changed = changed || !result.isRepeat
                    }
                    outputs.append(Output(handle: row.user.handle, status: attendance.status.rawValue, checkedInAt: attendance.checkedInAt,
                                          holdId: hold, changed: changed))
                    table.append([String(row.line), row.user.handle, AttendeesCommand.describe(attendance),
                                  attendance.checkedInAt.map { TimeFormatting.local($0, in: meetup.zone) } ?? "-", hold ?? "-"])
                } catch {
                    failures.append("line \(row.line) (\(row.user.handle)): \(BelayCLI.describe(error) ?? String(describing: error))")
                }
            }
            if json { try context.printJSON(outputs) } else { context.printTable(table, emptyMessage: "The file has no attendees.") }
            guard failures.isEmpty else {
                throw CommandLineError.failure("Could not import \(failures.count) of \(rows.count) rows:\n  " + failures.joined(separator: "\n  "))
            }
            let checkedIn = outputs.filter { $0.checkedInAt != nil }.count
            let added = outputs.filter(\.changed).count
            context.note("Imported \(Plural.counted(rows.count, "attendee")) into meetup \(meetupID) (\(checkedIn) checked in, \(added) changed). Run `belay backfill` to render their stickers if no server is running.")
        }

        /// Reads and checks every row; nothing is written when any row is wrong.
        /// - Throws: `CommandLineError.failure` listing every problem with its line.
        private static func rows(_ text: String, meetup: Meetup, services: ClubServices, now: Date) throws -> [Row] {
            let records: [CSVReader.Record]
            do {
                records = try CSVReader.records(text)
            } catch let error as CSVSyntaxError {
                throw CommandLineError.failure(error.message)
            }
            guard let header = records.first else { throw CommandLineError.failure("The CSV file is empty; it needs a header row with a handle column.") }
            let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let handleColumn = names.firstIndex(of: "handle") else {
                throw CommandLineError.failure("The CSV header (\(header.fields.joined(separator: ","))) has no handle column; name the columns handle and checked_in_at.")
            }
            let timeColumn = names.firstIndex(of: "checked_in_at")
            let window = services.meetups.checkInWindow(of: meetup)
            var problems: [String] = []
            var rows: [Row] = []
            var seen: [String: Int] = [:]
            for record in records.dropFirst() {
                func field(_ column: Int?) -> String {
                    guard let column, column < record.fields.count else { return "" }
                    return record.fields[column].trimmingCharacters(in: .whitespaces)
                }
                let handle = field(handleColumn)
                guard !handle.isEmpty else { problems.append("line \(record.line): the handle is empty"); continue }
                if let first = seen[handle.lowercased()] {
                    problems.append("line \(record.line): \(handle) is already on line \(first)")
                    continue
                }
                seen[handle.lowercased()] = record.line
                let user: User
                do {
                    user = try services.users.user(handle: handle)
                } catch let error as DomainError where error.reason == .userNotFound {
                    problems.append("line \(record.line): there is no user '\(handle)' (create them with `belay users create \(handle) --name …`)")
                    continue
                }
                var checkedInAt: Date?
                let time = field(timeColumn)
                if !time.isEmpty {
                    do {
                        let at = try TimeFormatting.parse(time, in: meetup.zone, option: "checked_in_at")
                        if at > now {
                            problems.append("line \(record.line): \(time) is in the future")
                        } else if at < window.opensAt || at >= window.closesAt {
                            problems.append("line \(record.line): \(time) is outside the check-in window (\(TimeFormatting.local(window.opensAt, in: meetup.zone)) to \(TimeFormatting.local(window.closesAt, in: meetup.zone)))")
                        }
                        checkedInAt = at
                    } catch {
                        problems.append("line \(record.line): '\(time)' is not a time (RFC 3339, or YYYY-MM-DD HH:MM in \(meetup.timeZone))")
                    }
                }
                rows.append(Row(line: record.line, user: user, checkedInAt: checkedInAt))
            }
            guard problems.isEmpty else {
                let shown = problems.prefix(20).joined(separator: "\n  ")
                let more = problems.count > 20 ? "\n  … and \(problems.count - 20) more" : ""
                throw CommandLineError.failure("Nothing was imported: \(problems.count) row\(problems.count == 1 ? " is" : "s are") wrong:\n  \(shown)\(more)")
            }
            return rows
        }
    }
}
