/// The untyped description of one option, flag or positional argument, used by the parser
/// and the help text. Commands declare typed definitions (`Option`, `Flag`, `Argument`, …)
/// and list them in their `CommandConfiguration`.
public struct ArgumentSpec: Sendable {
    enum Kind: Sendable, Equatable { case option, flag, positional }

    let kind: Kind
    /// The long name without dashes (`capacity` for `--capacity`), or the positional's name.
    let name: String
    /// The placeholder in usage and help: `<n>` for `--capacity <n>`.
    let valueName: String
    let help: String
    let isRequired: Bool
    let isRepeating: Bool
    /// The default shown in help, if any.
    let defaultDescription: String?
    let allowedValues: [String]
    let expectation: String
    /// Converts one word, or returns nil when it is not a valid value.
    let convert: @Sendable (String) -> (any Sendable)?

    /// `--name` for options and flags, `<name>` for positionals.
    var displayName: String { kind == .positional ? "<\(valueName)>" : "--\(name)" }

    /// How it appears in a usage line: `--title <text>`, `[--capacity <n>]`, `<file>`.
    var usage: String {
        var text: String
        switch kind {
        case .option: text = "--\(name) <\(valueName)>"
        case .flag: text = "--\(name)"
        case .positional: text = "<\(valueName)>"
        }
        if isRepeating { text += " ..." }
        return isRequired ? text : "[\(text)]"
    }
}

/// Anything a command lists in `CommandConfiguration.arguments`.
public protocol ArgumentDefinition: Sendable {
    var spec: ArgumentSpec { get }
}

/// A required option (`--title <text>`), or one with a default (`--capacity <n>`, default 20).
/// Read it with `arguments[Self.title]`, which gives a `Value`.
public struct Option<Value: ExpressibleByArgument>: ArgumentDefinition {
    public let spec: ArgumentSpec
    let defaultValue: Value?

    /// - Parameters:
    ///   - name: the long name without dashes.
    ///   - valueName: the placeholder shown in help (`n` in `--capacity <n>`).
    ///   - defaultValue: the value when the option is left out; without one it is required.
    ///   - help: one line saying what it does.
    public init(_ name: String, valueName: String, default defaultValue: Value? = nil, help: String) {
        self.defaultValue = defaultValue
        spec = ArgumentSpec(kind: .option, name: name, valueName: valueName, help: help,
                            isRequired: defaultValue == nil, isRepeating: false,
                            defaultDescription: defaultValue.map { "\($0)" }.flatMap { $0.isEmpty ? nil : $0 },
                            allowedValues: Value.allowedValues, expectation: Value.expectation,
                            convert: { Value(argument: $0) })
    }
}

/// An option that may be left out; read it with `arguments[Self.place]`, which gives `Value?`.
public struct OptionalOption<Value: ExpressibleByArgument>: ArgumentDefinition {
    public let spec: ArgumentSpec

    public init(_ name: String, valueName: String, help: String) {
        spec = ArgumentSpec(kind: .option, name: name, valueName: valueName, help: help,
                            isRequired: false, isRepeating: false, defaultDescription: nil,
                            allowedValues: Value.allowedValues, expectation: Value.expectation,
                            convert: { Value(argument: $0) })
    }
}

/// An option that may be given several times (`--user ana --user ben`); read it as `[Value]`.
public struct RepeatedOption<Value: ExpressibleByArgument>: ArgumentDefinition {
    public let spec: ArgumentSpec

    public init(_ name: String, valueName: String, help: String) {
        spec = ArgumentSpec(kind: .option, name: name, valueName: valueName, help: help,
                            isRequired: false, isRepeating: true, defaultDescription: nil,
                            allowedValues: Value.allowedValues, expectation: Value.expectation,
                            convert: { Value(argument: $0) })
    }
}

/// A switch (`--json`); read it as `Bool`.
public struct Flag: ArgumentDefinition {
    public let spec: ArgumentSpec

    public init(_ name: String, help: String) {
        spec = ArgumentSpec(kind: .flag, name: name, valueName: "", help: help, isRequired: false,
                            isRepeating: false, defaultDescription: nil, allowedValues: [],
                            expectation: "", convert: { _ in true })
    }
}

/// A required positional argument (`belay db backup <file>`); read it as `Value`.
public struct Argument<Value: ExpressibleByArgument>: ArgumentDefinition {
    public let spec: ArgumentSpec

    public init(_ valueName: String, help: String) {
        spec = ArgumentSpec(kind: .positional, name: valueName, valueName: valueName, help: help,
                            isRequired: true, isRepeating: false, defaultDescription: nil,
                            allowedValues: Value.allowedValues, expectation: Value.expectation,
                            convert: { Value(argument: $0) })
    }
}

/// A positional argument that may be left out; read it as `Value?`.
public struct OptionalArgument<Value: ExpressibleByArgument>: ArgumentDefinition {
    public let spec: ArgumentSpec

    public init(_ valueName: String, help: String) {
        spec = ArgumentSpec(kind: .positional, name: valueName, valueName: valueName, help: help,
                            isRequired: false, isRepeating: false, defaultDescription: nil,
                            allowedValues: Value.allowedValues, expectation: Value.expectation,
                            convert: { Value(argument: $0) })
    }
}

/// One or more positional arguments at the end (`belay attendees add 3 minji jun`); read
/// them as `[Value]`, in the order given.
public struct RepeatedArgument<Value: ExpressibleByArgument>: ArgumentDefinition {
    public let spec: ArgumentSpec

    /// - Parameter required: whether at least one value must be given.
    public init(_ valueName: String, required: Bool = true, help: String) {
        spec = ArgumentSpec(kind: .positional, name: valueName, valueName: valueName, help: help,
                            isRequired: required, isRepeating: true, defaultDescription: nil,
                            allowedValues: Value.allowedValues, expectation: Value.expectation,
                            convert: { Value(argument: $0) })
    }
}

/// Options every command shares.
public enum CommonOptions {
    /// `--json`: machine-readable output instead of a table. List it in the arguments of any
    /// command that prints data.
    public static let json = Flag("json", help: "Print JSON for scripts instead of a table.")
    /// `--config <file>`: accepted by every command, before or after the subcommand.
    static let config = OptionalOption<String>("config", valueName: "file",
        help: "Read settings from this file (default: $BELAY_CONFIG, else ./config.json when present, else built-in defaults).")
    /// `--help`, `-h`: accepted by every command.
    static let help = Flag("help", help: "Show help for this command.")
    /// `--version`: accepted by `belay` itself.
    static let version = Flag("version", help: "Show Belay's version.")
}
