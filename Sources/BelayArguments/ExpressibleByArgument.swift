/// A type an option or positional argument can be parsed into.
///
/// `String`, `Int`, `Int64` and `Double` conform; so does any `String`-backed enum that
/// declares conformance (its allowed values are listed in help and errors when it is also
/// `CaseIterable`).
public protocol ExpressibleByArgument: Sendable {
    /// The value for a command-line word, or nil when the word is not a valid value.
    init?(argument: String)
    /// What a valid value looks like, for error messages: "an integer", "one of png, jpeg".
    static var expectation: String { get }
    /// The allowed values to list in help, or empty for open-ended types.
    static var allowedValues: [String] { get }
}

extension ExpressibleByArgument {
    public static var allowedValues: [String] { [] }
}

extension String: ExpressibleByArgument {
    public init?(argument: String) { self = argument }
    public static var expectation: String { "a text" }
}

extension Int: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
    public static var expectation: String { "an integer" }
}

extension Int64: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
    public static var expectation: String { "an integer" }
}

extension Double: ExpressibleByArgument {
    public init?(argument: String) {
        guard let value = Double(argument), value.isFinite else { return nil }
        self = value
    }
    public static var expectation: String { "a number" }
}

extension ExpressibleByArgument where Self: RawRepresentable, RawValue == String {
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var expectation: String { "a valid value" }
}

extension ExpressibleByArgument where Self: RawRepresentable, RawValue == String, Self: CaseIterable {
    public static var expectation: String { "one of " + allCases.map(\.rawValue).joined(separator: ", ") }
    public static var allowedValues: [String] { allCases.map(\.rawValue) }
}
