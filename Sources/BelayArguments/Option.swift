/// A required option (`--title <text>`), or one with a default (`--capacity <n>`, default 20):
///
/// ```swift
/// @Option("capacity", valueName: "n", default: 20, help: "Places.") var capacity: Int
/// ```
@propertyWrapper
public struct Option<Value: ExpressibleByArgument>: ArgumentDeclaration {
    public let spec: ArgumentSpec
    public let storage = ArgumentStorage()
    private let defaultValue: Value?

    /// - Parameters:
    ///   - name: the long name without dashes.
    ///   - valueName: the placeholder shown in help (`n` in `--capacity <n>`).
    ///   - defaultValue: the value when the option is left out; without one it is required.
    ///   - help: one line saying what it does.
    public init(_ name: String, valueName: String, default defaultValue: Value? = nil, help: String) {
        self.defaultValue = defaultValue
        spec = .typed(Value.self, kind: .option, name: name, valueName: valueName, help: help,
                      isRequired: defaultValue == nil, isRepeating: false,
                      defaultDescription: defaultValue.map { "\($0)" }.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The value given, else the default (a required option is always given: the runner
    /// refuses the command line otherwise).
    public var wrappedValue: Value {
        if let value = first(Value.self) { return value }
        guard let defaultValue else { preconditionFailure("required \(spec.displayName) missing after parsing") }
        return defaultValue
    }

    /// The declaration itself, for `$capacity.wasGiven`.
    public var projectedValue: Option<Value> { self }
}
