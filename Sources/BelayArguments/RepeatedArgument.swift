/// One or more positional arguments at the end (`belay attendees add 3 minji jun`), read as
/// `[Value]` in the order given.
@propertyWrapper
public struct RepeatedArgument<Value: ExpressibleByArgument>: ArgumentDeclaration {
    public let spec: ArgumentSpec
    public let storage = ArgumentStorage()

    /// - Parameters:
    ///   - valueName: the name shown in usage and help.
    ///   - required: whether at least one value must be given.
    ///   - help: one line saying what they are.
    public init(_ valueName: String, required: Bool = true, help: String) {
        spec = .typed(Value.self, kind: .positional, name: valueName, valueName: valueName, help: help,
                      isRequired: required, isRepeating: true)
    }

    /// The values given, in order.
    public var wrappedValue: [Value] {
        _ = first(Value.self)
        return storage.given.compactMap { $0 as? Value }
    }
}
