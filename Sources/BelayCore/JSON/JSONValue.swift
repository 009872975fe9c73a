/// A JSON value: what `JSONParser` reads and `JSONOutput` writes. Numbers keep their text
/// (`JSONNumber`), objects keep their members' order (`JSONObject`).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The integer `value`.
    public static func int(_ value: Int64) -> JSONValue { .number(JSONNumber(value)) }

    /// The number `value` (written as an integer when it is one).
    public static func double(_ value: Double) -> JSONValue { .number(JSONNumber(value)) }

    /// The object with `dictionary`'s members, in name order.
    public static func object(_ dictionary: [String: JSONValue]) -> JSONValue { .object(JSONObject(dictionary)) }

    /// The text of a string; nil for other values.
    public var stringValue: String? {
        guard case let .string(text) = self else { return nil }
        return text
    }

    /// The flag of a boolean; nil for other values.
    public var boolValue: Bool? {
        guard case let .bool(flag) = self else { return nil }
        return flag
    }

    /// The elements of an array; nil for other values.
    public var arrayValue: [JSONValue]? {
        guard case let .array(elements) = self else { return nil }
        return elements
    }

    /// The members of an object; nil for other values.
    public var objectValue: JSONObject? {
        guard case let .object(members) = self else { return nil }
        return members
    }

    /// The member named `key` of an object, or nil (also for other values).
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members[key]
    }

    /// How the value is described in error messages: `the string "8080"`, `the integer 3`,
    /// `the number 1.5`, `an object`, …
    public var described: String {
        switch self {
        case .null: return "null"
        case let .bool(value): return "the boolean \(value)"
        case let .number(value): return value.isInteger ? "the integer \(value)" : "the number \(value)"
        case let .string(value): return "the string \(JSONOutput.quoted(value))"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The kind of value alone, for type mismatches: "a string", "null", …
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as compact JSON bytes (object members sorted by name).
    public var jsonBytes: [UInt8] { JSONOutput.bytes(of: self) }

    /// The value as JSON text for people: two-space indent, object members in their order.
    public func prettyPrinted(indent: String = "") -> String {
        switch self {
        case .null: return "null"
        case let .bool(value): return value ? "true" : "false"
        case let .number(value): return value.text
        case let .string(value): return JSONOutput.quoted(value)
        case let .array(items):
            if items.isEmpty { return "[]" }
            let inner = indent + "  "
            return "[\n" + items.map { inner + $0.prettyPrinted(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case let .object(members):
            if members.isEmpty { return "{}" }
            let inner = indent + "  "
            return "{\n" + members.map { inner + JSONOutput.quoted($0.key) + ": " + $0.value.prettyPrinted(indent: inner) }
                .joined(separator: ",\n") + "\n\(indent)}"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

extension JSONValue {
    /// The object with these members, in this order (a repeated name keeps its last value).
    public static func object(_ members: [(String, JSONValue)]) -> JSONValue { .object(JSONObject(members)) }
}

/// Any decoder can read a free-form value (the strict decoder hands over the parsed value as it
/// is); any encoder can write one.
extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let number):
            if let integer = number.int64Value { try container.encode(integer) } else { try container.encode(number.doubleValue) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let members): try container.encode(Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }))
        }
    }
}
