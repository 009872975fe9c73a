import Foundation
import BelayArguments
import BelayDomain
import BelayRepresentations

/// `belay holds import|list|backgrounds`: the catalogue of hold artworks.
struct HoldsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "holds", abstract: "Import and list the hold catalogue.",
                             subcommands: [Import.self, List.self, Backgrounds.self])
    }

    /// `belay holds import`.
    struct Import: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "import",
                abstract: "Import holds/catalog.json and backgrounds/catalog.json; safe to repeat.",
                discussion: "New entries are added and changed ones updated. Entries missing from the files are retired, never deleted: rewards already given keep their hold. Both files are checked completely before anything is written."
            )
        }

        @OptionalOption("assets", valueName: "directory", help: "The assets directory holding holds/catalog.json and backgrounds/catalog.json (default: assets_directory).") var assets: String?
        @Flag(.json) var json: Bool

        struct Output: Encodable {
            var assetsDirectory: String
            var holdsAdded: Int, holdsUpdated: Int, holdsUnchanged: Int, holdsRetired: Int
            var backgroundsAdded: Int, backgroundsUpdated: Int, backgroundsUnchanged: Int, backgroundsRetired: Int
        }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let directory = assets.map(context.absolutePath) ?? services.configuration.assetsDirectory
            let report = try services.catalog.importCatalog(assetsDirectory: directory)
            if json {
                return try context.printJSON(Output(assetsDirectory: directory,
                    holdsAdded: report.holdsAdded, holdsUpdated: report.holdsUpdated, holdsUnchanged: report.holdsUnchanged, holdsRetired: report.holdsRetired,
                    backgroundsAdded: report.backgroundsAdded, backgroundsUpdated: report.backgroundsUpdated,
                    backgroundsUnchanged: report.backgroundsUnchanged, backgroundsRetired: report.backgroundsRetired))
            }
            var table = Table(columns: ["catalogue", "added", "updated", "unchanged", "retired"])
            table.append(["holds", String(report.holdsAdded), String(report.holdsUpdated), String(report.holdsUnchanged), String(report.holdsRetired)])
            table.append(["backgrounds", String(report.backgroundsAdded), String(report.backgroundsUpdated), String(report.backgroundsUnchanged), String(report.backgroundsRetired)])
            context.printTable(table)
            context.note("Imported the catalogue from \(directory).")
        }
    }

    /// `belay holds list`.
    struct List: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "list", abstract: "List the holds that can be awarded.")
        }

        @Flag("retired", help: "Also list holds the catalogue no longer has.") var retired: Bool
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let holds = try services.catalog.holds(includeRetired: retired)
            if json {
                let rewards = services.domain.settings.rewards
                return context.printJSON(holds.map { HoldBody(hold: $0, rewards: rewards, presentation: services.presentation) })
            }
            let milestones = services.configuration.rewards.milestones
            let streakMilestones = services.configuration.rewards.streakMilestones
            var table = Table(columns: ["id", "name", "type", "rarity", "color", "awarded"])
            for hold in holds {
                let numbers = milestones.filter { $0.value == hold.id }.keys.sorted().map { "#\($0)" }
                var awarded = hold.milestoneOnly ? "milestone only" : "weighted pick"
                if !numbers.isEmpty { awarded += " (check-in \(numbers.joined(separator: ", ")))" }
                let weeks = streakMilestones.filter { $0.value == hold.id }.keys.sorted().map { "\($0)" }
                if !weeks.isEmpty { awarded += " (streak of \(weeks.joined(separator: ", ")) \(weeks == ["1"] ? "week" : "weeks"))" }
                if hold.isRetired { awarded = "retired" }
                table.append([hold.id, hold.name, hold.type, hold.rarity.rawValue, hold.color, awarded])
            }
            context.printTable(table, emptyMessage: "The catalogue is empty. Import it with `belay holds import`.")
        }
    }

    /// `belay holds backgrounds`.
    struct Backgrounds: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "backgrounds", abstract: "List the sticker backgrounds and their story colours.")
        }

        @Flag(.json) var json: Bool

        struct Output: Encodable { var id: String, name: String, file: String, topColor: String, bottomColor: String }

        func run(_ context: CommandContext) throws {
            let backgrounds = try context.services().catalog.backgrounds()
            if json {
                return try context.printJSON(backgrounds.map { Output(id: $0.id, name: $0.name, file: $0.filePath, topColor: $0.topColor, bottomColor: $0.bottomColor) })
            }
            var table = Table(columns: ["id", "name", "top", "bottom", "file"])
            for background in backgrounds { table.append([background.id, background.name, background.topColor, background.bottomColor, background.filePath]) }
            context.printTable(table, emptyMessage: "No backgrounds. Import the catalogue with `belay holds import`.")
        }
    }
}
