import BelayCore

extension JSONValue {
    /// The number as a whole 64-bit integer; nil for anything else.
    public var intValue: Int64? {
        if case .number(let number) = self { return number.int64Value }
        return nil
    }

    /// Parses JSON bytes strictly (a member twice, or anything else not JSON, is an error).
    /// - Throws: `JSONSyntaxError` saying where.
    public static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        try JSONParser.parse(bytes)
    }
}
