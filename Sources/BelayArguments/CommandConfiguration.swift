/// What the runner and help need to know about a command besides its declarations.
public struct CommandConfiguration: Sendable {
    /// The word that selects the command (`create` in `belay meetups create`).
    public var name: String
    /// One line for the parent's list of subcommands and the top of `--help`.
    public var abstract: String
    /// Longer text shown after the usage in `--help`: examples, rules.
    public var discussion: String
    /// Subcommands, in the order help lists them.
    public var subcommands: [any ParsableCommand.Type]
    /// Overrides the generated usage line (after the command path), when the generated one
    /// would mislead.
    public var usage: String?

    /// - Parameters: as the properties of the same names; a leaf command leaves out
    ///   `subcommands`.
    public init(name: String, abstract: String, discussion: String = "",
                subcommands: [any ParsableCommand.Type] = [], usage: String? = nil) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.subcommands = subcommands
        self.usage = usage
    }
}
