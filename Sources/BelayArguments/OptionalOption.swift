/// An option that may be left out: `@OptionalOption("place", valueName: "name", help: …) var place: String?`.
@propertyWrapper
public struct OptionalOption<Value: ExpressibleByArgument>: ArgumentDeclaration {
    public let spec: ArgumentSpec
    public let storage = ArgumentStorage()

    /// - Parameters: as `Option`, without a default.
    public init(_ name: String, valueName: String, help: String) {
        spec = .typed(Value.self, kind: .option, name: name, valueName: valueName, help: help,
                      isRequired: false, isRepeating: false)
    }

    /// The value given, or nil.
    public var wrappedValue: Value? { first(Value.self) }
}
