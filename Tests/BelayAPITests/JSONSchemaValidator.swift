import BelayCore
import BelayHTTP
import Foundation

/// Checks JSON values against the JSON Schema subset the OpenAPI document uses: `type`
/// (one or a list, with `null`), `properties`, `required`, `additionalProperties` (false or a
/// schema), `items`, `enum`, `pattern`, `minimum`/`maximum`, `format: date-time` (RFC 3339 with
/// an offset), `anyOf`, and `$ref` into `#/components/schemas`. Any other keyword in a schema
/// is reported, so a schema can never pass because the validator ignored it.
struct JSONSchemaValidator {
    /// `components.schemas` of the document.
    let schemas: JSONObject

    init(document: JSONValue) {
        schemas = document["components"]?["schemas"]?.objectValue ?? [:]
    }

    static let knownKeywords: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "enum", "pattern", "minimum", "maximum",
        "format", "anyOf", "$ref", "description", "default", "contentMediaType", "minLength", "maxLength",
    ]

    /// Every mismatch, as `path: problem`; empty when `value` conforms.
    func problems(_ value: JSONValue, against schema: JSONValue, path: String = "$") -> [String] {
        guard let schema = schema.objectValue else { return ["\(path): schema is not an object"] }
        var problems: [String] = []
        for keyword in schema.keys where !Self.knownKeywords.contains(keyword) {
            problems.append("\(path): the validator does not know the keyword `\(keyword)`")
        }
        if let reference = schema["$ref"]?.stringValue {
            let prefix = "#/components/schemas/"
            guard reference.hasPrefix(prefix), let target = schemas[String(reference.dropFirst(prefix.count))] else {
                return problems + ["\(path): unresolvable $ref \(reference)"]
            }
            return problems + self.problems(value, against: target, path: path)
        }
        if case .array(let options)? = schema["anyOf"] {
            let results = options.map { self.problems(value, against: $0, path: path) }
            if !results.contains(where: \.isEmpty) {
                problems.append("\(path): matches none of anyOf: " + results.map { $0.joined(separator: "; ") }.joined(separator: " | "))
            }
        }
        if let type = schema["type"] {
            let allowed: [String]
            switch type {
            case .string(let one): allowed = [one]
            case .array(let many): allowed = many.compactMap(\.stringValue)
            default: allowed = []
            }
            guard allowed.contains(where: { Self.value(value, hasType: $0) }) else {
                return problems + ["\(path): expected \(allowed.joined(separator: " or ")), found \(Self.describe(value))"]
            }
        }
        if case .array(let allowed)? = schema["enum"], !allowed.contains(where: { Self.equal($0, value) }) {
            problems.append("\(path): \(Self.describe(value)) is not one of \(allowed.map(Self.describe))")
        }
        if case .string(let text) = value {
            if let pattern = schema["pattern"]?.stringValue, text.range(of: pattern, options: .regularExpression) == nil {
                problems.append("\(path): \"\(text)\" does not match \(pattern)")
            }
            let length = text.unicodeScalars.count
            if let minimum = schema["minLength"]?.intValue, length < minimum { problems.append("\(path): \(length) characters < \(minimum)") }
            if let maximum = schema["maxLength"]?.intValue, length > maximum { problems.append("\(path): \(length) characters > \(maximum)") }
            if schema["format"]?.stringValue == "date-time", RFC3339.parse(text) == nil {
                problems.append("\(path): \"\(text)\" is not an RFC 3339 date-time with an offset")
            }
        }
        if let number = Self.number(value) {
            if let minimum = schema["minimum"].flatMap(Self.number), number < minimum { problems.append("\(path): \(number) < \(minimum)") }
            if let maximum = schema["maximum"].flatMap(Self.number), number > maximum { problems.append("\(path): \(number) > \(maximum)") }
        }
        if case .object(let object) = value {
            let properties = schema["properties"]?.objectValue ?? [:]
            if case .array(let required)? = schema["required"] {
                for name in required.compactMap(\.stringValue) where object[name] == nil {
                    problems.append("\(path): missing required member `\(name)`")
                }
            }
            for (name, member) in object.sorted(by: { $0.key < $1.key }) {
                if let property = properties[name] {
                    problems += self.problems(member, against: property, path: "\(path).\(name)")
                } else if let additional = schema["additionalProperties"] {
                    if case .bool(let allowed) = additional {
                        if !allowed { problems.append("\(path): member `\(name)` is not in the schema") }
                    } else {
                        problems += self.problems(member, against: additional, path: "\(path).\(name)")
                    }
                }
            }
        }
        if case .array(let array) = value, let items = schema["items"] {
            for (index, element) in array.enumerated() {
                problems += self.problems(element, against: items, path: "\(path)[\(index)]")
            }
        }
        return problems
    }

    static func value(_ value: JSONValue, hasType type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array), ("object", .object):
            return true
        case ("integer", .number(let number)):
            return number.isInteger
        default:
            return false
        }
    }

    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .number(let number): return number.doubleValue
        default: return nil
        }
    }

    static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        if let left = number(lhs), let right = number(rhs) { return left == right }
        return lhs == rhs
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .string(let text): return "string \"\(text.prefix(40))\""
        case .bool: return "boolean"
        case .number(let number): return number.isInteger ? "integer \(number)" : "number \(number)"
        case .array: return "array"
        case .object: return "object"
        }
    }
}
