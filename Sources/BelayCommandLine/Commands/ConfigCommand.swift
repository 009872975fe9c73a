import BelayConfig

/// `belay config show|check`: what the settings resolve to, and whether they are valid.
struct ConfigCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "config", abstract: "Show or check the effective settings.", subcommands: [Show.self, Check.self])
    }

    init(arguments: ParsedArguments) {}

    /// `belay config show`.
    struct Show: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "show",
                abstract: "Print the effective settings as JSON (file, environment and defaults combined).",
                discussion: "Paths are shown resolved; database_path and server.threads show their effective values."
            )
        }

        init(arguments: ParsedArguments) {}

        func run(_ context: CommandContext) throws {
            let configuration = try context.configuration()
            context.print(configuration.formattedJSON())
            context.note("Settings from \(configuration.sourceFile ?? "the built-in defaults") and BELAY_* variables.")
        }
    }

    /// `belay config check`.
    struct Check: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "check",
                abstract: "Check the settings and list every problem, each naming its key.",
                discussion: "Exits 0 when the settings are valid, 1 with one line per problem otherwise."
            )
        }

        init(arguments: ParsedArguments) {}

        func run(_ context: CommandContext) throws {
            let configuration = try context.configuration()
            context.print("ok")
            context.note("\(configuration.sourceFile ?? "The built-in defaults") and the BELAY_* variables are valid.")
        }
    }
}
