/// The values a command line gave, already converted to their types; read them with the
/// definitions the command declared: `arguments[Self.title]`.
public struct ParsedArguments: Sendable {
    var values: [String: [any Sendable]]

    /// The name under which a definition's values are stored (positionals and options live
    /// in separate namespaces).
    static func key(_ spec: ArgumentSpec) -> String {
        spec.kind == .positional ? "<\(spec.name)>" : spec.name
    }

    private func first(_ spec: ArgumentSpec) -> (any Sendable)? { values[Self.key(spec)]?.first }

    private static func undeclared(_ spec: ArgumentSpec) -> Never {
        preconditionFailure("\(spec.displayName) is read by the command but not listed in its CommandConfiguration.arguments")
    }

    public subscript<Value>(_ option: Option<Value>) -> Value {
        if let value = first(option.spec) as? Value { return value }
        if let value = option.defaultValue { return value }
        Self.undeclared(option.spec)
    }

    public subscript<Value>(_ option: OptionalOption<Value>) -> Value? {
        first(option.spec) as? Value
    }

    public subscript<Value>(_ option: RepeatedOption<Value>) -> [Value] {
        (values[Self.key(option.spec)] ?? []).compactMap { $0 as? Value }
    }

    public subscript(_ flag: Flag) -> Bool {
        first(flag.spec) != nil
    }

    public subscript<Value>(_ argument: Argument<Value>) -> Value {
        if let value = first(argument.spec) as? Value { return value }
        Self.undeclared(argument.spec)
    }

    public subscript<Value>(_ argument: RepeatedArgument<Value>) -> [Value] {
        (values[Self.key(argument.spec)] ?? []).compactMap { $0 as? Value }
    }

    public subscript<Value>(_ argument: OptionalArgument<Value>) -> Value? {
        first(argument.spec) as? Value
    }

    /// True when the option, flag or argument appeared on the command line (a default does
    /// not count); for `update` commands that change only what was given.
    public func wasGiven(_ definition: some ArgumentDefinition) -> Bool {
        values[Self.key(definition.spec)] != nil
    }
}
