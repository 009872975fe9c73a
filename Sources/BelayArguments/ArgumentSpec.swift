/// The untyped description of one option, flag or positional argument: what the parser
/// matches, what help lists and what the tests that walk a command tree inspect.
///
/// Commands never build one: each property wrapper (`@Option`, `@Flag`, `@Argument`, …)
/// carries its own, so the declaration that is read is the one that is parsed and listed.
public struct ArgumentSpec: Sendable {
    /// Whether the word is `--name value`, `--name` or a bare value.
    public enum Kind: Sendable, Equatable { case option, flag, positional }

    /// Option, flag or positional.
    public let kind: Kind
    /// The long name without dashes (`capacity` for `--capacity`), or the positional's name.
    public let name: String
    /// The placeholder in usage and help: `n` in `--capacity <n>`.
    public let valueName: String
    /// One line saying what it does, shown in `--help`.
    public let help: String
    /// Whether the command line must give it (a required option, a positional).
    public let isRequired: Bool
    /// Whether it may be given more than once (`--event a --event b`, trailing positionals).
    public let isRepeating: Bool
    /// The default shown in help, if any.
    public let defaultDescription: String?
    /// The values help lists for an enumeration, or empty.
    public let allowedValues: [String]
    /// What a valid value looks like, for error messages: "an integer".
    let expectation: String
    /// Converts one word, or returns nil when it is not a valid value.
    let convert: @Sendable (String) -> (any Sendable)?

    init(kind: Kind, name: String, valueName: String, help: String, isRequired: Bool, isRepeating: Bool,
         defaultDescription: String? = nil, allowedValues: [String] = [], expectation: String = "",
         convert: @escaping @Sendable (String) -> (any Sendable)? = { _ in true }) {
        self.kind = kind
        self.name = name
        self.valueName = valueName
        self.help = help
        self.isRequired = isRequired
        self.isRepeating = isRepeating
        self.defaultDescription = defaultDescription
        self.allowedValues = allowedValues
        self.expectation = expectation
        self.convert = convert
    }

    /// A spec for a value of type `Value`, taking its allowed values and expectation from it.
    static func typed<Value: ExpressibleByArgument>(
        _ type: Value.Type, kind: Kind, name: String, valueName: String, help: String,
        isRequired: Bool, isRepeating: Bool, defaultDescription: String? = nil
    ) -> ArgumentSpec {
        ArgumentSpec(kind: kind, name: name, valueName: valueName, help: help, isRequired: isRequired,
                     isRepeating: isRepeating, defaultDescription: defaultDescription,
                     allowedValues: Value.allowedValues, expectation: Value.expectation,
                     convert: { Value(argument: $0) })
    }

    /// `--name` for options and flags, `<name>` for positionals.
    public var displayName: String { kind == .positional ? "<\(valueName)>" : "--\(name)" }

    /// How it appears in a usage line: `--title <text>`, `[--capacity <n>]`, `<file>`.
    public var usage: String {
        var text: String
        switch kind {
        case .option: text = "--\(name) <\(valueName)>"
        case .flag: text = "--\(name)"
        case .positional: text = "<\(valueName)>"
        }
        if isRepeating { text += " ..." }
        return isRequired ? text : "[\(text)]"
    }

    /// The key its values are stored under (positionals and options have separate namespaces).
    public var key: String { kind == .positional ? "<\(name)>" : name }
}
