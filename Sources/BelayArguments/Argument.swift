/// A required positional argument (`belay db backup <file>`):
/// `@Argument("file", help: …) var file: String`.
@propertyWrapper
public struct Argument<Value: ExpressibleByArgument>: ArgumentDeclaration {
    public let spec: ArgumentSpec
    public let storage = ArgumentStorage()

    /// - Parameters:
    ///   - valueName: the name shown in usage and help (`file` in `<file>`).
    ///   - help: one line saying what it is.
    public init(_ valueName: String, help: String) {
        spec = .typed(Value.self, kind: .positional, name: valueName, valueName: valueName, help: help,
                      isRequired: true, isRepeating: false)
    }

    /// A declaration like `template`, with values of its own: for a declaration several
    /// commands share (`@Argument(MeetupsCommand.id) var id: Int64`).
    public init(_ template: Argument<Value>) {
        spec = template.spec
    }

    /// The value given (the runner refuses a command line without it).
    public var wrappedValue: Value {
        guard let value = first(Value.self) else { preconditionFailure("required \(spec.displayName) missing after parsing") }
        return value
    }
}
