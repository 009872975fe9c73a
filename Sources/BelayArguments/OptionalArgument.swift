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

    /// The value given, or nil.
    public var wrappedValue: Value? { first(Value.self) }
}
