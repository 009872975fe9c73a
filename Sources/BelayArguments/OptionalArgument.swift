/// A positional argument that may be left out, read as `Value?`.
@propertyWrapper
public struct OptionalArgument<Value: ExpressibleByArgument>: ArgumentDeclaration {
    public let spec: ArgumentSpec
    public let storage = ArgumentStorage()

    /// - Parameters: as `Argument`.
    public init(_ valueName: String, help: String) {
        spec = .typed(Value.self, kind: .positional, name: valueName, valueName: valueName, help: help,
                      isRequired: false, isRepeating: false)
    }

    /// A declaration like `template`, with values of its own: for a declaration several
    /// commands share (`@OptionalArgument(MeetupsCommand.id) var id: Int64`).
    public init(_ template: OptionalArgument<Value>) {
        spec = template.spec
    }

    /// The value given, or nil.
    public var wrappedValue: Value? { first(Value.self) }
}
