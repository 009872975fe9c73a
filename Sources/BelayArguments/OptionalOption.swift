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

    /// A declaration like `template`, with values of its own: for a declaration several
    /// commands share (`@OptionalOption(MeetupsCommand.id) var id: Int64`).
    public init(_ template: OptionalOption<Value>) {
        spec = template.spec
    }

    /// The value given, or nil.
    public var wrappedValue: Value? { first(Value.self) }

    /// The declaration itself, for `$place.wasGiven`.
    public var projectedValue: OptionalOption<Value> { self }
}
