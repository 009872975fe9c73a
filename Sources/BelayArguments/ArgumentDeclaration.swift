/// A stored property of a command that the command line fills: the property wrappers
/// `@Option`, `@OptionalOption`, `@RepeatedOption`, `@Flag`, `@Argument`,
/// `@OptionalArgument` and `@RepeatedArgument` conform.
///
/// The runner finds a command's declarations by reflecting over a fresh instance, parses the
/// command line against their specs and hands each its values; help lists the same specs.
/// A command therefore cannot read an option that is not parsed and listed.
public protocol ArgumentDeclaration: Sendable {
    /// What the parser and help need to know.
    var spec: ArgumentSpec { get }
    /// The parsed values (empty when the word was not given), shared by every copy of the
    /// declaration.
    var storage: ArgumentStorage { get }
}

extension ArgumentDeclaration {
    /// True when the word appeared on the command line (a default does not count); for
    /// `update` commands that change only what was given. Read it as `$capacity.wasGiven`.
    public var wasGiven: Bool { !storage.given.isEmpty }

    /// The first value, or a programmer-error trap when read before parsing (only the runner
    /// creates commands, and it parses first).
    func first<Value>(_ type: Value.Type) -> Value? {
        precondition(storage.isParsed, "\(spec.displayName) read before the command line was parsed")
        return storage.given.first as? Value
    }
}
