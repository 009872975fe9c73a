/// One `belay` command or command group.
///
/// ## Adding a command
///
/// 1. Write a type conforming to `ParsableCommand` in its own file under
///    `Sources/BelayCommandLine/Commands/` (for a group, nest its subcommands in it, as
///    `UsersCommand` does):
///
///    ```swift
///    struct RenderSticker: ParsableCommand {
///        static let reward = Argument<Int64>("reward-id", help: "The reward to render.")
///        static let output = Option<String>("output", valueName: "file", default: "sticker.png",
///                                           help: "Where to write the PNG.")
///
///        static var configuration: CommandConfiguration {
///            CommandConfiguration(name: "sticker", abstract: "Render a reward's sticker.",
///                                 arguments: [reward, output, CommonOptions.json])
///        }
///
///        let reward: Int64, output: String, json: Bool
///
///        init(arguments: ParsedArguments) throws {
///            reward = arguments[Self.reward]
///            output = arguments[Self.output]
///            json = arguments[CommonOptions.json]
///        }
///
///        func validate() throws {   // optional; runs before run(_:)
///            guard reward > 0 else { throw CommandLineError.usage("<reward-id> must be positive") }
///        }
///
///        func run(_ context: CommandContext) throws {
///            let configuration = try context.configuration()     // config.json + BELAY_*
///            let database = try context.openDatabase()           // refuses a stale schema
///            context.print(...)                                  // data → stdout
///            context.note("Wrote \(output)")                     // messages → stderr
///        }
///    }
///    ```
/// 2. List it in its parent's `subcommands` (top-level commands in `BelayRootCommand`).
/// 3. Add tests under `Tests/BelayCLITests` that run the real binary with `BelayProcess`.
///
/// The framework gives every command `--help`/`-h` and the global `--config <file>`, turns
/// unknown options and subcommands into usage errors (exit 64, with a "did you mean"),
/// and maps thrown errors to exit codes: `CommandLineError.usage` → 64, anything else → 1
/// with its description. Values are parsed before `init(arguments:)`, so a wrong type or
/// a missing required option never reaches the command.
///
/// Commands never write SQL: they call BelayDomain / BelayStorage. C callbacks (servers,
/// workers) belong in library code, never in `main.swift`.
public protocol ParsableCommand: Sendable {
    /// Name, abstract, arguments and subcommands.
    static var configuration: CommandConfiguration { get }
    /// Reads the already-converted values. Throw `CommandLineError.usage` for combinations
    /// that cannot be checked one argument at a time.
    init(arguments: ParsedArguments) throws
    /// Checks the values before anything runs; throw `CommandLineError.usage` to refuse.
    func validate() throws
    /// Does the work. A group command without its own work never gets here: the framework
    /// asks for a subcommand instead.
    func run(_ context: CommandContext) throws
}

extension ParsableCommand {
    public func validate() throws {}
    public func run(_ context: CommandContext) throws {
        throw CommandLineError.usage("choose a subcommand")
    }
}

/// What the framework needs to know about a command.
public struct CommandConfiguration: Sendable {
    /// The word that selects the command (`create` in `belay meetups create`).
    public var name: String
    /// One line for the parent's list of subcommands and the top of `--help`.
    public var abstract: String
    /// Longer text shown after the usage in `--help`: examples, rules.
    public var discussion: String
    /// Options, flags and positionals, in the order help lists them.
    public var arguments: [any ArgumentDefinition]
    /// Subcommands, in the order help lists them.
    public var subcommands: [any ParsableCommand.Type]
    /// Overrides the generated usage line (after `belay <path>`), when the generated one
    /// would mislead.
    public var usage: String?

    public init(name: String, abstract: String, discussion: String = "",
                arguments: [any ArgumentDefinition] = [], subcommands: [any ParsableCommand.Type] = [],
                usage: String? = nil) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.subcommands = subcommands
        self.usage = usage
    }
}
