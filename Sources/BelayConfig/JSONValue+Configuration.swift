import BelayCore

extension JSONValue {
    /// The value when it is an integer within `Int`, as configuration integers are.
    var integerValue: Int? {
        guard case let .number(number) = self, let value = number.int64Value else { return nil }
        return Int(exactly: value)
    }
}
