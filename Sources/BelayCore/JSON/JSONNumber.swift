/// A JSON number as written: the literal text is kept, so an integer beyond `Int64` (or a
/// decimal) converts exactly to whatever type finally reads it.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// The number's JSON text, e.g. `42`, `-1.5e-3`.
    public let text: String

    /// A number from JSON text the parser has checked.
    init(literal text: String) { self.text = text }

    /// The integer `value`.
    public init(_ value: Int64) { text = String(value) }

    /// The number `value`, written as an integer when it is one (`2.0` as `2`); a non-finite
    /// value, which JSON cannot carry, is written as 0.
    public init(_ value: Double) {
        if !value.isFinite {
            text = "0"
        } else if value == value.rounded(), abs(value) < 1e15 {
            text = String(Int64(value))
        } else {
            text = String(value)
        }
    }

    public init(integerLiteral value: Int64) { self.init(value) }
    public init(floatLiteral value: Double) { self.init(value) }

    /// True when written without a fraction or an exponent and within `Int64`.
    public var isInteger: Bool { int64Value != nil }

    /// The value when written as an integer within `Int64`; nil for `1.5`, `1e3` or `2^64`.
    public var int64Value: Int64? { Int64(text) }

    /// The value as the nearest `Double`.
    public var doubleValue: Double { Double(text) ?? 0 }

    public var description: String { text }

    /// Equal when they denote the same number (`1` and `1.0` do).
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if let left = lhs.int64Value, let right = rhs.int64Value { return left == right }
        return lhs.doubleValue == rhs.doubleValue
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(doubleValue) }
}
