/// One command or command group of a command-line tool.
///
/// ## Adding a command
///
/// 1. Write a type conforming to `ParsableCommand` in its own file (for a group, nest its
///    subcommands in it). Each option is one property-wrapper declaration: that declaration
///    is what the runner parses, what help lists and what the command reads.
///
///    ```swift
///    struct RenderSticker: ParsableCommand {
///        static let configuration = CommandConfiguration(name: "sticker", abstract: "Render a reward's sticker.")
///
///        @Argument("reward-id", help: "The reward to render.") var reward: Int64
///        @Option("output", valueName: "file", default: "sticker.png", help: "Where to write the PNG.") var output: String
///        @Flag("json", help: "Print JSON for scripts instead of a table.") var json: Bool
///
///        func validate() throws {   // optional; runs before run(_:)
///            guard reward > 0 else { throw CommandLineError.usage("<reward-id> must be positive") }
///        }
///
///        func run(_ context: CommandContext) throws {
///            context.print(...)                                  // data → stdout
///            context.note("Wrote \(output)")                     // messages → stderr
///        }
///    }
///    ```
/// 2. List it in its parent's `subcommands`.
///
/// The runner gives every command `--help`/`-h` and the global `--config <file>`, turns
/// unknown options and subcommands into usage errors (exit 64, with a "did you mean"),
/// and maps thrown errors to exit codes: `CommandLineError.usage` → 64, anything else → 1
/// with its description. Values are converted before `validate()`, so a wrong type or a
/// missing required option never reaches the command.
///
/// A command's stored properties are its declarations and nothing else: the runner creates
/// it with `init()`, finds the declarations by reflection and fills them.
public protocol ParsableCommand: Sendable {
    /// Name, abstract, discussion and subcommands.
    static var configuration: CommandConfiguration { get }
    /// A command whose declarations are not yet parsed; only the runner calls it.
    init()
    /// Checks the values before anything runs; throw `CommandLineError.usage` to refuse
    /// combinations that cannot be checked one argument at a time.
    func validate() throws
    /// Does the work. A group command without its own work never gets here: the runner
    /// asks for a subcommand instead.
    func run(_ context: CommandContext) throws
}

extension ParsableCommand {
    public func validate() throws {}
    public func run(_ context: CommandContext) throws {
        throw CommandLineError.usage("choose a subcommand")
    }

    /// The options, flags and positionals this command declares, in declaration order (the
    /// order help lists them in).
    public static var declaredArguments: [ArgumentSpec] { declarations(of: Self()).map(\.spec) }
}

/// The declarations among `value`'s stored properties and those of the `ArgumentGroup`s it
/// stores, in declaration order.
func declarations(of value: any Sendable) -> [any ArgumentDeclaration] {
    Mirror(reflecting: value).children.flatMap { child -> [any ArgumentDeclaration] in
        if let declaration = child.value as? any ArgumentDeclaration { return [declaration] }
        if let group = child.value as? any ArgumentGroup { return declarations(of: group) }
        return []
    }
}
