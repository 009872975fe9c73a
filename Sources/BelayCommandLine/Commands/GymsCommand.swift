import Foundation
import BelayArguments
import BelayCore
import BelayDomain
import BelayRepresentations

/// `belay gyms add|edit|list|managers|import-set|retire`.
struct GymsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "gyms", abstract: "Add and change gyms, their colour circuits, managers and problem sets.",
                             subcommands: [Add.self, Edit.self, List.self, Managers.self, ImportSet.self, Retire.self])
    }

    static let id = Argument<Int64>("gym-id", help: "The gym's id (see `belay gyms list`).")
    static let levelsHelp = "The colour circuit, easiest first: NAME:#RRGGBB:LOW..HIGH, comma-separated (Yellow:#FFEB3B:VB..V0,Red:#E53935:V4..V5); grades in --level-scale."

    /// The options `add` and `edit` share; on `edit`, those left out stay as they are.
    struct GymOptions: ArgumentGroup {
        @OptionalOption("name", valueName: "text", help: "The gym's name.") var name: String?
        @OptionalOption("names", valueName: "tag=name,…", help: "The name in other locales: ko=더클라임 강남점,ja=ザ・クライム.") var names: String?
        @OptionalOption("address", valueName: "text", help: "The street address.") var address: String?
        @OptionalOption("country", valueName: "code", help: "ISO 3166-1 two-letter code, e.g. KR.") var country: String?
        @OptionalOption("location", valueName: "lat,lon", help: "Latitude and longitude in degrees, e.g. 37.4979,127.0276.") var location: String?
        @OptionalOption("time-zone", valueName: "zone", help: "IANA time zone, e.g. Asia/Seoul: ticks' days are counted in it.") var timeZone: String?
        @OptionalOption("website", valueName: "url", help: "The gym's website.") var website: String?
        @OptionalOption("boulders", valueName: "grading", help: "How boulders are graded: v, font or circuit.") var boulders: String?
        @OptionalOption("routes", valueName: "grading", help: "How routes are graded: yds, french, uiaa, ewbank or circuit.") var routes: String?
        @OptionalOption("boulder-levels", valueName: "levels", help: GymsCommand.levelsHelp) var boulderLevels: String?
        @OptionalOption("route-levels", valueName: "levels", help: "The route circuit, as --boulder-levels.") var routeLevels: String?
        @OptionalOption("level-scale", valueName: "scale", help: "The scale of the levels' grades (default v for boulders, yds for routes).") var levelScale: String?

        func draft() throws -> GymDraft {
            var draft = GymDraft(name: name, timeZone: timeZone)
            if let names { draft.localizedNames = try Self.pairs(names, option: "--names") }
            if let address { draft.address = .some(address.isEmpty ? nil : address) }
            if let country { draft.country = .some(country.isEmpty ? nil : country) }
            if let website { draft.website = .some(website.isEmpty ? nil : website) }
            if let location {
                let parts = location.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard parts.count == 2 else { throw CommandLineError.usage("--location is LAT,LON in degrees, e.g. 37.4979,127.0276 (got '\(location)')") }
                draft.location = .some((parts[0], parts[1]))
            }
            if let boulders {
                guard let grading = GymGrading(boulders, axis: .boulder) else { throw CommandLineError.usage("--boulders is v, font or circuit (got '\(boulders)')") }
                draft.boulderGrading = grading
            }
            if let routes {
                guard let grading = GymGrading(routes, axis: .route) else { throw CommandLineError.usage("--routes is yds, french, uiaa, ewbank or circuit (got '\(routes)')") }
                draft.routeGrading = grading
            }
            if let boulderLevels { draft.boulderLevels = try Self.levels(boulderLevels, option: "--boulder-levels", scale: scale(default: .v)) }
            if let routeLevels { draft.routeLevels = try Self.levels(routeLevels, option: "--route-levels", scale: scale(default: .yds)) }
            return draft
        }

        private func scale(default fallback: GradeScale) throws -> GradeScale {
            guard let levelScale else { return fallback }
            guard let scale = GradeScale(rawValue: levelScale) else {
                throw CommandLineError.usage("--level-scale is one of \(GradeScale.allCases.map(\.rawValue).joined(separator: ", ")) (got '\(levelScale)')")
            }
            return scale
        }

        static func pairs(_ text: String, option: String) throws -> [String: String] {
            var pairs: [String: String] = [:]
            for item in text.split(separator: ",") {
                let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw CommandLineError.usage("\(option) takes tag=name pairs separated by commas, e.g. ko=노랑,ja=黄 (got '\(item)')")
                }
                pairs[parts[0]] = parts[1]
            }
            return pairs
        }

        static func levels(_ text: String, option: String, scale: GradeScale) throws -> [NewGymLevel] {
            try text.split(separator: ",").map { item in
                let parts = item.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 3 else {
                    throw CommandLineError.usage("\(option): each level is NAME:#RRGGBB:LOW..HIGH, e.g. Red:#E53935:V4..V5 (got '\(item)')")
                }
                let grades = parts[2].components(separatedBy: "..")
                return NewGymLevel(colour: parts[1], name: parts[0], lowest: grades[0], highest: grades.count > 1 ? grades[1] : nil, scale: scale)
            }
        }
    }

    /// A gym as a table row.
    static func row(_ gym: Gym) -> [String] {
        let grading = [gym.boulderGrading, gym.routeGrading].map(\.rawValue).joined(separator: " / ")
        let circuit = gym.boulderLevels.map { "\($0.name) \(GradeTable.name(of: $0.range, in: .v))" }.joined(separator: ", ")
        return [String(gym.id), gym.name, gym.localizedNames.sorted { $0.key < $1.key }.map(\.value).joined(separator: ", "),
                gym.timeZone, grading, circuit.isEmpty ? "-" : circuit]
    }

    /// One gym, as `add` and `edit` answer: a JSON object with `--json` (as other `add`
    /// commands print), else a table of one row.
    static func printGym(_ gym: Gym, json: Bool, _ context: CommandContext) {
        if json { return context.printJSON(GymBody(gym: gym, preferences: LogbookPreferences())) }
        printGyms([gym], json: false, context, empty: "")
    }

    static func printGyms(_ gyms: [Gym], json: Bool, _ context: CommandContext, empty: String) {
        if json { return context.printJSON(gyms.map { GymBody(gym: $0, preferences: LogbookPreferences()) }) }
        var table = Table(columns: ["id", "name", "other names", "zone", "grading (boulders / routes)", "boulder circuit"])
        for gym in gyms { table.append(row(gym)) }
        context.printTable(table, emptyMessage: empty)
    }

    /// `belay gyms add`.
    struct Add: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "add", abstract: "Add a gym.",
                                 discussion: "Example: belay gyms add --name \"The Climb Gangnam\" --names ko=더클라임 강남점 --time-zone Asia/Seoul --location 37.4979,127.0276 --boulders circuit --boulder-levels \"Yellow:#FFEB3B:VB..V0,Green:#4CAF50:V1..V2,Red:#E53935:V4..V5\"")
        }

        let options = GymOptions()
        @Flag(.json) var json: Bool

        func validate() throws {
            if options.name == nil { throw CommandLineError.usage("--name is required: the gym's name") }
            if options.timeZone == nil { throw CommandLineError.usage("--time-zone is required, e.g. Asia/Seoul") }
        }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let gym = try services.domain.gyms.create(try options.draft(), by: .commandLine)
            GymsCommand.printGym(gym, json: json, context)
            context.note("Added gym \(gym.id). Name its managers with `belay gyms managers \(gym.id) --add HANDLE`.")
        }
    }

    /// `belay gyms edit`.
    struct Edit: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "edit", abstract: "Change a gym; options left out stay as they are (an empty value removes an address, country or website).")
        }

        @Argument(GymsCommand.id) var gymID: Int64
        let options = GymOptions()
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let gym = try services.domain.gyms.update(id: gymID, try options.draft(), by: .commandLine)
            GymsCommand.printGym(gym, json: json, context)
            context.note("Changed gym \(gym.id).")
        }
    }

    /// `belay gyms list`.
    struct List: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "list", abstract: "List gyms, by name or nearest first.")
        }

        @OptionalOption("search", valueName: "text", help: "Only gyms whose name, in any locale, contains this.") var search: String?
        @OptionalOption("near", valueName: "lat,lon", help: "Nearest first.") var near: String?
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            var point: (latitude: Double, longitude: Double)?
            if let near {
                let parts = near.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard parts.count == 2 else { throw CommandLineError.usage("--near is LAT,LON in degrees (got '\(near)')") }
                point = (parts[0], parts[1])
            }
            let gyms = try ClubServices.all { cursor in
                try services.domain.gyms.list(matching: search, near: point, limit: 100, cursor: cursor)
            }
            GymsCommand.printGyms(gyms, json: json, context, empty: "No gyms yet. Add one with `belay gyms add --name NAME --time-zone ZONE`.")
        }
    }

    /// `belay gyms managers`.
    struct Managers: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "managers", abstract: "List a gym's managers, or --add / --remove one (managers edit the gym and its problems).")
        }

        @Argument(GymsCommand.id) var gymID: Int64
        @OptionalOption("add", valueName: "handle", help: "Make this member a manager of the gym.") var add: String?
        @OptionalOption("remove", valueName: "handle", help: "Take this member's manager role away.") var remove: String?
        @Flag(.json) var json: Bool

        func validate() throws {
            if add != nil && remove != nil { throw CommandLineError.usage("--add and --remove go one at a time") }
        }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let gyms = services.domain.gyms
            var ids = try gyms.managers(gymID: gymID)
            if let add {
                let user = try services.user(add)
                ids = try gyms.addManager(gymID: gymID, userID: user.id, by: .commandLine)
                context.note("\(user.handle) manages gym \(gymID).")
            }
            if let remove {
                let user = try services.user(remove)
                ids = try gyms.removeManager(gymID: gymID, userID: user.id, by: .commandLine)
                context.note("\(user.handle) no longer manages gym \(gymID).")
            }
            let users = try ids.map { try services.users.user(id: $0) }
            if json { return context.printJSON(users.map(CohostBody.init)) }
            var table = Table(columns: ["id", "handle", "name"])
            for user in users { table.append([String(user.id), user.handle, user.displayName]) }
            context.printTable(table, emptyMessage: "Gym \(gymID) has no managers. Add one with `belay gyms managers \(gymID) --add HANDLE`.")
        }
    }

    /// `belay gyms import-set`.
    struct ImportSet: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "import-set", abstract: "Add a new set from a CSV file: wall, colour, grade, set_on[, name, setter] a row.",
                                 discussion: "The whole file is checked first; on any row error nothing is added. The same file twice adds nothing.")
        }

        @Argument(GymsCommand.id) var gymID: Int64
        @Argument(Argument<String>("file", help: "The CSV file.")) var file: String
        @OptionalOption("discipline", valueName: "kind", help: "boulder (default), lead, top_rope or auto_belay.") var discipline: String?
        @OptionalOption("removal", valueName: "date", help: "The expected removal day of the whole set, YYYY-MM-DD.") var removal: String?
        @Flag("dry-run", help: "Check the file and count, without adding anything.") var dryRun: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let kind = try discipline.map { text -> Discipline in
                guard let kind = Discipline(rawValue: text) else {
                    throw CommandLineError.usage("--discipline is one of \(Discipline.allCases.map(\.rawValue).joined(separator: ", ")) (got '\(text)')")
                }
                return kind
            } ?? .boulder
            let path = context.absolutePath(file)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandLineError.failure("Cannot read \(path); check the path and its permissions.")
            }
            do {
                let outcome = try services.domain.problems.importSet(csv: String(decoding: data, as: UTF8.self), gymID: gymID, discipline: kind,
                                                                     expectedRemovalOn: removal, dryRun: dryRun, by: .commandLine)
                context.print("rows \(outcome.rows), \(outcome.dryRun ? "would add" : "added") \(outcome.added), already there \(outcome.unchanged)")
                if outcome.dryRun { context.note("Nothing was added (--dry-run).") }
            } catch let error as ProblemSetError {
                throw CommandLineError.failure("Nothing was added; fix these rows and run it again:\n  " + error.rows.map(\.message).joined(separator: "\n  "))
            }
        }
    }

    /// `belay gyms retire`.
    struct Retire: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "retire", abstract: "Retire a wall's current set (its problems stay for the ticks that name them).")
        }

        @Argument(GymsCommand.id) var gymID: Int64
        @Argument(Argument<String>("wall", help: "The wall or sector.")) var wall: String
        @OptionalOption("on", valueName: "date", help: "The day it was stripped, YYYY-MM-DD (default: today in the gym's zone).") var on: String?

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let retired = try services.domain.problems.retireWall(wall, gymID: gymID, on: on, by: .commandLine)
            context.print("retired \(retired)")
            context.note(retired == 0 ? "Wall '\(wall)' of gym \(gymID) had no problems up." : "Retired \(Plural.counted(retired, "problem")) on '\(wall)'.")
        }
    }
}
