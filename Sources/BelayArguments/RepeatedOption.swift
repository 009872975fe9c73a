/// An option that may be given several times (`--event a --event b`), read as `[Value]`.
@propertyWrapper
public struct RepeatedOption<Value: ExpressibleByArgument>: ArgumentDeclaration {
    public let spec: ArgumentSpec
    public let storage = ArgumentStorage()

    /// - Parameters: as `Option`, without a default.
    public init(_ name: String, valueName: String, help: String) {
        spec = .typed(Value.self, kind: .option, name: name, valueName: valueName, help: help,
                      isRequired: false, isRepeating: true)
    }

    /// The values given, in order; empty when none were.
    public var wrappedValue: [Value] {
        _ = first(Value.self)
        return storage.given.compactMap { $0 as? Value }
    }
}
